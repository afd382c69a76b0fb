/**
 * The board's sign-in and message pages (served as /board/assets/login.css; the CSP allows no inline
 * style). Colours keep at least 4.5:1 contrast on their backgrounds; focus is always visible.
 */
export const LOGIN_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5360; --brand: #0b4f8a; --line: #8a94a3; --bad: #8a1c1c; --bad-bg: #fdecec; --ok: #1d5e2c; --ok-bg: #e7f5ea; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f3f5f8; }
.top { display: flex; justify-content: flex-end; padding: .75rem 1rem; }
.langs { display: flex; gap: .25rem; }
.langs a { color: var(--brand); padding: .25rem .5rem; border-radius: 4px; text-decoration: none; font-weight: 600; }
.langs a[aria-current] { background: var(--brand); color: #fff; }
main { max-width: 26rem; margin: 2rem auto; padding: 2rem; background: #fff; border: 1px solid #d5dae1; border-radius: 8px; }
h1 { font-size: 1.4rem; margin: 0 0 1.25rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
input[type=email], input[type=password] { width: 100%; padding: .6rem .7rem; font: inherit; color: var(--ink); border: 1px solid var(--line); border-radius: 4px; background: #fff; }
button { margin-top: 1.5rem; width: 100%; padding: .7rem 1rem; font: inherit; font-weight: 600; color: #fff; background: var(--brand); border: 0; border-radius: 4px; cursor: pointer; }
button:hover { background: #083c69; }
a:focus-visible, input:focus-visible, button:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
button:focus-visible { outline-color: var(--ink); }
.alert { margin: 0 0 1rem; padding: .75rem 1rem; border-radius: 4px; color: var(--bad); background: var(--bad-bg); border: 1px solid var(--bad); }
.notice { margin: 0 0 1rem; padding: .75rem 1rem; border-radius: 4px; color: var(--ok); background: var(--ok-bg); border: 1px solid var(--ok); }
main > a { color: var(--brand); font-weight: 600; }
`;

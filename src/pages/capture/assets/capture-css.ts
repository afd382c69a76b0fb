/** Stylesheet of the capture page: mobile first, large touch targets, high contrast, no web fonts. */
export const CAPTURE_CSS = `
:root { --blue: #0b4f8a; --blue-dark: #083a66; --red: #a4161a; --ink: #1b1f24; --muted: #5a6470; --bg: #f5f7fa; --ok: #1e7b34; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 17px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
.top { display: flex; justify-content: space-between; align-items: center; padding: 10px 16px; background: var(--blue); color: #fff; }
.brand { display: block; }
.langs { display: flex; gap: 4px; }
.langs a { color: #fff; text-decoration: none; padding: 8px 10px; border-radius: 6px; font-weight: 600; min-width: 44px; text-align: center; }
.langs a[aria-current="true"] { background: rgba(255,255,255,.22); text-decoration: underline; }
main { max-width: 560px; margin: 0 auto; padding: 16px 16px 32px; }
h1 { font-size: 1.5rem; margin: 8px 0 12px; }
h2 { font-size: 1.15rem; margin: 20px 0 8px; }
h1:focus, h2:focus { outline: none; }
.note { background: #fff8e1; border-left: 4px solid #c98a00; padding: 8px 14px; border-radius: 6px; margin: 12px 0; }
.note h2 { margin-top: 4px; font-size: 1rem; }
.scenes { counter-reset: scene; list-style: none; padding: 0; margin: 12px 0; }
.scenes li { counter-increment: scene; background: #fff; border: 1px solid #d5dbe3; border-radius: 8px; padding: 10px 12px 10px 48px; margin: 6px 0; position: relative; }
.scenes li::before { content: counter(scene); position: absolute; left: 12px; top: 9px; width: 26px; height: 26px; border-radius: 50%; background: var(--blue); color: #fff; text-align: center; font-weight: 700; line-height: 26px; }
.scenes li.done::before { content: "✓"; background: var(--ok); }
.how { padding-left: 22px; color: var(--muted); }
button { font: inherit; min-height: 48px; border-radius: 10px; padding: 10px 18px; cursor: pointer; border: 2px solid transparent; }
button:focus-visible, a:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
button[disabled] { opacity: .55; cursor: default; }
.primary { background: var(--blue); color: #fff; width: 100%; font-weight: 700; margin: 8px 0; }
.primary:hover { background: var(--blue-dark); }
.secondary { background: #fff; color: var(--blue); border-color: var(--blue); width: 100%; font-weight: 600; margin: 8px 0; }
.link { background: none; color: var(--blue); text-decoration: underline; padding: 8px 0; display: block; text-align: left; min-height: 44px; }
.link.danger { color: var(--red); }
.row { display: flex; gap: 10px; }
.row > button { flex: 1; }
.viewfinder { background: #000; border-radius: 12px; overflow: hidden; display: flex; align-items: center; justify-content: center; }
/* contain, not cover: the viewfinder shows exactly the frame that will be sent. */
.viewfinder video { width: 100%; max-height: 62vh; object-fit: contain; display: block; }
.shutter { font-size: 1.1rem; }
.scene-text { margin: 0 0 10px; font-weight: 600; }
#preview-img { width: 100%; border-radius: 12px; display: block; max-height: 58vh; object-fit: contain; background: #000; }
.warning { background: #fdecea; border-left: 4px solid var(--red); padding: 8px 14px; border-radius: 6px; margin: 10px 0; }
.warning p { margin: 4px 0; font-weight: 600; }
progress { width: 100%; height: 14px; margin: 10px 0; accent-color: var(--blue); }
.status { color: var(--muted); margin: 0 0 6px; font-weight: 600; }
.status:empty { display: none; }
.other { border-top: 1px solid #d5dbe3; margin-top: 28px; padding-top: 4px; }
dialog { border: none; border-radius: 12px; padding: 20px; max-width: 92vw; box-shadow: 0 10px 40px rgba(0,0,0,.35); }
dialog::backdrop { background: rgba(0,0,0,.45); }
.message h1 { margin-top: 24px; }
[hidden] { display: none !important; }
@media (prefers-reduced-motion: no-preference) { button { transition: background .15s; } }
`;

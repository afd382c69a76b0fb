/**
 * The board's stylesheet (served as /board/assets/board.css; the CSP allows no inline style).
 * Text colours keep at least 4.5:1 contrast on their backgrounds (checked by the browser test);
 * focus is always visible; no web fonts, no external resources.
 */
export const BOARD_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5360; --brand: #0b4f8a; --brand-dark: #083c69; --line: #d5dae1; --field: #6b7482; --bg: #f3f5f8;
  --ok: #1d5e2c; --ok-bg: #e7f5ea; --bad: #8a1c1c; --bad-bg: #fdecec; --warn: #6b4a00; --warn-bg: #fff4d6; --info: #4b2a85; --info-bg: #f0ebfa; --grey: #3d4650; --grey-bg: #eef1f5; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--brand); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: #fff; padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; top: .5rem; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .6rem 1.5rem; background: var(--brand); color: #fff; }
.top a { color: #fff; }
.top a:focus-visible, .top button:focus-visible { outline-color: #fff; }
.brand { font-weight: 700; font-size: 1.1rem; text-decoration: none; margin-right: auto; }
.langs { display: flex; gap: .25rem; }
.langs a { padding: .2rem .45rem; border-radius: 4px; text-decoration: none; font-weight: 600; }
.langs a[aria-current] { background: #fff; color: var(--brand); }
.who { margin: 0; }
.logout { margin: 0; }
.logout button { font: inherit; color: #fff; background: transparent; border: 1px solid #fff; border-radius: 4px; padding: .25rem .7rem; cursor: pointer; }
main { max-width: 1480px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 0 0 .6rem; }
h3 { font-size: 1rem; margin: 0 0 .4rem; }
h4 { font-size: .95rem; margin: .8rem 0 .3rem; }
button, .button { font: inherit; border-radius: 4px; padding: .45rem .9rem; cursor: pointer; border: 1px solid var(--brand); text-decoration: none; display: inline-block; }
.primary { background: var(--brand); color: #fff; font-weight: 600; }
.primary:hover { background: var(--brand-dark); }
.secondary, .button { background: #fff; color: var(--brand); font-weight: 600; }
input, select, textarea { font: inherit; color: var(--ink); background: #fff; border: 1px solid var(--field); border-radius: 4px; padding: .4rem .55rem; }
label { font-weight: 600; }
.alert { padding: .7rem 1rem; border-radius: 4px; color: var(--bad); background: var(--bad-bg); border: 1px solid var(--bad); margin: 0 0 1rem; }
.alert p { margin: .2rem 0; }
.notice { padding: .7rem 1rem; border-radius: 4px; color: var(--ok); background: var(--ok-bg); border: 1px solid var(--ok); margin: 0 0 1rem; }
.kept-note { white-space: pre-wrap; background: #fff; color: var(--ink); border-left: 3px solid var(--bad); margin: .4rem 0; padding: .4rem .7rem; }
.filters { display: flex; flex-wrap: wrap; align-items: flex-start; gap: .75rem 1rem; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; margin-bottom: .6rem; }
.field { display: flex; flex-direction: column; gap: .2rem; }
.field small { color: var(--muted); font-size: .8rem; }
#q { width: 16rem; }
/* Level with the inputs: below a label's line (1.45 × 15 px) and the field gap. */
.buttons { display: flex; gap: .5rem; align-items: center; margin-top: calc(1.45em + .2rem); }
.live { color: var(--muted); font-size: .85rem; margin: .2rem 0 .8rem; }
.columns { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 1rem; align-items: start; }
.columns.single { grid-template-columns: minmax(0, 1fr); max-width: 56rem; }
.column { background: #e8ecf1; border-radius: 6px; padding: .7rem; border-top: 5px solid var(--grey); }
.col-sent { border-top-color: var(--brand); }
.col-reminder { border-top-color: #b07800; }
.col-manual { border-top-color: var(--bad); }
.col-closed { border-top-color: var(--ok); }
.column h2 { display: flex; justify-content: space-between; align-items: center; }
.column h2 a { color: var(--ink); text-decoration: none; }
.column h2 a:hover { text-decoration: underline; }
.count { background: #fff; color: var(--ink); border-radius: 999px; padding: 0 .55rem; font-size: .85rem; font-weight: 700; }
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
.single .cards { grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.card { background: #fff; border: 1px solid var(--line); border-radius: 5px; padding: .55rem .7rem; }
.case-number { font-weight: 700; word-break: break-all; display: block; margin-bottom: .25rem; }
.card p { margin: .25rem 0 0; font-size: .85rem; }
.card .reason { margin-top: 0; }
.meta { color: var(--muted); }
.reason { color: var(--bad); font-weight: 600; }
.bounced, .remind, .bounced-banner { color: var(--warn); font-weight: 600; }
.bounced-banner { background: var(--warn-bg); padding: .5rem 1rem; border-radius: 4px; }
.empty { color: var(--muted); font-style: italic; margin: .3rem 0; }
.more { display: inline-block; margin-top: .6rem; font-weight: 600; }
.pages { display: flex; gap: 1rem; align-items: center; margin-top: .8rem; }
.badge { display: inline-block; font-size: .78rem; font-weight: 600; border-radius: 3px; padding: .05rem .4rem; background: var(--grey-bg); color: var(--grey); }
.result-io, .check-pass, .verdict-ok, .status-closed, .outbox-sent { background: var(--ok-bg); color: var(--ok); }
.result-nicht_io, .check-fail, .verdict-suspicious, .status-manual, .outbox-failed { background: var(--bad-bg); color: var(--bad); }
.result-io_gps_suspicious, .result-io_scene_override, .verdict-scene_failed, .verdict-scene_override, .status-reminder { background: var(--warn-bg); color: var(--warn); }
.result-inspection_requested, .result-claim_withdrawn { background: var(--info-bg); color: var(--info); }
.status-sent { background: #e3eef9; color: var(--brand); }
.crumb { margin: 0; }
.case-head { display: flex; flex-wrap: wrap; align-items: center; gap: .8rem; }
.case-head h1 { word-break: break-all; }
.case-head .badge { font-size: .95rem; padding: .15rem .6rem; }
.reason-banner { background: var(--bad-bg); color: var(--bad); border: 1px solid var(--bad); border-radius: 4px; padding: .6rem 1rem; }
.case-grid { display: grid; grid-template-columns: minmax(0, 2fr) minmax(20rem, 1fr); gap: 1rem; align-items: start; }
.case-main, .case-side { display: grid; gap: 1rem; min-width: 0; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .9rem 1rem; min-width: 0; }
.photos { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; }
.photo { display: grid; grid-template-columns: 240px minmax(0, 1fr); gap: 1rem; border-top: 1px solid var(--line); padding-top: 1rem; }
.photo:first-child { border-top: 0; padding-top: 0; }
.thumb img { width: 100%; height: auto; display: block; border-radius: 4px; background: #000; }
.photo-body .meta { margin: 0 0 .4rem; font-size: .85rem; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .4rem; border-bottom: 1px solid var(--line); }
thead th { color: var(--muted); font-weight: 600; }
.reasons { margin: .25rem 0 0; padding-left: 1.1rem; }
details summary { cursor: pointer; color: var(--brand); }
.evidence, .attestation, .facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15rem .8rem; margin: .3rem 0 0; font-size: .85rem; }
.evidence dd, .attestation dd, .facts dd { margin: 0; word-break: break-word; }
.evidence dt, .attestation dt, .facts dt { color: var(--muted); }
.history td:first-child { white-space: nowrap; }
.actions form + form { margin-top: 1rem; border-top: 1px solid var(--line); padding-top: .8rem; }
fieldset { border: 0; padding: 0; margin: 0 0 .6rem; }
legend { font-weight: 700; margin-bottom: .3rem; }
.choice { display: flex; align-items: center; gap: .4rem; padding: .15rem 0; }
.choice label { font-weight: 400; }
.choice input { width: 1.1rem; height: 1.1rem; }
.read-only { color: var(--muted); font-weight: 600; margin: 0; }
.notes label { display: block; margin-bottom: .2rem; }
.notes textarea { width: 100%; resize: vertical; }
.notes form button { margin-top: .4rem; }
.hint { color: var(--muted); font-size: .85rem; margin: 0 0 .5rem; }
.note-list { list-style: none; padding: 0; margin: .8rem 0 0; display: grid; gap: .5rem; }
.note-list li { border-left: 3px solid var(--brand); padding: .2rem .6rem; }
.note-meta { color: var(--muted); font-size: .8rem; margin: 0; }
.note-body { white-space: pre-wrap; margin: .15rem 0 0; }
.sessions, .scenes, .messages { margin: 0; padding-left: 1.2rem; font-size: .9rem; }
.sessions li + li, .scenes li + li, .messages li + li { margin-top: .4rem; }
.sessions p { margin: .1rem 0; }
.link-row { display: flex; gap: .4rem; }
.link { flex: 1; min-width: 0; font-size: .8rem; }
.message { max-width: 40rem; }
@media (max-width: 1100px) {
  .columns { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .case-grid { grid-template-columns: minmax(0, 1fr); }
  .case-side { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .photo { grid-template-columns: 200px minmax(0, 1fr); }
}
@media (max-width: 700px) {
  main { padding: .8rem; }
  .columns, .case-side { grid-template-columns: minmax(0, 1fr); }
  .photo { grid-template-columns: minmax(0, 1fr); }
  #q { width: 100%; }
  .top { padding: .6rem .8rem; }
}
`;

import { html, PAGE_HEADERS, raw, type RawHtml } from "../html";
import { LANGUAGES, MESSAGES, type Messages, type PageLanguage } from "./i18n";

/** Cache-busting version of the page assets (change when capture.js / capture.css change). */
export const ASSET_VERSION = "3";

function document(
  lang: PageLanguage,
  title: string,
  body: RawHtml,
  status: number,
  langHref: (l: PageLanguage) => string,
): Response {
  const m = MESSAGES[lang];
  const doc = html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex"><meta name="theme-color" content="#0b4f8a">
<title>${title}</title><link rel="stylesheet" href="/c/assets/capture.css?v=${ASSET_VERSION}"></head>
<body><header class="top"><svg class="brand" aria-hidden="true" viewBox="0 0 24 24" width="28" height="28"><path fill="currentColor" d="M9 4 7.2 6H4a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V8a2 2 0 0 0-2-2h-3.2L15 4H9Zm3 4.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9Zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5Z"/></svg>
<nav aria-label="${m.languageLabel}" class="langs">${LANGUAGES.map((l) => html`<a href="${langHref(l)}" hreflang="${l}" lang="${l}"${l === lang ? raw(' aria-current="true"') : ""}>${l.toUpperCase()}</a>`)}</nav></header>
${body}</body></html>`;
  return new Response(doc.value, { status, headers: PAGE_HEADERS });
}

/** A page that only explains (unknown, replaced, closed, handed-in links). */
export function messagePage(
  lang: PageLanguage,
  status: number,
  title: keyof Messages,
  text: keyof Messages,
  langHref: (l: PageLanguage) => string,
): Response {
  const m = MESSAGES[lang];
  return document(
    lang,
    m[title],
    html`<main id="main" class="message" data-state="${String(title)}"><h1>${m[title]}</h1><p>${m[text]}</p></main>`,
    status,
    langHref,
  );
}

/** The capture page itself: every step is in the HTML; capture.js shows one at a time. */
export function capturePage(
  lang: PageLanguage,
  token: string,
  view: { customNote: string | null; scenes: { position: number; description: string; completed: boolean }[] },
  langHref: (l: PageLanguage) => string,
): Response {
  const m = MESSAGES[lang];
  const body = html`<main id="app" data-token="${token}" data-lang="${lang}" data-msgs="${JSON.stringify(m)}">
<h1 id="title" tabindex="-1">${m.title}</h1>
<p id="status" class="status" role="status" aria-live="polite"></p>
<section id="intro" aria-labelledby="title">
  <p>${m.intro}</p>
  ${view.customNote ? html`<aside class="note" aria-label="${m.noteHeading}"><h2>${m.noteHeading}</h2><p>${view.customNote}</p></aside>` : ""}
  ${view.scenes.length > 0 ? html`<ol class="scenes" id="scene-list" aria-label="${m.stepLabel}">${view.scenes.map((s) => html`<li data-position="${s.position}"${s.completed ? raw(' class="done"') : ""}>${s.description}</li>`)}</ol>` : ""}
  <h2>${m.howHeading}</h2>
  <ol class="how"><li>${m.how1}</li><li>${m.how2}</li><li>${m.how3}</li></ol>
  <button id="start" class="primary" type="button">${m.start}</button>
</section>
<section id="camera" hidden>
  <h2 id="scene-label" tabindex="-1"></h2>
  <p id="scene-text" class="scene-text"></p>
  <div class="viewfinder"><video id="video" playsinline muted autoplay aria-label="${m.cameraLabel}"></video></div>
  <button id="shutter" class="primary shutter" type="button" disabled>${m.shutter}</button>
  <button id="finish-series" class="secondary" type="button" hidden>${m.finishSeries}</button>
</section>
<section id="preview" hidden>
  <h2 id="preview-label" tabindex="-1">${m.previewLabel}</h2>
  <img id="preview-img" alt="${m.previewLabel}">
  <div id="scene-warning" class="warning" role="alert" hidden><p>${m.sceneFailed}</p><ul id="scene-reasons"></ul></div>
  <progress id="upload-progress" max="100" value="0" hidden></progress>
  <div class="row">
    <button id="retake" class="secondary" type="button">${m.retake}</button>
    <button id="use" class="primary" type="button">${m.usePhoto}</button>
    <button id="send-anyway" class="secondary" type="button" hidden>${m.sendAnyway}</button>
  </div>
</section>
<section id="ready" hidden>
  <h2 id="ready-label" tabindex="-1">${m.allDone}</h2>
  <button id="finish" class="primary" type="button">${m.finish}</button>
</section>
<section id="result" hidden>
  <h2 id="result-title" tabindex="-1"></h2>
  <p id="result-text"></p>
  <button id="again" class="primary" type="button" hidden>${m.again}</button>
</section>
<section id="other" class="other">
  <h2>${m.otherHeading}</h2>
  <button id="inspection" class="link" type="button">${m.inspection}</button>
  <button id="withdraw" class="link danger" type="button">${m.withdraw}</button>
</section>
<dialog id="confirm" aria-labelledby="confirm-text">
  <p id="confirm-text"></p>
  <div class="row"><button id="confirm-no" class="secondary" type="button">${m.confirmNo}</button><button id="confirm-yes" class="primary" type="button">${m.confirmYes}</button></div>
</dialog>
<noscript><p class="warning">JavaScript is required to use the camera.</p></noscript>
</main>
<script src="/c/assets/capture.js?v=${ASSET_VERSION}" defer></script>`;
  return document(lang, m.title, body, 200, langHref);
}

import { fill } from "../../lib/fill";
import { html, PAGE_HEADERS, raw, type RawHtml } from "../html";
import { logoutForm } from "./auth-view";
import type { BoardHandler } from "./handler-context";
import { BOARD_LANGUAGES, BOARD_MESSAGES, type BoardLanguage } from "./i18n";

/** Cache-busting version of board.css and board.js (change when either changes). */
export const BOARD_ASSET_VERSION = "2";

export interface PageFrame {
  lang: BoardLanguage;
  handler: BoardHandler;
  title: string;
  /** The current path and query without `lang`, for the language switch. */
  here: string;
}

/** A board page: skip link, header with the handler, language switch and sign-out, then `body`. */
export function boardDocument(frame: PageFrame, body: RawHtml, status = 200, headers: Record<string, string> = {}) {
  const m = BOARD_MESSAGES[frame.lang];
  const sep = frame.here.includes("?") ? "&" : "?";
  const doc = html`<!doctype html>
<html lang="${frame.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${frame.title} · ${m.title}</title>
<link rel="stylesheet" href="/board/assets/board.css?v=${BOARD_ASSET_VERSION}">
<script src="/board/assets/board.js?v=${BOARD_ASSET_VERSION}" defer></script></head>
<body><a class="skip" href="#main">${m.skip}</a>
<header class="top"><a class="brand" href="/board">${m.title}</a>
<nav aria-label="${m.languageLabel}" class="langs">${BOARD_LANGUAGES.map((l) => html`<a href="${frame.here}${sep}lang=${l}" hreflang="${l}" lang="${l}"${l === frame.lang ? raw(' aria-current="true"') : ""}>${l.toUpperCase()}</a>`)}</nav>
<p class="who">${fill(m.signedInAs, { name: frame.handler.name })}</p>
${logoutForm(frame.lang, frame.handler.csrfToken)}</header>
${body}</body></html>`;
  return new Response(doc.value, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** The hidden CSRF field every board form carries (DESIGN §17). */
export const csrfField = (handler: BoardHandler) =>
  html`<input type="hidden" name="_csrf" value="${handler.csrfToken}">`;

import { fill } from "../../lib/fill";
import type { BoardColumn, BoardList, CaseCard } from "../../board/cases-list";
import { captureResults, type CaseStatus } from "../../db/schema";
import { html, raw, type RawHtml } from "../html";
import { BOARD_MESSAGES, formatDate, label, type BoardLanguage, type BoardMessages } from "./i18n";

/** The board's query as the handler typed it (strings, for links and the form). */
export interface BoardParams {
  q?: string;
  result?: string;
  from?: string;
  to?: string;
  col?: CaseStatus;
  page?: number;
}

/** `/board?…` with `params`, leaving out empty values and page 1. */
export function boardHref(params: BoardParams, path = "/board"): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "" || (key === "page" && value === 1)) continue;
    query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The main part of the board page: the filter form and the columns (which the live update replaces). */
export function boardBody(lang: BoardLanguage, params: BoardParams, list: BoardList, invalidFields: string[]): RawHtml {
  const m = BOARD_MESSAGES[lang];
  const liveUrl = boardHref(params, "/board/live");
  return html`<main id="main" class="board">
<h1>${m.title}</h1>
${invalidFields.length > 0 ? html`<p class="alert" role="alert">${fill(m.invalidFilter, { fields: invalidFields.join(", ") })}</p>` : ""}
${filterForm(m, params)}
${params.col ? html`<p><a class="back" href="${boardHref({ ...params, col: undefined, page: undefined })}">${m.overview}</a></p>` : ""}
<p id="live-status" class="live" role="status" aria-live="polite">${m.live}</p>
<div id="board-columns" data-live="${liveUrl}" data-etag="${etagOf(list.version, lang)}" data-updated="${m.updated}">${columnsHtml(lang, params, list)}</div>
</main>`;
}

/** The ETag of the live fragment: the account's board version in the page's language. */
export const etagOf = (version: string, lang: BoardLanguage) => `"${version}-${lang}"`;

/** The columns alone: the live endpoint's answer. */
export function columnsHtml(lang: BoardLanguage, params: BoardParams, list: BoardList): RawHtml {
  const m = BOARD_MESSAGES[lang];
  const single = params.col !== undefined;
  return html`<div class="columns${single ? " single" : ""}">${list.columns.map((column) => columnHtml(lang, m, params, column, single, list.remindersByHandler))}</div>`;
}

function filterForm(m: BoardMessages, params: BoardParams): RawHtml {
  return html`<form class="filters" method="get" action="/board" role="search" aria-label="${m.filterHeading}">
${params.col ? html`<input type="hidden" name="col" value="${params.col}">` : ""}
<div class="field"><label for="q">${m.search}</label>
<input id="q" name="q" type="search" value="${params.q ?? ""}" maxlength="50" autocomplete="off" aria-describedby="q-hint">
<small id="q-hint">${m.searchHint}</small></div>
<div class="field"><label for="result">${m.lastResult}</label>
<select id="result" name="result"><option value="">${m.anyResult}</option>${captureResults.map((r) => html`<option value="${r}"${params.result === r ? raw(" selected") : ""}>${label(m, `result_${r}`)}</option>`)}</select></div>
<div class="field"><label for="from">${m.createdFrom}</label>
<input id="from" name="from" type="date" value="${params.from ?? ""}"></div>
<div class="field"><label for="to">${m.createdTo}</label>
<input id="to" name="to" type="date" value="${params.to ?? ""}"></div>
<div class="buttons"><button type="submit" class="primary">${m.apply}</button>
<a class="button" href="${boardHref({ col: params.col })}">${m.reset}</a></div>
</form>`;
}

function columnHtml(
  lang: BoardLanguage,
  m: BoardMessages,
  params: BoardParams,
  column: BoardColumn,
  single: boolean,
  remindersByHandler: boolean,
): RawHtml {
  const title = label(m, `col_${column.status}`);
  const headingId = `col-${column.status}`;
  const columnHref = boardHref({ ...params, col: column.status, page: 1 });
  return html`<section class="column col-${column.status}" aria-labelledby="${headingId}">
<h2 id="${headingId}"><a href="${columnHref}">${title}</a> <span class="count" data-count="${column.status}">${column.total}</span></h2>
${column.cards.length === 0 ? html`<p class="empty">${m.empty}</p>` : html`<ol class="cards">${column.cards.map((card) => cardHtml(lang, m, card, remindersByHandler))}</ol>`}
${!single && column.total > column.cards.length ? html`<a class="more" href="${columnHref}">${fill(m.showAll, { n: column.total })}</a>` : ""}
${single ? pagination(m, params, column) : ""}
</section>`;
}

function cardHtml(lang: BoardLanguage, m: BoardMessages, card: CaseCard, remindersByHandler: boolean): RawHtml {
  const result = card.lastResult ?? "pending";
  return html`<li class="card" data-case="${card.id}">
<a class="case-number" href="/board/cases/${card.id}">${card.caseNumber}</a>
${
  // A manual card says why it waits; the others show their result (or the decision, once closed).
  card.manualReason
    ? html`<p class="reason">${label(m, `reason_${card.manualReason}`)}</p>`
    : html`<span class="badge result-${result}">${card.status === "closed" && card.finalDecision ? label(m, `decision_${card.finalDecision}`) : label(m, `result_${result}`)}</span>`
}
${card.bounced ? html`<p class="bounced">${m.bounced}</p>` : ""}
${remindersByHandler && card.status === "reminder" ? html`<p class="remind">${m.remindYourself}</p>` : ""}
<p class="meta">${card.vnName ? html`${card.vnName} · ` : ""}${fill(m.created, { date: formatDate(lang, card.createdAt) })}${card.reminderCount > 0 ? html` · ${fill(m.reminders, { n: card.reminderCount })}` : ""}${card.retriggerCount > 0 ? html` · ${fill(m.retriggers, { n: card.retriggerCount })}` : ""}</p>
</li>`;
}

function pagination(m: BoardMessages, params: BoardParams, column: BoardColumn): RawHtml {
  if (column.pages <= 1) return html``;
  const at = (page: number) => boardHref({ ...params, page });
  return html`<nav class="pages" aria-label="${m.pagination}">
${column.page > 1 ? html`<a href="${at(column.page - 1)}" rel="prev">${m.newer}</a>` : ""}
<span>${fill(m.pageOf, { p: column.page, n: column.pages })}</span>
${column.page < column.pages ? html`<a href="${at(column.page + 1)}" rel="next">${m.older}</a>` : ""}
</nav>`;
}

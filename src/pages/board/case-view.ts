import { reasonText } from "../../capture/checks/reason-texts";
import { fill } from "../../lib/fill";
import { HANDLER_DECISIONS, NOTE_MAX_LENGTH } from "../../board/actions";
import type { CaseDetail, PhotoView } from "../../board/case-detail";
import { html, raw, type RawHtml } from "../html";
import type { BoardHandler } from "./handler-context";
import { BOARD_MESSAGES, formatDate, label, type BoardLanguage, type BoardMessages } from "./i18n";
import { csrfField } from "./layout";

/** What the page says above the case after an action: done, refused because the case changed, or bad input. */
export type ActionNotice =
  | { kind: "done"; action: "closed" | "note" | "retrigger" }
  | { kind: "conflict"; closed: boolean; keptNote?: string }
  | { kind: "invalid"; detail: string; keptNote?: string };

export function caseBody(
  lang: BoardLanguage,
  handler: BoardHandler,
  detail: CaseDetail,
  notice: ActionNotice | null,
): RawHtml {
  const m = BOARD_MESSAGES[lang];
  const { row } = detail;
  return html`<main id="main" class="case">
<p class="crumb"><a href="/board">${m.back}</a></p>
<div class="case-head"><h1>${fill(m.caseHeading, { caseNumber: row.caseNumber })}</h1>
<span class="badge status-${row.status}" id="case-status" data-status="${row.status}">${label(m, `col_${row.status}`)}</span></div>
${noticeHtml(m, notice)}
${detail.manualReason ? html`<p class="reason-banner" id="manual-reason"><strong>${m.whyManual}:</strong> ${label(m, `reason_${detail.manualReason}`)}</p>` : ""}
${detail.bounced ? html`<p class="bounced-banner">${m.bounced}</p>` : ""}
<div class="case-grid">
<div class="case-main">
${photosSection(lang, m, row.id, detail.photos)}
${historySection(lang, m, detail)}
</div>
<div class="case-side">
${row.closed ? html`<section class="panel" aria-labelledby="h-actions"><h2 id="h-actions">${m.actions}</h2><p class="read-only" id="read-only">${m.readOnly}</p></section>` : actionsSection(m, handler, detail)}
${notesSection(lang, m, handler, detail)}
${caseDataSection(lang, m, detail)}
${sessionsSection(lang, m, detail)}
${scenesSection(lang, m, detail)}
${pushSection(lang, m, detail)}
${messagesSection(lang, m, detail)}
</div>
</div>
</main>`;
}

function noticeHtml(m: BoardMessages, notice: ActionNotice | null): RawHtml | "" {
  if (!notice) return "";
  if (notice.kind === "done")
    return html`<p class="notice" role="status" id="notice">${label(m, `done_${notice.action}`)}</p>`;
  const text =
    notice.kind === "conflict"
      ? notice.closed
        ? m.conflictClosed
        : m.conflictChanged
      : fill(m.invalidInput, { detail: notice.detail });
  return html`<div class="alert" role="alert" id="notice"><p>${text}</p>${
    notice.keptNote ? html`<p>${m.keptNote}</p><blockquote class="kept-note">${notice.keptNote}</blockquote>` : ""
  }</div>`;
}

function photosSection(lang: BoardLanguage, m: BoardMessages, caseId: string, photos: PhotoView[]): RawHtml {
  return html`<section class="panel" aria-labelledby="h-photos"><h2 id="h-photos">${m.photos} <span class="count">${photos.length}</span></h2>
${photos.length === 0 ? html`<p class="empty">${m.noPhotos}</p>` : html`<ol class="photos">${photos.map((p, i) => photoHtml(lang, m, caseId, p, i + 1))}</ol>`}
</section>`;
}

function photoHtml(lang: BoardLanguage, m: BoardMessages, caseId: string, p: PhotoView, n: number): RawHtml {
  const title = p.sceneDescription
    ? fill(m.photoOf, { n, scene: p.sceneDescription })
    : fill(m.photoOf, { n, scene: m.freePhoto });
  const src = `/board/cases/${caseId}/photos/${p.id}`;
  const a = p.attestation;
  return html`<li class="photo" data-verdict="${p.verdict}" id="photo-${p.id}">
<a class="thumb" href="${src}" aria-label="${fill(m.openFull, { n })}"><img src="${src}?size=thumb" alt="${title}" loading="lazy" width="320" height="240"></a>
<div class="photo-body">
<h3>${title}</h3>
<p class="meta">${fill(m.sessionAttempt, { s: p.sessionNumber, a: p.attempt })} · <span class="badge verdict-${p.verdict}">${label(m, `verdict_${p.verdict}`)}</span></p>
<table class="checks"><caption class="sr-only">${title}</caption>
<thead><tr><th scope="col">${m.check}</th><th scope="col">${m.checkResult}</th><th scope="col">${m.evidence}</th></tr></thead>
<tbody>${p.checks.map(
    (
      check,
    ) => html`<tr class="check-${check.status}" data-check="${check.name}"><th scope="row">${label(m, `check_${check.name}`)}</th>
<td><span class="badge check-${check.status}">${label(m, `status_${check.status}`)}</span>${check.reasons.length > 0 ? html`<ul class="reasons">${check.reasons.map((r) => html`<li>${reasonText(lang, r)}</li>`)}</ul>` : ""}</td>
<td>${check.evidence.length > 0 ? html`<details><summary>${m.evidence}</summary><dl class="evidence">${check.evidence.map((e) => html`<dt>${e.key}</dt><dd>${e.value}</dd>`)}</dl></details>` : "–"}</td></tr>`,
  )}</tbody></table>
<h4>${m.attestation}</h4>
<dl class="attestation">
<dt>${m.capturedAt}</dt><dd>${formatDate(lang, a.capturedAt)}</dd>
<dt>${m.receivedAt}</dt><dd>${formatDate(lang, a.receivedAt)}</dd>
<dt>${m.device}</dt><dd>${a.deviceLabel ?? "–"}</dd>
<dt>${m.camera}</dt><dd>${a.cameraLabel ?? "–"}${a.track ? ` (${a.track})` : ""}</dd>
<dt>${m.position}</dt><dd>${a.position ?? m.noPosition}</dd>
${a.network ? html`<dt>${m.network}</dt><dd>${a.network}</dd>` : ""}
</dl>
</div>
</li>`;
}

function historySection(lang: BoardLanguage, m: BoardMessages, detail: CaseDetail): RawHtml {
  return html`<section class="panel" aria-labelledby="h-history"><h2 id="h-history">${m.history}</h2>
<table class="history"><thead><tr><th scope="col">${m.time}</th><th scope="col">${m.action}</th><th scope="col">${m.actor}</th></tr></thead>
<tbody>${detail.events.map(
    (e) =>
      html`<tr data-action="${e.action}"><td>${formatDate(lang, e.timestamp)}</td><td>${label(m, `event_${e.action}`)}</td><td>${actorLabel(m, e.actor, detail.handlerNames)}</td></tr>`,
  )}</tbody></table>
</section>`;
}

function actorLabel(m: BoardMessages, actor: string, names: Map<string, string>): string {
  if (actor.startsWith("handler:")) {
    const id = actor.slice("handler:".length);
    return fill(m.actor_handler, { name: names.get(id) ?? id });
  }
  return label(m, `actor_${actor}`);
}

function actionsSection(m: BoardMessages, handler: BoardHandler, detail: CaseDetail): RawHtml {
  const { row } = detail;
  const version = String(row.updatedAt.getTime());
  return html`<section class="panel actions" aria-labelledby="h-actions"><h2 id="h-actions">${m.actions}</h2>
<form method="post" action="/board/cases/${row.id}/close" class="close-form">${csrfField(handler)}
<input type="hidden" name="version" value="${version}">
<fieldset><legend>${m.closeHeading}</legend>
${HANDLER_DECISIONS.map(
  // No decision is preselected: closing is always a choice the handler makes.
  (d) =>
    html`<div class="choice"><input type="radio" id="decision-${d}" name="decision" value="${d}" required><label for="decision-${d}">${label(m, `decision_${d}`)}</label></div>`,
)}
</fieldset>
<button type="submit" class="primary" id="close-button">${m.closeButton}</button>
</form>
<form method="post" action="/board/cases/${row.id}/retrigger" class="retrigger-form">${csrfField(handler)}
<input type="hidden" name="version" value="${version}">
<h3>${m.retriggerHeading}</h3>
<p id="retrigger-text">${detail.communicationMode === "provider_versand" ? m.retriggerTextProvider : m.retriggerTextOwn}</p>
<button type="submit" class="secondary" aria-describedby="retrigger-text">${m.retriggerButton}</button>
</form>
</section>`;
}

function notesSection(lang: BoardLanguage, m: BoardMessages, handler: BoardHandler, detail: CaseDetail): RawHtml {
  return html`<section class="panel notes" aria-labelledby="h-notes"><h2 id="h-notes">${m.notes}</h2>
<p class="hint" id="notes-hint">${m.notesHint}</p>
${
  detail.row.closed
    ? ""
    : html`<form method="post" action="/board/cases/${detail.row.id}/notes">${csrfField(handler)}
<label for="note">${m.newNote}</label>
<textarea id="note" name="body" rows="3" maxlength="${NOTE_MAX_LENGTH}" required aria-describedby="notes-hint"></textarea>
<button type="submit" class="secondary">${m.saveNote}</button>
</form>`
}
${
  detail.notes.length === 0
    ? html`<p class="empty">${m.noNotes}</p>`
    : html`<ol class="note-list">${detail.notes.map((n) => html`<li><p class="note-meta">${n.handlerName} · ${formatDate(lang, n.createdAt)}</p><p class="note-body">${n.body}</p></li>`)}</ol>`
}
</section>`;
}

function caseDataSection(lang: BoardLanguage, m: BoardMessages, detail: CaseDetail): RawHtml {
  const { row } = detail;
  const item = (term: string, value: string | RawHtml | null) => html`<dt>${term}</dt><dd>${value ?? "–"}</dd>`;
  return html`<section class="panel" aria-labelledby="h-data"><h2 id="h-data">${m.caseData}</h2><dl class="facts">
${item(m.status, label(m, `col_${row.status}`))}
${item(m.lastResult, label(m, `result_${row.lastResult ?? "pending"}`))}
${item(m.finalDecision, row.finalDecision ? label(m, `decision_${row.finalDecision}`) : null)}
${item(m.createdAt, formatDate(lang, row.createdAt))}
${item(m.updatedAt, formatDate(lang, row.updatedAt))}
${row.closedAt ? item(m.closedAt, formatDate(lang, row.closedAt)) : ""}
${item(m.policyholder, row.vnName)}
${item(m.email, row.vnEmail)}
${item(m.phone, row.vnPhone)}
${item(m.handlerEmail, row.sbEmail)}
${item(m.mode, label(m, `mode_${detail.communicationMode}`))}
${item(m.counters, `${row.reminderCount} / ${row.retriggerCount}`)}
${row.customNote ? item(m.customNote, row.customNote) : ""}
</dl></section>`;
}

function sessionsSection(lang: BoardLanguage, m: BoardMessages, detail: CaseDetail): RawHtml {
  return html`<section class="panel" aria-labelledby="h-sessions"><h2 id="h-sessions">${m.sessions}</h2><ol class="sessions">
${detail.sessions.map(
  (
    s,
  ) => html`<li${s.current ? raw(' class="current"') : ""}><p><strong>${fill(m.session, { n: s.number })}</strong>${s.current ? html` <span class="badge">${m.current}</span>` : ""} · ${label(m, `sessionStatus_${s.finalStatus}`)} · ${m.triggeredAt} ${formatDate(lang, s.triggeredAt)} · ${m.attempts}: ${s.attemptCount}</p>
<p class="link-row"><label class="sr-only" for="link-${s.number}">${fill(m.session, { n: s.number })}</label><input id="link-${s.number}" class="link" type="text" readonly value="${s.link}">
<button type="button" class="copy secondary" data-copy="link-${s.number}" data-copied="${m.copied}" hidden>${m.copy}</button></p></li>`,
)}
</ol><p class="sr-only" id="copy-status" role="status" aria-live="polite"></p></section>`;
}

function scenesSection(lang: BoardLanguage, m: BoardMessages, detail: CaseDetail): RawHtml {
  return html`<section class="panel" aria-labelledby="h-scenes"><h2 id="h-scenes">${m.scenes}</h2>
${
  detail.scenes.length === 0
    ? html`<p class="empty">${m.noScenes}</p>`
    : html`<ol class="scenes">${detail.scenes.map((s) => html`<li class="${s.completedAt ? "done" : "open"}">${s.description} <span class="badge ${s.completedAt ? "check-pass" : ""}">${s.completedAt ? `${m.sceneDone} ${formatDate(lang, s.completedAt)}` : m.sceneOpen}</span></li>`)}</ol>`
}
</section>`;
}

function pushSection(lang: BoardLanguage, m: BoardMessages, detail: CaseDetail): RawHtml {
  const p = detail.resultPush;
  return html`<section class="panel" aria-labelledby="h-push"><h2 id="h-push">${m.resultPush}</h2>
<p id="result-push">${
    p
      ? fill(m.pushDetail, {
          status: label(m, `push_${p.status}`),
          code: p.statusCode ?? "–",
          n: p.attempts,
          at: formatDate(lang, p.at),
        })
      : m.noPush
  }</p></section>`;
}

function messagesSection(lang: BoardLanguage, m: BoardMessages, detail: CaseDetail): RawHtml {
  return html`<section class="panel" aria-labelledby="h-messages"><h2 id="h-messages">${m.messages}</h2>
${
  detail.messages.length === 0
    ? html`<p class="empty">${m.noMessages}</p>`
    : html`<ul class="messages">${detail.messages.map((msg) => html`<li class="outbox-${msg.status}">${label(m, `kind_${msg.kind}`)} · ${msg.channel === "sms" ? "SMS" : m.email} · ${msg.recipient} · <span class="badge outbox-${msg.status}">${label(m, `outbox_${msg.status}`)}</span> · ${formatDate(lang, msg.sentAt ?? msg.createdAt)}</li>`)}</ul>`
}
</section>`;
}

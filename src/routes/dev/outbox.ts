import { Hono } from "hono";
import { outboxMail, outboxMime } from "../../capture/notification-delivery";
import { findNewestOutboxOfAllAccounts, findOutboxRow } from "../../capture/repository/messages";
import { getDb } from "../../db/client";
import type { AppEnv } from "../../lib/app";
import { isoWithOffset } from "../../lib/clock";
import { ApiError } from "../../lib/problem";

const ROWS = 50;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GET /dev/outbox (only with DEV_OUTBOX=on): the newest outbox rows of every account — invitations
 * and reminders, e-mail and SMS, whatever their status — with each e-mail as it is (or would be)
 * sent, so a developer follows the policyholder's link without a mail provider. It shows personal
 * data of all accounts: never turn it on in a deployment. Otherwise the path does not exist (404).
 */
export const devOutbox = new Hono<AppEnv>();

devOutbox.use("*", async (c, next) => {
  if (c.env.DEV_OUTBOX !== "on") throw new ApiError(404, "not-found", "No such endpoint.");
  await next();
});

devOutbox.get("/outbox", async (c) => {
  const rows = await findNewestOutboxOfAllAccounts(getDb(c.env.DB), ROWS);
  const items = rows.map((row) => {
    const mail = outboxMail(row);
    const meta = `${row.kind} · ${row.channel} · ${escapeHtml(row.recipient)} · ${row.status} · ${row.attempts} attempt(s) · ${isoWithOffset(row.createdAt)}`;
    const body =
      row.channel === "email"
        ? `<iframe sandbox title="HTML part" srcdoc="${escapeHtml(mail.html)}"></iframe>
<details><summary>Plain text</summary><pre>${escapeHtml(mail.text)}</pre></details>
<p><a href="/dev/outbox/${row.id}.eml">Raw message (.eml)</a></p>`
        : `<pre>${escapeHtml(mail.text)}</pre>`;
    return `<article><h2>${escapeHtml(mail.subject)}</h2><p class="meta">${meta} · case ${row.caseId}</p>${body}</article>`;
  });
  return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev outbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:900px;margin:0 auto;padding:16px}article{border-top:1px solid #ccc;padding:8px 0}
.meta{color:#555;font-size:13px}iframe{width:100%;height:380px;border:1px solid #ddd}pre{white-space:pre-wrap;background:#f6f6f6;padding:8px}</style></head>
<body><h1>Outbox (newest ${ROWS})</h1><p class="meta">DEV_OUTBOX=on — local development only. Mail provider: ${c.env.MAIL_FROM ? escapeHtml(c.env.MAIL_FROM) : "none (rows stay pending)"}.</p>
${items.join("\n") || "<p>No messages yet.</p>"}
</body></html>`);
});

devOutbox.get("/outbox/:file{[0-9a-f-]+\\.eml}", async (c) => {
  const id = c.req.param("file").replace(/\.eml$/, "");
  const row = await findOutboxRow(getDb(c.env.DB), id);
  if (row?.channel !== "email") throw new ApiError(404, "not-found", "No such message.");
  return c.body(outboxMime(row, c.env.MAIL_FROM ?? "capture@localhost"), 200, { "content-type": "message/rfc822" });
});

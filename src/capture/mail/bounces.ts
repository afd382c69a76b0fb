import PostalMime, { type Email } from "postal-mime";
import { getDb } from "../../db/client";
import type { Env } from "../../env";
import { caseLockFor, unwrap } from "../case-lock";
import { findCaseById } from "../repository/cases";
import { failOutboxStatement, findBouncedEmail, findOutboxRow } from "../repository/messages";
import { transitionLocked } from "../service";

/** One recipient's block of a message/delivery-status part (RFC 3464 §2.3). */
interface DsnRecipient {
  finalRecipient: string | null;
  originalRecipient: string | null;
  action: string | null;
  status: string | null;
}

const decode = (content: ArrayBuffer | Uint8Array | string) =>
  typeof content === "string" ? content : new TextDecoder().decode(content);

/** `rfc822; jan@example.pl` → `jan@example.pl` (lower case). */
const address = (value: string | undefined) =>
  value
    ?.replace(/^[^;]*;\s*/, "")
    .replace(/^<|>$/g, "")
    .trim()
    .toLowerCase() || null;

/** The recipient blocks of a delivery-status part: header-like fields, blocks separated by blank lines, the first is per message. */
export function parseDeliveryStatus(text: string): DsnRecipient[] {
  const blocks = text
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]+/g, " ")
    .split(/\n\s*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split("\n")) {
        const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
        if (m) fields.set(m[1].toLowerCase(), m[2].trim());
      }
      return fields;
    });
  return blocks
    .filter((f) => f.has("final-recipient") || f.has("action"))
    .map((f) => ({
      finalRecipient: address(f.get("final-recipient")),
      originalRecipient: address(f.get("original-recipient")),
      action: f.get("action")?.toLowerCase() ?? null,
      status: f.get("status") ?? null,
    }));
}

/**
 * The delivery report of an inbound message, or null when it is not a DSN: a multipart/report with
 * report-type=delivery-status, or any message carrying a message/delivery-status part.
 */
export function deliveryReport(email: Email, raw: string) {
  const contentType = email.headers.find((h) => h.key === "content-type")?.value ?? "";
  const statusPart = email.attachments.find(
    (a) =>
      a.mimeType.toLowerCase() === "message/delivery-status" ||
      a.mimeType.toLowerCase() === "message/global-delivery-status",
  );
  const isReport =
    /^multipart\/report\b/i.test(contentType) && /report-type\s*=\s*"?delivery-status/i.test(contentType);
  if (!statusPart && !isReport) return null;
  const recipients = statusPart ? parseDeliveryStatus(decode(statusPart.content)) : [];
  // The returned headers (text/rfc822-headers) or message (message/rfc822), and the raw text as a fallback.
  const returned = email.attachments
    .filter((a) => /^(text\/rfc822-headers|message\/rfc822|message\/global|message\/global-headers)$/i.test(a.mimeType))
    .map((a) => decode(a.content))
    .concat(raw)
    .join("\n");
  const outboxId =
    /^X-Outbox-Id:\s*([A-Za-z0-9-]+)\s*$/im.exec(returned)?.[1] ??
    /^Message-ID:\s*<([0-9a-f-]{36})@[^>]*>\s*$/im.exec(returned)?.[1] ??
    null;
  return { recipients, outboxId };
}

/**
 * The Worker's `email` handler: inbound mail to the sender address (Email Routing) is read for
 * bounces. A DSN whose recipient failed marks the invitation/reminder row `failed` and appends
 * `invitation_bounced` to its case. The row is found by the `X-Outbox-Id` header (or the
 * Message-ID `<row id@…>`) in the returned headers, else by the failed recipient (the newest e-mail
 * row sent to it). Anything else is logged and dropped.
 */
export async function handleInboundMail(message: ForwardableEmailMessage, env: Env): Promise<void> {
  const bytes = await new Response(message.raw).arrayBuffer();
  const raw = new TextDecoder().decode(bytes);
  const report = deliveryReport(await PostalMime.parse(bytes), raw);
  if (!report) {
    console.log(JSON.stringify({ event: "mail.inbound_ignored", reason: "not a delivery status notification" }));
    return;
  }
  const failed = report.recipients.filter((r) => r.action === "failed");
  if (failed.length === 0 && report.recipients.length > 0) {
    console.log(
      JSON.stringify({
        event: "mail.inbound_ignored",
        reason: `delivery status ${report.recipients.map((r) => r.action).join(", ")}`,
      }),
    );
    return;
  }
  const db = getDb(env.DB);
  const row = await findBouncedEmail(
    db,
    report.outboxId,
    failed.flatMap((r) => [r.originalRecipient, r.finalRecipient]).filter((a): a is string => !!a),
  );
  if (!row) {
    console.warn(JSON.stringify({ event: "mail.bounce_unmatched", outboxId: report.outboxId }));
    return;
  }
  const caseRow = await findCaseById(db, row.accountId, row.caseId);
  if (!caseRow) return;
  await unwrap(caseLockFor(env, row.accountId, caseRow.caseNumber).recordBounce(row.accountId, row.caseId, row.id));
  console.log(JSON.stringify({ event: "mail.bounced", outboxId: row.id, status: failed[0]?.status ?? null }));
}

/** Marks the row failed and appends `invitation_bounced` (under the case's CaseLock); a repeated bounce does nothing. */
export async function recordBounceLocked(env: Env, accountId: string, caseId: string, outboxId: string): Promise<void> {
  const db = getDb(env.DB);
  const row = await findOutboxRow(db, outboxId);
  if (!row || row.status === "failed") return;
  await transitionLocked(env, accountId, caseId, "notificationBounced", {
    actor: "system",
    statements: [failOutboxStatement(db, outboxId)],
  });
}

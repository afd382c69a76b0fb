import { getDb } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { newId } from "../lib/ids";
import { buildMime, mailLanguage, renderMail } from "./mail/message";
import { mailProvider } from "./mail/provider";
import { claimOutboxTry, findOutboxRow, recordOutboxTry, type OutboxRecord } from "./repository/messages";
import { renderSms } from "./sms/message";
import { smsAvailability, SmsRejected } from "./sms/provider";

/**
 * Delivers one outbox row. E-mail goes through the mail provider (the `send_email` binding) when
 * one is set up, SMS through the SMS provider (src/capture/sms/). Without a provider a row stays
 * `pending` (visible, re-queued by the cron) rather than being marked sent: nothing is lost or
 * faked, and no attempt is counted. Each try is claimed by a compare-and-set on the attempt
 * counter, so a duplicate message never sends twice.
 */
export async function deliverNotification(env: Env, outboxId: string): Promise<"done" | "retry"> {
  const db = getDb(env.DB);
  const row = await findOutboxRow(db, outboxId);
  if (row?.status !== "pending") return "done";
  const send = row.channel === "sms" ? smsSender(env, row) : mailSender(env, row);
  if (!send) return "done";
  if (!(await claimOutboxTry(db, outboxId, row.attempts))) return "done";
  return send();
}

/** One e-mail try, or null (logged) without a mail provider. */
function mailSender(env: Env, row: OutboxRecord) {
  const provider = mailProvider(env);
  if (!provider) {
    console.warn(JSON.stringify({ event: "mail.no_provider", outboxId: row.id }));
    return null;
  }
  return async (): Promise<"done" | "retry"> => {
    try {
      await provider.send(env, { from: env.MAIL_FROM!, to: row.recipient, raw: outboxMime(row, env.MAIL_FROM!) });
    } catch (err) {
      // The recipient is personal data: the log names the row, not the address.
      console.error(
        JSON.stringify({ event: "mail.failed", outboxId: row.id, attempt: row.attempts + 1, error: String(err) }),
      );
      await recordAttempt(env, row, "failed", String(err));
      return "retry";
    }
    await recordAttempt(env, row, "accepted", null, { status: "sent", sentAt: clock.now() });
    return "done";
  };
}

/**
 * One row of notification_attempts for the try just made, and the outbox row's new state in the
 * same batch. `detail` is the provider's message id or error text, never the recipient.
 */
async function recordAttempt(
  env: Env,
  row: OutboxRecord,
  outcome: "accepted" | "refused" | "failed",
  detail: string | null,
  patch?: Partial<OutboxRecord>,
) {
  await recordOutboxTry(
    getDb(env.DB),
    {
      id: newId(),
      outboxId: row.id,
      attempt: row.attempts + 1,
      at: clock.now(),
      outcome,
      detail: detail?.slice(0, 500) ?? null,
    },
    row.id,
    patch,
  );
}

/**
 * One SMS try, or null (logged) without an SMS provider (switched off after the row was written).
 * Sent: `sent`, with the part count and encoding kept in the payload (`sms`). Refused for good by
 * the provider (4xx such as an invalid number): `failed`. Outage or network error: retried from the queue.
 */
function smsSender(env: Env, row: OutboxRecord) {
  const { provider, reason } = smsAvailability(env);
  if (!provider) {
    console.warn(JSON.stringify({ event: "sms.no_provider", outboxId: row.id, reason }));
    return null;
  }
  return async (): Promise<"done" | "retry"> => {
    const sms = outboxSms(row);
    const log = { outboxId: row.id, attempt: row.attempts + 1, segments: sms.segments, encoding: sms.encoding };
    let providerId: string | undefined;
    try {
      ({ providerId } = await provider.send(env, { to: row.recipient, body: sms.body }));
      console.log(JSON.stringify({ event: "sms.sent", ...log, providerId }));
    } catch (err) {
      const refused = err instanceof SmsRejected;
      console.error(JSON.stringify({ event: refused ? "sms.rejected" : "sms.failed", ...log, error: String(err) }));
      if (!refused) {
        await recordAttempt(env, row, "failed", String(err));
        return "retry";
      }
      await recordAttempt(env, row, "refused", String(err), { status: "failed" });
      return "done";
    }
    const payload = { ...row.payload, sms: { segments: sms.segments, encoding: sms.encoding } };
    await recordAttempt(env, row, "accepted", providerId ?? null, { status: "sent", sentAt: clock.now(), payload });
    return "done";
  };
}

/** The SMS of an outbox row, as it is sent. */
export function outboxSms(row: Pick<OutboxRecord, "kind" | "payload">) {
  return renderSms(row.kind, row.payload);
}

/** The e-mail of an outbox row, as it is sent (and shown on /dev/outbox). */
export function outboxMail(row: Pick<OutboxRecord, "kind" | "payload">) {
  const p = row.payload as { link?: string; vnName?: string | null; customNote?: string | null; language?: string };
  return renderMail({
    kind: row.kind,
    language: mailLanguage(p.language),
    link: p.link ?? "",
    vnName: p.vnName ?? null,
    customNote: p.customNote ?? null,
  });
}

export function outboxMime(row: Pick<OutboxRecord, "id" | "kind" | "payload" | "recipient">, from: string): string {
  return buildMime({ from, to: row.recipient, messageId: row.id, rendered: outboxMail(row) });
}

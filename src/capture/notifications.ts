import { outbox } from "../db/schema";
import type { AccountRecord } from "../accounts/service";
import { clock } from "../lib/clock";
import { newId } from "../lib/ids";

export type OutboxRow = typeof outbox.$inferInsert;

/**
 * Outbox rows for the policyholder's link in mode provider_versand (spec 2.2): one per channel
 * with a recipient. Recorded in the same batch as the case so a message is never lost; the
 * queue delivers them and the cron re-queues rows left pending.
 */
export function invitationRows(
  account: AccountRecord,
  target: { caseId: string; vnName: string | null; vnEmail: string | null; vnPhone: string | null; customNote: string | null },
  link: string,
  kind: "invitation" | "reminder",
): OutboxRow[] {
  if (account.communicationMode !== "provider_versand") return [];
  const payload = { link, vnName: target.vnName, customNote: target.customNote, language: account.language };
  const base = { accountId: account.id, caseId: target.caseId, kind, payload, status: "pending" as const, createdAt: clock.now() };
  const rows: OutboxRow[] = [];
  if (target.vnEmail) rows.push({ ...base, id: newId(), channel: "email", recipient: target.vnEmail });
  if (target.vnPhone) rows.push({ ...base, id: newId(), channel: "sms", recipient: target.vnPhone });
  return rows;
}

/** notificationStatus of spec 2.3: which channels were accepted for sending by this call. */
export function notificationStatus(rows: readonly OutboxRow[]) {
  return { emailSent: rows.some((r) => r.channel === "email"), smsSent: rows.some((r) => r.channel === "sms") };
}

import type { outbox } from "../db/schema";
import type { Env } from "../env";
import { smsAvailability } from "./sms/provider";
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
  target: {
    caseId: string;
    vnName: string | null;
    vnEmail: string | null;
    vnPhone: string | null;
    customNote: string | null;
  },
  link: string,
  kind: "invitation" | "reminder",
  sms: { offered: boolean; reason?: string },
): OutboxRow[] {
  if (account.communicationMode !== "provider_versand") return [];
  const payload = { link, vnName: target.vnName, customNote: target.customNote, language: account.language };
  const base = {
    accountId: account.id,
    caseId: target.caseId,
    kind,
    payload,
    status: "pending" as const,
    createdAt: clock.now(),
  };
  const rows: OutboxRow[] = [];
  if (target.vnEmail) rows.push({ ...base, id: newId(), channel: "email", recipient: target.vnEmail });
  if (target.vnPhone && sms.offered) rows.push({ ...base, id: newId(), channel: "sms", recipient: target.vnPhone });
  // Without an SMS provider no SMS is offered (smsSent false) rather than a row that could never go out.
  else if (target.vnPhone)
    console.warn(JSON.stringify({ event: "sms.not_offered", caseId: target.caseId, kind, reason: sms.reason }));
  return rows;
}

/** notificationStatus of spec 2.3: per channel, whether a provider accepted a message of this call. */
export interface NotificationStatus {
  emailSent: boolean;
  smsSent: boolean;
}

export const NOTHING_SENT: NotificationStatus = { emailSent: false, smsSent: false };

export function notificationStatus(accepted: readonly { channel: "email" | "sms" }[]): NotificationStatus {
  return { emailSent: accepted.some((r) => r.channel === "email"), smsSent: accepted.some((r) => r.channel === "sms") };
}

/** Whether this deployment offers SMS (an SMS provider with credentials), and why not. */
export function smsOffer(env: Env): { offered: boolean; reason?: string } {
  const { provider, reason } = smsAvailability(env);
  return { offered: provider !== null, reason };
}

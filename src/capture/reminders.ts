import { findAccount } from "../accounts/repository";
import { getDb } from "../db/client";
import type { ReminderSettings } from "../db/schema";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import type { TransitionName } from "./lifecycle";
import { captureLink } from "./links";
import { invitationRows, smsOffer } from "./notifications";
import { findCaseById, findCurrentSession, type CaseRow } from "./repository/cases";
import { insertOutboxStatements } from "./repository/messages";
import { enqueueNotifications } from "./notification-dispatch";
import { transitionLocked } from "./service";

const HOUR_MS = 60 * 60 * 1000;

/**
 * The reminder step a case is due for at `now`, or null (DESIGN §15, account setting `reminders`).
 * The clock starts at the current link (creation or the last re-trigger) and restarts at each
 * reminder: the first reminder `firstAfterHours` after the link, each follow-up
 * `followupAfterHours` after the previous one; when `maxReminders` have gone out and the
 * follow-up time passes once more, the case is escalated to manual review.
 */
export function dueReminderStep(
  row: Pick<CaseRow, "status" | "closed" | "remindersEnabled" | "reminderCount" | "lastReminderAt">,
  linkIssuedAt: Date,
  policy: ReminderSettings | null,
  now: Date,
): TransitionName | null {
  if (!policy || !row.remindersEnabled || row.closed || (row.status !== "sent" && row.status !== "reminder"))
    return null;
  const last = row.lastReminderAt && row.lastReminderAt > linkIssuedAt ? row.lastReminderAt : linkIssuedAt;
  const wait = row.reminderCount === 0 ? policy.firstAfterHours : policy.followupAfterHours;
  if (now.getTime() < last.getTime() + wait * HOUR_MS) return null;
  if (row.reminderCount >= policy.maxReminders) return "remindersExhausted";
  return row.reminderCount === 0 ? "reminderFirst" : "reminderFollowup";
}

/** What one cron visit did to a case. */
export type ReminderOutcome = "reminded" | "escalated" | "nothing";

/**
 * Sends the reminder (or escalates) if the case is still due (call only under the case's CaseLock).
 * Decided again here, inside the lock, from the row as it is now: a second cron run, or one that
 * overlaps, finds the step done and does nothing; a case completed meanwhile is no longer due.
 * In `provider_versand` the reminder goes to the outbox with the current link, in the same batch
 * as its event; in `eigenversand` it is the event only.
 */
export async function remindLocked(env: Env, accountId: string, caseId: string): Promise<ReminderOutcome> {
  const db = getDb(env.DB);
  const [row, session, account] = await Promise.all([
    findCaseById(db, accountId, caseId),
    findCurrentSession(db, caseId),
    findAccount(db, accountId),
  ]);
  if (!row || !session || !account) return "nothing";
  const now = clock.now();
  const step = dueReminderStep(row, session.triggeredAt, account.reminders ?? null, now);
  if (!step) return "nothing";
  if (step === "remindersExhausted") {
    await transitionLocked(env, accountId, caseId, step, { actor: "system" });
    return "escalated";
  }
  const messages = invitationRows(
    account,
    { ...row, caseId },
    captureLink(env.PUBLIC_BASE_URL, session.token),
    "reminder",
    smsOffer(env),
  );
  await transitionLocked(env, accountId, caseId, step, {
    actor: "system",
    casePatch: { reminderCount: row.reminderCount + 1, lastReminderAt: now },
    statements: insertOutboxStatements(db, messages),
  });
  await enqueueNotifications(
    env,
    messages.map((row) => row.id!),
  );
  return "reminded";
}

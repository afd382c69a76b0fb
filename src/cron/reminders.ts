import { getDb } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { caseLockFor, unwrap } from "../capture/case-lock";
import type { ReminderOutcome } from "../capture/reminders";
import { findCasesDueForReminder } from "../capture/repository/cases";

/** Cases visited per run; the next run (15 minutes later) continues. */
const BATCH = 200;

/**
 * Reminders and escalation (DESIGN §15) for open cases created with `reminders: true` on accounts
 * with a `reminders` policy. The query only finds candidates (the rule of `dueReminderStep`, in
 * SQL); each case's CaseLock decides again and acts, so overlapping or repeated runs never remind
 * twice, and a case completed meanwhile gets nothing.
 */
export async function sendReminders(env: Env): Promise<void> {
  const due = await findCasesDueForReminder(getDb(env.DB), clock.nowMs(), BATCH);

  const counts: Record<ReminderOutcome | "error", number> = { reminded: 0, escalated: 0, nothing: 0, error: 0 };
  for (const c of due) {
    try {
      counts[await unwrap(caseLockFor(env, c.accountId, c.caseNumber).remind(c.accountId, c.id))] += 1;
    } catch (err) {
      counts.error += 1;
      console.error(JSON.stringify({ event: "reminder.failed", caseId: c.id, error: String(err) }));
    }
  }
  if (due.length > 0) console.log(JSON.stringify({ event: "reminders.run", candidates: due.length, ...counts }));
}

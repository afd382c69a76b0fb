import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { getDb } from "../db/client";
import { accounts, captureCases, captureSessions } from "../db/schema";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { caseLockFor, unwrap } from "../capture/case-lock";
import type { ReminderOutcome } from "../capture/reminders";

/** Cases visited per run; the next run (15 minutes later) continues. */
const BATCH = 200;

/**
 * Reminders and escalation (DESIGN §15) for open cases created with `reminders: true` on accounts
 * with a `reminders` policy. The query only finds candidates (the rule of `dueReminderStep`, in
 * SQL); each case's CaseLock decides again and acts, so overlapping or repeated runs never remind
 * twice, and a case completed meanwhile gets nothing.
 */
export async function sendReminders(env: Env): Promise<void> {
  const db = getDb(env.DB);
  const linkIssuedAt = sql`(select max(${captureSessions.triggeredAt}) from ${captureSessions} where ${captureSessions.caseId} = ${captureCases.id})`;
  const waitHours = sql`(case when ${captureCases.reminderCount} = 0 then json_extract(${accounts.reminders}, '$.firstAfterHours') else json_extract(${accounts.reminders}, '$.followupAfterHours') end)`;
  const due = await db
    .select({ id: captureCases.id, accountId: captureCases.accountId, caseNumber: captureCases.caseNumber })
    .from(captureCases)
    .innerJoin(accounts, eq(accounts.id, captureCases.accountId))
    .where(
      and(
        eq(captureCases.closed, false),
        inArray(captureCases.status, ["sent", "reminder"]),
        eq(captureCases.remindersEnabled, true),
        isNotNull(accounts.reminders),
        sql`max(coalesce(${captureCases.lastReminderAt}, 0), ${linkIssuedAt}) + ${waitHours} * 3600000 <= ${clock.nowMs()}`,
      ),
    )
    .orderBy(asc(captureCases.updatedAt))
    .limit(BATCH);

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

import { findOpenPushesBefore } from "../capture/repository/pushes";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { retryDelayS } from "../capture/push/schedule";

/** How late an attempt may be before its message counts as lost. */
const GRACE_MS = 15 * 60 * 1000;
const BATCH = 200;

/**
 * Re-queues result pushes whose next attempt is overdue: the message after a close or a failed
 * attempt was never sent (queue unavailable) or the Worker died mid-attempt. A message that was
 * only late is harmless: the attempt counter lets one of the two run.
 */
export async function retryLostPushes(env: Env): Promise<void> {
  const now = clock.nowMs();
  const rows = await findOpenPushesBefore(getDb(env.DB), new Date(now - GRACE_MS), BATCH);
  const overdue = rows.filter(
    (r) => r.at.getTime() + (r.attempts > 0 ? retryDelayS(r.attempts) * 1000 : 0) + GRACE_MS < now,
  );
  if (overdue.length === 0) return;
  await env.JOBS.sendBatch(
    overdue.map((r) => ({ body: { type: "push" as const, deliveryId: r.id, attempt: r.attempts + 1 } })),
  );
}

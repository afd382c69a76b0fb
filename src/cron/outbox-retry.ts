import { findStalePendingOutbox, markOutboxFailed } from "../capture/repository/messages";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";

/** After this many delivery attempts a notification is marked failed instead of re-queued. */
export const MAX_NOTIFICATION_ATTEMPTS = 10;
const STALE_AFTER_MS = 10 * 60 * 1000;

/** Re-queues notifications still pending after 10 minutes; gives up after MAX attempts. */
export async function retryPendingNotifications(env: Env): Promise<void> {
  const db = getDb(env.DB);
  const stale = await findStalePendingOutbox(db, new Date(clock.nowMs() - STALE_AFTER_MS), 500);
  const exhausted = stale.filter((row) => row.attempts >= MAX_NOTIFICATION_ATTEMPTS);
  const retry = stale.filter((row) => row.attempts < MAX_NOTIFICATION_ATTEMPTS);
  for (const row of exhausted) await markOutboxFailed(db, row.id);
  if (retry.length > 0)
    await env.JOBS.sendBatch(retry.map((row) => ({ body: { type: "notification" as const, outboxId: row.id } })));
}

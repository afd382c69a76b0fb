import type { BatchItem } from "drizzle-orm/batch";
import { findAccount } from "../../accounts/repository";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { newId } from "../../lib/ids";
import { insertPushDeliveryStatement } from "../repository/pushes";

/** How long a result push is retried after the case closed (DESIGN §14). */
export const PUSH_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Wall time of one attempt; a receiver still silent then counts as down. */
export const PUSH_ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Seconds to wait after the `attempt`-th failure: 30 s doubling up to 4 h (30 s, 1 min, 2 min, …),
 * about 14 attempts in 24 h. Below the queue's 12 h limit on a message's delay.
 */
export function retryDelayS(attempt: number): number {
  return Math.min(30 * 2 ** (attempt - 1), 4 * 60 * 60);
}

/**
 * The push that a case close owes, as a statement for the close's own batch: a `pending`
 * delivery row, so the push is recorded in the same transaction as the close and cannot be lost
 * (the cron re-queues a row whose message never arrived). Its id is the `webhook-id` of every
 * attempt. Null when the account has no push URL.
 */
export async function pushOnClose(
  db: Db,
  accountId: string,
  caseId: string,
  now: Date,
): Promise<{ deliveryId: string; statement: BatchItem<"sqlite"> } | null> {
  const account = await findAccount(db, accountId);
  if (!account?.pushUrl) return null;
  const deliveryId = newId();
  return {
    deliveryId,
    statement: insertPushDeliveryStatement(db, deliveryId, caseId, now),
  };
}

/** Queues attempt `attempt` of a delivery; a failed send is left to the cron (src/cron/push-retry.ts). */
export async function enqueuePush(env: Env, deliveryId: string, attempt: number, delaySeconds = 0): Promise<void> {
  try {
    await env.JOBS.send({ type: "push", deliveryId, attempt }, delaySeconds > 0 ? { delaySeconds } : undefined);
  } catch (err) {
    console.warn(JSON.stringify({ event: "push.enqueue-failed", deliveryId, attempt, error: String(err) }));
  }
}

import { getDb } from "../db/client";
import type { Env } from "../env";
import { settleWithin } from "../lib/timeout";
import { deliverNotification } from "./notification-delivery";
import { NOTHING_SENT, notificationStatus, type NotificationStatus } from "./notifications";
import { findOutboxStatuses } from "./repository/messages";

/**
 * How long a create or re-trigger call waits for the providers' first answer. Long enough for an
 * e-mail or SMS API on a good day; a slower provider does not hold up the insurer's call (the
 * message then goes on from the queue and notificationStatus says false).
 */
const FIRST_TRY_MS = 5_000;

/** The queue's next try after a first try that failed or did not answer in time. */
const RETRY_AFTER_S = 30;

/**
 * Hands the invitations of one create/re-trigger call to their providers at once, so that
 * notificationStatus (spec 2.3) says what a provider actually accepted, not what was merely
 * queued. What was not accepted (provider down, slow, not configured) goes to the queue, which
 * retries with backoff; every try is recorded in notification_attempts.
 */
export async function dispatchNotifications(env: Env, outboxIds: readonly string[]): Promise<NotificationStatus> {
  if (outboxIds.length === 0) return NOTHING_SENT;
  await Promise.all(outboxIds.map((id) => settleWithin(deliverNotification(env, id), FIRST_TRY_MS, "unanswered")));
  const rows = await findOutboxStatuses(getDb(env.DB), outboxIds);
  const open = rows.filter((row) => row.status === "pending").map((row) => row.id);
  await enqueueNotifications(env, open, RETRY_AFTER_S);
  return notificationStatus(rows.filter((row) => row.status === "sent"));
}

/** Queues outbox rows for delivery; a failed send leaves them pending for the cron to pick up again. */
export async function enqueueNotifications(env: Env, outboxIds: readonly string[], delaySeconds = 0) {
  if (outboxIds.length === 0) return;
  try {
    await env.JOBS.sendBatch(
      outboxIds.map((outboxId) => ({ body: { type: "notification" as const, outboxId }, delaySeconds })),
    );
  } catch (err) {
    console.warn("queueing notifications failed; the cron will retry", err);
  }
}

import { markOutboxFailed } from "../capture/repository/messages";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { newId } from "../lib/ids";
import { JobMessageSchema } from "./messages";
import { insertFailedJob } from "./repository";

/**
 * The dead-letter queue's consumer: every message that failed all its retries is recorded in
 * `failed_jobs` (what it was, how often it was tried), and a notification it carried is marked
 * failed, so nothing is lost silently and nothing is retried for ever.
 */
export async function recordDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = getDb(env.DB);
  for (const message of batch.messages) {
    await insertFailedJob(db, {
      id: newId(),
      messageId: message.id,
      queue: batch.queue,
      body: message.body ?? null,
      attempts: message.attempts,
      failedAt: clock.now(),
    });
    const parsed = JobMessageSchema.safeParse(message.body);
    if (parsed.success && parsed.data.type === "notification") await markOutboxFailed(db, parsed.data.outboxId);
    console.error(
      JSON.stringify({
        event: "job.dead-letter",
        queue: batch.queue,
        messageId: message.id,
        attempts: message.attempts,
      }),
    );
    message.ack();
  }
}

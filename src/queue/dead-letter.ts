import { eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { failedJobs, outbox } from "../db/schema";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { newId } from "../lib/ids";
import { JobMessageSchema } from "./messages";

/**
 * The dead-letter queue's consumer: every message that failed all its retries is recorded in
 * `failed_jobs` (what it was, how often it was tried), and a notification it carried is marked
 * failed, so nothing is lost silently and nothing is retried for ever.
 */
export async function recordDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = getDb(env.DB);
  for (const message of batch.messages) {
    await db.insert(failedJobs).values({
      id: newId(),
      messageId: message.id,
      queue: batch.queue,
      body: message.body ?? null,
      attempts: message.attempts,
      failedAt: clock.now(),
    });
    const parsed = JobMessageSchema.safeParse(message.body);
    if (parsed.success && parsed.data.type === "notification")
      await db.update(outbox).set({ status: "failed" }).where(eq(outbox.id, parsed.data.outboxId));
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

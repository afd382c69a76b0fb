import type { Env } from "../env";
import { JobMessageSchema, type JobMessage } from "./messages";
import { deliverNotification } from "../capture/notification-delivery";
import { deliverPush } from "../capture/push/deliver";
import { recordDeadLetters } from "./dead-letter";

/** The dead-letter queue of JOBS (wrangler.toml). */
export const DEAD_LETTER_QUEUE = "capture-verify-dlq";

type Handler<T extends JobMessage["type"]> = (
  env: Env,
  body: Extract<JobMessage, { type: T }>,
) => Promise<"done" | "retry">;

const handlers: { [T in JobMessage["type"]]: Handler<T> } = {
  notification: (env, body) => deliverNotification(env, body.outboxId),
  // Retries are new messages with their own delay (up to 24 h), not queue retries (max 10).
  push: (env, body) => deliverPush(env, body.deliveryId, body.attempt),
};

/**
 * Acks or retries each message explicitly; unparseable messages are acked and logged. Messages
 * of a batch run side by side.
 */
export async function consumeJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue === DEAD_LETTER_QUEUE) return recordDeadLetters(batch, env);
  await Promise.all(batch.messages.map((message) => consumeOne(message, env)));
}

async function consumeOne(message: Message<unknown>, env: Env): Promise<void> {
  const parsed = JobMessageSchema.safeParse(message.body);
  if (!parsed.success) {
    console.error("dropping malformed job", message.id, parsed.error.message);
    message.ack();
    return;
  }
  try {
    const handler = handlers[parsed.data.type] as Handler<typeof parsed.data.type>;
    const outcome = await handler(env, parsed.data);
    if (outcome === "done") message.ack();
    else message.retry({ delaySeconds: Math.min(2 ** message.attempts, 3600) });
  } catch (err) {
    console.error("job failed", message.id, err);
    message.retry({ delaySeconds: Math.min(2 ** message.attempts, 3600) });
  }
}

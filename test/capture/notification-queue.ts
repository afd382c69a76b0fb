import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";

/** Runs one notification message through the queue consumer with the given bindings; returns what it acked or retried. */
export async function driveNotification(outboxId: string, testEnv: Env) {
  const batch = createMessageBatch("capture-verify-jobs", [
    { id: `n-${outboxId}`, timestamp: new Date(), attempts: 1, body: { type: "notification", outboxId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, testEnv);
  return getQueueResult(batch, ctx);
}

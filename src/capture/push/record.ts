import { getDb } from "../../db/client";
import type { Env } from "../../env";
import { clock } from "../../lib/clock";
import { pushOutcomeStatement } from "../repository/pushes";
import { transitionLocked } from "../service";

/** The outcome of one push attempt. `statusCode` is null when no answer came (network error, timeout). */
export interface PushOutcome {
  status: "delivered" | "retrying" | "failed";
  statusCode: number | null;
}

/**
 * Writes an attempt's outcome to its delivery row and appends `feedback_pushed` or
 * `feedback_push_failed` in one batch (call only under the case's CaseLock, like every change).
 */
export async function recordPushLocked(
  env: Env,
  accountId: string,
  caseId: string,
  deliveryId: string,
  outcome: PushOutcome,
): Promise<void> {
  const db = getDb(env.DB);
  await transitionLocked(env, accountId, caseId, outcome.status === "delivered" ? "pushDelivered" : "pushFailed", {
    actor: "system",
    statements: [pushOutcomeStatement(db, deliveryId, outcome, clock.now())],
  });
}

import { findAccount } from "../../accounts/repository";
import { getDb } from "../../db/client";
import type { Env } from "../../env";
import { clock } from "../../lib/clock";
import { caseLockFor, unwrap } from "../case-lock";
import { findCaseByInternalId } from "../repository/cases";
import { claimPushAttempt, findPushDelivery } from "../repository/pushes";
import { pushPayload } from "./payload";
import type { PushOutcome } from "./record";
import { enqueuePush, PUSH_ATTEMPT_TIMEOUT_MS, PUSH_RETRY_WINDOW_MS, retryDelayS } from "./schedule";
import { signWebhook } from "./signature";
import { pushTargetProblem } from "./target";

/**
 * Runs attempt `attempt` of a result push (the JOBS handler of `push` messages). The attempt is
 * claimed by a compare-and-set on the row's attempt counter, so a duplicate or stale message (the
 * queue delivers at least once; the cron re-queues lost ones) never sends twice. A failure before
 * the 24 h window ends queues the next attempt with its backoff; after it the push is `failed`.
 * The push secret is never logged; logs carry ids, host and status code only.
 */
export async function deliverPush(
  env: Env,
  deliveryId: string,
  attempt: number,
  timeoutMs = PUSH_ATTEMPT_TIMEOUT_MS,
): Promise<"done"> {
  const db = getDb(env.DB);
  const row = await findPushDelivery(db, deliveryId);
  if (!row || row.attempts !== attempt - 1 || (row.status !== "pending" && row.status !== "retrying")) return "done";
  const caseRow = await findCaseByInternalId(db, row.caseId);
  const account = caseRow && (await findAccount(db, caseRow.accountId));
  if (!caseRow || !account) return "done";

  if (!(await claimPushAttempt(db, deliveryId, attempt))) return "done";

  const log = { deliveryId, caseId: caseRow.id, attempt };
  const record = (outcome: PushOutcome) =>
    unwrap(caseLockFor(env, account.id, caseRow.caseNumber).recordPush(account.id, caseRow.id, deliveryId, outcome));

  // A push URL removed or made unreachable after the close: a settings problem that retries will not fix.
  const problem =
    !account.pushUrl || !account.pushSecret ? "push is no longer configured" : pushTargetProblem(account.pushUrl, env);
  if (problem) {
    console.warn(JSON.stringify({ event: "push.refused", ...log, reason: problem }));
    await record({ status: "failed", statusCode: null });
    return "done";
  }

  const body = JSON.stringify(await pushPayload(db, env, caseRow, account.communicationMode));
  const timestamp = Math.floor(clock.nowMs() / 1000);
  const statusCode = await post(
    account.pushUrl!,
    {
      "content-type": "application/json",
      "webhook-id": deliveryId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await signWebhook(account.pushSecret!, deliveryId, timestamp, body),
    },
    body,
    timeoutMs,
  );
  const host = new URL(account.pushUrl!).host;

  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    console.log(JSON.stringify({ event: "push.delivered", ...log, host, statusCode }));
    await record({ status: "delivered", statusCode });
    return "done";
  }
  const remainingMs = (caseRow.closedAt ?? row.at).getTime() + PUSH_RETRY_WINDOW_MS - clock.nowMs();
  if (remainingMs <= 0) {
    console.warn(JSON.stringify({ event: "push.failed", ...log, host, statusCode }));
    await record({ status: "failed", statusCode });
    return "done";
  }
  // The last attempt lands at the end of the window rather than after it.
  const delayS = Math.max(1, Math.min(retryDelayS(attempt), Math.ceil(remainingMs / 1000)));
  console.warn(JSON.stringify({ event: "push.retrying", ...log, host, statusCode, delayS }));
  await record({ status: "retrying", statusCode });
  await enqueuePush(env, deliveryId, attempt + 1, delayS);
  return "done";
}

/** POSTs once; the status code, or null when no answer came in time. Redirects are not followed. */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number | null> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel();
    return res.status;
  } catch {
    return null;
  }
}

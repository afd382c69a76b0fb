import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { caseLockFor, unwrap } from "../../src/capture/case-lock";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { holdDelayedJobs } from "../support/jobs";

/**
 * Result push (DESIGN §14) against a real HTTP receiver on loopback (test/support/push-receiver.global.ts),
 * not a mock: this project runs with PUSH_TARGETS=any, as `wrangler dev` does, so the Worker may post to
 * http://127.0.0.1. The first attempt goes through the real JOBS queue; the retry is driven at once
 * (the queue's own, 30 s later, is held; the attempt counter would let only one of the two post).
 */
const SECRET = `whsec_${btoa("loopback-push-secret-0123456789")}`;
// The queue's own retry (30 s later) is held, not sent: it would run after this file ended.
const delayed = holdDelayedJobs();
afterAll(() => delayed.restore());
const control = inject("pushReceiverControl");

async function downReceiver() {
  const { port } = await (await fetch(`${control}/receivers`, { method: "POST" })).json<{ port: number }>();
  return {
    url: `http://127.0.0.1:${port}/hooks/capture`,
    up: () => fetch(`${control}/receivers/${port}/up`, { method: "POST" }),
    received: async () =>
      (
        await (
          await fetch(`${control}/receivers/${port}`)
        ).json<{
          received: { headers: Record<string, string>; body: string }[];
        }>()
      ).received,
  };
}

function deliveryOf(ticketId: string) {
  return env.DB.prepare("SELECT id, status, attempts, status_code AS statusCode FROM push_deliveries WHERE case_id = ?")
    .bind(ticketId)
    .first<{ id: string; status: string; attempts: number; statusCode: number | null }>();
}

async function driveAttempt(deliveryId: string, attempt: number) {
  const batch = createMessageBatch("capture-verify-jobs", [
    { id: `push-${attempt}`, timestamp: new Date(), attempts: 1, body: { type: "push", deliveryId, attempt } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env as Env);
  return getQueueResult(batch, ctx);
}

describe("a receiver that is down gets the push once it is back (issue 14)", () => {
  it("down → retrying with the failure recorded → back → delivered once, verifiable with standardwebhooks", async () => {
    const receiver = await downReceiver();
    const { accountId, apiKey } = await createAccount({ push: { url: receiver.url, secret: SECRET } });
    const caseNumber = uniqueCaseNumber("LOOP");
    const created = await postJson("/capture/link", { caseNumber }, { "x-api-key": apiKey });
    const { ticketId } = await created.json<{ ticketId: string }>();
    await unwrap(
      caseLockFor(env as Env, accountId, caseNumber).transition(accountId, ticketId, "manualClose", {
        actor: "handler:loopback-test",
        decision: "betrug_bestaetigt",
      }),
    );

    // The real queue's first attempt: connection refused.
    const failed = await vi.waitFor(
      async () => {
        const row = await deliveryOf(ticketId);
        if (row?.status !== "retrying") throw new Error("first attempt not done yet");
        return row;
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(failed).toMatchObject({ attempts: 1 });
    expect(delayed.held).toEqual([{ body: { type: "push", deliveryId: failed.id, attempt: 2 }, delaySeconds: 30 }]);
    const status = async () =>
      (await SELF.fetch(`${BASE}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } })).json<{
        resultPush: { status: string; statusCode: number } | null;
        events: { action: string }[];
      }>();
    expect((await status()).resultPush).toMatchObject({ status: "retrying", statusCode: 0 });

    await receiver.up();
    expect((await driveAttempt(failed.id, 2)).explicitAcks).toEqual(["push-2"]);
    // A duplicate of that message (the queue's own delayed retry, or a redelivery) posts nothing more.
    await driveAttempt(failed.id, 2);

    const received = await receiver.received();
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(headers["webhook-id"]).toBe(failed.id);
    expect(new Webhook(SECRET).verify(body, headers)).toMatchObject({
      type: "capture.closed",
      data: { ticketId, caseNumber, status: "closed", finalDecision: "betrug_bestaetigt" },
    });
    expect(() => new Webhook(`whsec_${btoa("another-secret-0123456789abcd")}`).verify(body, headers)).toThrow(
      WebhookVerificationError,
    );
    const after = await status();
    expect(after.resultPush).toMatchObject({ status: "delivered", statusCode: 204 });
    expect(after.events.map((e) => e.action).filter((a) => a.startsWith("feedback_"))).toEqual([
      "feedback_push_failed",
      "feedback_pushed",
    ]);
  });
});

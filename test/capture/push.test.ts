import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { caseLockFor, unwrap } from "../../src/capture/case-lock";
import type { TransitionName } from "../../src/capture/lifecycle";
import { deliverPush } from "../../src/capture/push/deliver";
import { pushTargetProblem } from "../../src/capture/push/target";
import type { FinalDecision } from "../../src/db/schema";
import type { Env } from "../../src/env";
import { clock } from "../../src/lib/clock";
import { ADMIN, BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { runCron } from "../support/cron";
import { holdDelayedJobs } from "../support/jobs";

/**
 * Result push (DESIGN §14) against a receiver at https://receiver.test, mocked with MSW: it
 * intercepts the Worker's outbound fetch in the test isolate, the queue consumer's included. The
 * first attempt runs through the real JOBS queue; later attempts are driven with createMessageBatch.
 */
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RECEIVER = "https://receiver.test/hooks/capture";
const server = setupServer();

// The consumer's next attempts after a failed first one are held, not sent (they would run after this file ended).
const delayed = holdDelayedJobs();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  clock.reset();
  vi.restoreAllMocks();
});
afterAll(() => {
  server.close();
  delayed.restore();
});

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** The receiver answers with `statuses` in turn (the last one repeats) and records every request. */
function receiver(statuses: (number | "hang")[]): Received[] {
  const received: Received[] = [];
  server.use(
    http.post(RECEIVER, async ({ request }) => {
      received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)];
      if (status === "hang") await delay("infinite");
      return new HttpResponse(null, { status: status as number });
    }),
  );
  return received;
}

/** An account with a push URL and an open case; `close` runs a closing transition through the case's CaseLock. */
async function openCase(push: { url: string; secret: string } | null = { url: RECEIVER, secret: SECRET }) {
  const { accountId, apiKey } = await createAccount(push ? { push } : {});
  const caseNumber = uniqueCaseNumber("PUSH");
  const { ticketId } = await (await postJson("/capture/link", { caseNumber }, { "x-api-key": apiKey })).json<{
    ticketId: string;
  }>();
  const transition = (name: TransitionName, decision?: FinalDecision) =>
    unwrap(
      caseLockFor(env as Env, accountId, caseNumber).transition(accountId, ticketId, name, {
        actor: name === "manualClose" ? "handler:test" : "capture",
        decision,
      }),
    );
  const status = async () =>
    (await SELF.fetch(`${BASE}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } })).json<{
      resultPush: { status: string; at: string; statusCode: number } | null;
      events: { action: string; actor: string }[];
      finalDecision: string | null;
    }>();
  return { accountId, apiKey, caseNumber, ticketId, transition, close: () => transition("resultIo"), status };
}

function deliveryOf(ticketId: string) {
  return env.DB.prepare("SELECT id, status, attempts, status_code AS statusCode FROM push_deliveries WHERE case_id = ?")
    .bind(ticketId)
    .first<{ id: string; status: string; attempts: number; statusCode: number | null }>();
}

/** Waits until the real queue has run the first attempt. */
async function firstAttemptDone(ticketId: string) {
  return vi.waitFor(
    async () => {
      const row = await deliveryOf(ticketId);
      if (!row || row.status === "pending") throw new Error("first attempt not done yet");
      return row;
    },
    { timeout: 60_000, interval: 200 },
  );
}

/** Runs attempt `attempt` through the queue consumer; the messages it queues are returned instead of sent. */
async function driveAttempt(deliveryId: string, attempt: number) {
  const queued: { body: unknown; options?: QueueSendOptions }[] = [];
  const jobs = { send: async (body: unknown, options?: QueueSendOptions) => void queued.push({ body, options }) };
  const batch = createMessageBatch("capture-verify-jobs", [
    { id: `push-${attempt}`, timestamp: new Date(), attempts: 1, body: { type: "push", deliveryId, attempt } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, JOBS: jobs } as unknown as Env);
  expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([`push-${attempt}`]);
  return queued;
}

const pushEvents = (events: { action: string; actor: string }[]) =>
  events.filter((e) => e.action.startsWith("feedback_"));

describe("result push on close (happy path)", () => {
  it("an automatic close (closed_io) is pushed once, signed as Standard Webhooks, and shows as delivered", async () => {
    const received = receiver([204]);
    const c = await openCase();
    expect((await c.status()).resultPush).toBeNull();
    await c.close();

    const row = await firstAttemptDone(c.ticketId);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, statusCode: 204 });
    expect(received).toHaveLength(1);
    const [{ headers, body }] = received;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["webhook-id"]).toBe(row.id);
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);

    // The receiver's side: any Standard Webhooks library verifies it with the account's secret.
    const payload = new Webhook(SECRET).verify(body, headers);
    expect(payload).toEqual({
      type: "capture.closed",
      timestamp: expect.stringMatching(/\+00:00$/),
      data: {
        ticketId: c.ticketId,
        caseNumber: c.caseNumber,
        status: "closed",
        lastResult: "io",
        finalDecision: "closed_io",
        closedAt: expect.stringMatching(/\+00:00$/),
        sessions: [expect.objectContaining({ sessionNumber: 1, finalStatus: "closed" })],
      },
    });
    expect((payload as { timestamp: string; data: { closedAt: string } }).timestamp).toBe(
      (payload as { data: { closedAt: string } }).data.closedAt,
    );

    const status = await c.status();
    expect(status.resultPush).toEqual({ status: "delivered", at: expect.stringMatching(/\+00:00$/), statusCode: 204 });
    expect(pushEvents(status.events)).toEqual([
      { timestamp: expect.any(String), action: "feedback_pushed", actor: "system" },
    ]);
  });

  it("a wrong secret, a changed body or a stale timestamp fail verification", async () => {
    const received = receiver([200]);
    const c = await openCase();
    await c.close();
    await firstAttemptDone(c.ticketId);
    const { headers, body } = received[0];
    expect(() => new Webhook(`whsec_${btoa("another-secret-of-24-bytes!!")}`).verify(body, headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => new Webhook(SECRET).verify(body.replace('"io"', '"nicht_io"'), headers)).toThrow(
      WebhookVerificationError,
    );
    const old = String(Number(headers["webhook-timestamp"]) - 10 * 60);
    expect(() => new Webhook(SECRET).verify(body, { ...headers, "webhook-timestamp": old })).toThrow(
      WebhookVerificationError,
    );
  });

  it("a handler's close (manually_closed) pushes its decision through the same hook", async () => {
    const received = receiver([200]);
    const c = await openCase();
    await c.transition("inspectionRequested");
    await c.transition("manualClose", "manuell_geprueft");
    await firstAttemptDone(c.ticketId);
    const payload = new Webhook(SECRET).verify(received[0].body, received[0].headers) as {
      data: Record<string, unknown>;
    };
    expect(payload.data).toMatchObject({
      status: "closed",
      lastResult: "inspection_requested",
      finalDecision: "manuell_geprueft",
    });
  });

  it("an account without a push URL gets no push; resultPush stays null", async () => {
    receiver([200]);
    const c = await openCase(null);
    await c.close();
    expect(await deliveryOf(c.ticketId)).toBeNull();
    expect((await c.status()).resultPush).toBeNull();
  });
});

describe("retries", () => {
  it("receiver down: retried with growing delays and the same webhook-id, delivered once it is back", async () => {
    const logs = [vi.spyOn(console, "log"), vi.spyOn(console, "warn"), vi.spyOn(console, "error")];
    const received = receiver([503, 502, 200]);
    const c = await openCase();
    await c.close();

    const first = await firstAttemptDone(c.ticketId);
    expect(first).toMatchObject({ status: "retrying", attempts: 1, statusCode: 503 });
    expect(delayed.held).toContainEqual({ body: { type: "push", deliveryId: first.id, attempt: 2 }, delaySeconds: 30 });
    let status = await c.status();
    expect(status.resultPush).toMatchObject({ status: "retrying", statusCode: 503 });
    expect(pushEvents(status.events).map((e) => e.action)).toEqual(["feedback_push_failed"]);

    const afterSecond = await driveAttempt(first.id, 2);
    expect(afterSecond).toEqual([
      { body: { type: "push", deliveryId: first.id, attempt: 3 }, options: { delaySeconds: 60 } },
    ]);
    status = await c.status();
    expect(status.resultPush).toMatchObject({ status: "retrying", statusCode: 502 });

    expect(await driveAttempt(first.id, 3)).toEqual([]);
    status = await c.status();
    expect(status.resultPush).toMatchObject({ status: "delivered", statusCode: 200 });
    expect(pushEvents(status.events).map((e) => e.action)).toEqual([
      "feedback_push_failed",
      "feedback_push_failed",
      "feedback_pushed",
    ]);

    expect(received.map((r) => r.headers["webhook-id"])).toEqual([first.id, first.id, first.id]);
    for (const r of received) expect(() => new Webhook(SECRET).verify(r.body, r.headers)).not.toThrow();
    // The secret (and its key) never reach a log line.
    const logged = logs.flatMap((spy) => spy.mock.calls.flat().map(String)).join("\n");
    expect(logged).toContain("push.retrying");
    expect(logged).not.toContain(SECRET.slice("whsec_".length));
  });

  it("a duplicate or stale message sends nothing", async () => {
    const received = receiver([200]);
    const c = await openCase();
    await c.close();
    const row = await firstAttemptDone(c.ticketId);
    expect(await driveAttempt(row.id, 1)).toEqual([]);
    expect(await driveAttempt(row.id, 2)).toEqual([]);
    expect(received).toHaveLength(1);
    expect(pushEvents((await c.status()).events)).toHaveLength(1);
  });

  it("a receiver that does not answer within the timeout counts as down (statusCode 0)", async () => {
    receiver([503, "hang"]);
    const c = await openCase();
    await c.close();
    const row = await firstAttemptDone(c.ticketId);
    const queued: unknown[] = [];
    const testEnv = { ...env, JOBS: { send: async (body: unknown) => void queued.push(body) } } as unknown as Env;
    await deliverPush(testEnv, row.id, 2, 200);
    expect(queued).toEqual([{ type: "push", deliveryId: row.id, attempt: 3 }]);
    expect((await c.status()).resultPush).toMatchObject({ status: "retrying", statusCode: 0 });
  });

  it("still failing 24 h after the close: failed, no further attempt", async () => {
    receiver([500]);
    const c = await openCase();
    await c.close();
    const row = await firstAttemptDone(c.ticketId);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect(await driveAttempt(row.id, 2)).toEqual([]);
    const status = await c.status();
    expect(status.resultPush).toMatchObject({ status: "failed", statusCode: 500 });
    expect(pushEvents(status.events).map((e) => e.action)).toEqual(["feedback_push_failed", "feedback_push_failed"]);
    expect(await deliveryOf(c.ticketId)).toMatchObject({ status: "failed", attempts: 2 });
  });

  it("the last attempt is scheduled for the end of the window, not after it", async () => {
    receiver([500]);
    const c = await openCase();
    await c.close();
    const row = await firstAttemptDone(c.ticketId);
    clock.advance(24 * 60 * 60 * 1000 - 10_000);
    const queued = await driveAttempt(row.id, 2);
    expect(queued).toHaveLength(1);
    expect(queued[0].options!.delaySeconds).toBeLessThanOrEqual(10);
  });
});

describe("lost messages", () => {
  it("the cron re-queues a push whose next attempt is overdue, and only that one", async () => {
    const c = await openCase(null);
    const insert = (id: string, status: string, attempts: number) =>
      env.DB.prepare("INSERT INTO push_deliveries (id, case_id, status, attempts, at) VALUES (?, ?, ?, ?, ?)")
        .bind(id, c.ticketId, status, attempts, clock.nowMs())
        .run();
    const [lostFirst, lostRetry, waiting, done] = [
      crypto.randomUUID(),
      crypto.randomUUID(),
      crypto.randomUUID(),
      crypto.randomUUID(),
    ];
    await insert(lostFirst, "pending", 0);
    await insert(lostRetry, "retrying", 1); // its next attempt was due 30 s later
    await insert(waiting, "retrying", 10); // next attempt in 4 h: not lost
    await insert(done, "delivered", 1);
    clock.advance(16 * 60 * 1000);
    const mine = (await runCron())
      .map((m) => m.body)
      .filter((b) => b.type === "push" && [lostFirst, lostRetry, waiting, done].includes(b.deliveryId));
    expect(mine).toEqual([
      { type: "push", deliveryId: lostFirst, attempt: 1 },
      { type: "push", deliveryId: lostRetry, attempt: 2 },
    ]);
  });
});

describe("push targets", () => {
  const production = { PUBLIC_BASE_URL: "https://capture.example" };
  const dev = { PUBLIC_BASE_URL: "http://127.0.0.1:8787" };

  it("production allows only https to public hosts", () => {
    expect(pushTargetProblem("https://hooks.insurer.example/capture", production)).toBeNull();
    for (const url of [
      "http://hooks.insurer.example/",
      "https://127.0.0.1/",
      "https://2130706433/", // 127.0.0.1 spelt as a number
      "https://localhost:8443/",
      "https://api.localhost/",
      "https://10.1.2.3/",
      "https://172.20.0.1/",
      "https://192.168.1.10/",
      "https://169.254.169.254/latest/meta-data",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[::1]/",
      "https://[fd00::1]/",
      "https://[fe80::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://user:pass@hooks.insurer.example/",
    ]) {
      expect(pushTargetProblem(url, production), url).not.toBeNull();
    }
  });

  it("local development (PUBLIC_BASE_URL on 127.0.0.1, or PUSH_TARGETS=any) allows http and loopback", () => {
    expect(pushTargetProblem("http://127.0.0.1:9000/hook", dev)).toBeNull();
    expect(pushTargetProblem("http://localhost:9000/hook", { ...production, PUSH_TARGETS: "any" })).toBeNull();
    expect(pushTargetProblem("http://127.0.0.1:9000/hook", { ...dev, PUSH_TARGETS: "public" })).not.toBeNull();
    expect(pushTargetProblem("ftp://127.0.0.1/", dev)).not.toBeNull();
  });

  it("the admin API refuses a target this deployment would not call, and a secret that is not whsec_", async () => {
    const create = (push: unknown) =>
      SELF.fetch(`${BASE}/admin/accounts`, {
        method: "POST",
        headers: ADMIN,
        body: JSON.stringify({ name: "X", communicationMode: "eigenversand", push }),
      });
    const local = await create({ url: "http://127.0.0.1:9000/hook", secret: SECRET });
    expect(local.status).toBe(400);
    expect((await local.json<{ errors: unknown[] }>()).errors).toEqual([
      { field: "push.url", message: "must be https" },
    ]);
    const metadata = await create({ url: "https://169.254.169.254/", secret: SECRET });
    expect((await metadata.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("push.url");
    const plain = await create({ url: RECEIVER, secret: "0123456789abcdef0123" });
    expect(plain.status).toBe(400);
    expect((await plain.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("push.secret");
  });

  it("a target that became private after the close fails at once without a request", async () => {
    receiver([200]);
    const c = await openCase();
    await env.DB.prepare("UPDATE accounts SET push_url = 'https://10.0.0.8/hook' WHERE id = ?").bind(c.accountId).run();
    await c.close();
    const row = await firstAttemptDone(c.ticketId);
    expect(row).toMatchObject({ status: "failed", attempts: 1, statusCode: null });
    expect((await c.status()).resultPush).toMatchObject({ status: "failed", statusCode: 0 });
  });
});

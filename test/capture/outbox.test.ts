import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { clock } from "../../src/lib/clock";
import { MAX_NOTIFICATION_ATTEMPTS } from "../../src/cron/outbox-retry";
import { createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { runCron } from "../support/cron";

async function providerCase() {
  const { apiKey } = await createAccount({ communicationMode: "provider_versand" });
  const res = await postJson(
    "/capture/link",
    { caseNumber: uniqueCaseNumber(), vnName: "Jan Kowalski", vnEmail: "jan@example.pl" },
    { "x-api-key": apiKey },
  );
  const { ticketId } = await res.json<{ ticketId: string }>();
  const row = await env.DB.prepare("SELECT id, status, attempts FROM outbox WHERE case_id = ?")
    .bind(ticketId)
    .first<{ id: string; status: string; attempts: number }>();
  return row!;
}

describe("invitations are never lost (outbox + queue)", () => {
  it("the consumer acks a notification and, with no provider connected, leaves it pending (no attempt counted)", async () => {
    const row = await providerCase();
    const batch = createMessageBatch("capture-verify-jobs", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { type: "notification", outboxId: row.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    const after = await env.DB.prepare("SELECT status, attempts FROM outbox WHERE id = ?").bind(row.id).first();
    expect(after).toEqual({ status: "pending", attempts: row.attempts });
  });

  it("a malformed message is acked and dropped, not retried forever", async () => {
    const batch = createMessageBatch("capture-verify-jobs", [
      { id: "bad", timestamp: new Date(), attempts: 1, body: { type: "nonsense" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["bad"]);
  });

  it("the cron re-queues stale pending rows and marks them failed after the last attempt", async () => {
    const row = await providerCase();
    await env.DB.prepare("UPDATE outbox SET attempts = ? WHERE id = ?").bind(MAX_NOTIFICATION_ATTEMPTS, row.id).run();
    clock.advance(11 * 60 * 1000);
    try {
      await runCron();
    } finally {
      clock.reset();
    }
    const after = await env.DB.prepare("SELECT status FROM outbox WHERE id = ?")
      .bind(row.id)
      .first<{ status: string }>();
    expect(after?.status).toBe("failed");
  });
});

describe("the database itself refuses a second open case", () => {
  it("the partial unique index rejects a duplicate open row", async () => {
    const { accountId } = await createAccount();
    const insert = (id: string) =>
      env.DB.prepare(
        "INSERT INTO capture_cases (id, account_id, case_number, status, closed, retrigger_count, reminder_count, reminders_enabled, created_at, updated_at) VALUES (?, ?, 'DUP-1', 'sent', 0, 0, 0, 0, 0, 0)",
      )
        .bind(id, accountId)
        .run();
    await insert(crypto.randomUUID());
    await expect(insert(crypto.randomUUID())).rejects.toThrow(/UNIQUE/);
  });
});

describe("the dead-letter queue records what failed every retry", () => {
  it("a notification that reached the DLQ is stored in failed_jobs and its outbox row marked failed", async () => {
    const row = await providerCase();
    const batch = createMessageBatch("capture-verify-dlq", [
      { id: "dead-1", timestamp: new Date(), attempts: 11, body: { type: "notification", outboxId: row.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["dead-1"]);
    const failed = await env.DB.prepare(
      "SELECT queue, body, attempts FROM failed_jobs WHERE message_id = 'dead-1'",
    ).first<{ queue: string; body: string; attempts: number }>();
    expect(failed).toEqual({
      queue: "capture-verify-dlq",
      body: JSON.stringify({ type: "notification", outboxId: row.id }),
      attempts: 11,
    });
    expect(await env.DB.prepare("SELECT status FROM outbox WHERE id = ?").bind(row.id).first()).toEqual({
      status: "failed",
    });
  });
});

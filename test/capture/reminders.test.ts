import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { caseLockFor, unwrap } from "../../src/capture/case-lock";
import type { Env } from "../../src/env";
import { clock } from "../../src/lib/clock";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";
import { runCron } from "../support/cron";

/** Reminders and escalation by cron (DESIGN §15) over simulated time (`clock.advance`). */
const HOUR = 60 * 60 * 1000;
const POLICY = { firstAfterHours: 24, followupAfterHours: 48, maxReminders: 2 };

afterEach(() => clock.reset());

async function newCase(
  opts: { mode?: "provider_versand" | "eigenversand"; reminders?: boolean; policy?: typeof POLICY | null } = {},
) {
  const { accountId, apiKey } = await createAccount({
    communicationMode: opts.mode ?? "provider_versand",
    ...(opts.policy !== null && { reminders: opts.policy ?? POLICY }),
  });
  const caseNumber = uniqueCaseNumber("REM");
  const res = await postJson(
    "/capture/link",
    {
      caseNumber,
      vnName: "Jan Kowalski",
      vnEmail: "jan@example.pl",
      vnPhone: "+48501234567",
      reminders: opts.reminders ?? true,
    },
    { "x-api-key": apiKey },
  );
  expect(res.status).toBe(201);
  const { ticketId } = await res.json<{ ticketId: string }>();
  const status = async () =>
    (await SELF.fetch(`${BASE}/capture/status?ticketId=${ticketId}`, { headers: { "x-api-key": apiKey } })).json<{
      status: string;
      reminderCount: number;
      captureLink: string;
      events: { action: string; actor: string }[];
    }>();
  const reminders = async () =>
    (
      await env.DB.prepare(
        "SELECT channel, recipient, payload FROM outbox WHERE case_id = ? AND kind = 'reminder' ORDER BY created_at, channel",
      )
        .bind(ticketId)
        .all<{ channel: string; recipient: string; payload: string }>()
    ).results;
  const lock = () => caseLockFor(env as Env, accountId, caseNumber);
  return { accountId, apiKey, caseNumber, ticketId, status, reminders, lock };
}

const reminderActions = (events: { action: string }[]) =>
  events.map((e) => e.action).filter((a) => a.startsWith("reminder_") || a === "escalated_to_manual");

describe("reminders by cron (provider_versand)", () => {
  it("first reminder, follow-up, then escalation to manual, each on time and once", async () => {
    const c = await newCase();

    clock.advance(23 * HOUR);
    await runCron();
    expect(await c.status()).toMatchObject({ status: "sent", reminderCount: 0 });

    clock.advance(1 * HOUR + 1000);
    await runCron();
    let status = await c.status();
    expect(status).toMatchObject({ status: "reminder", reminderCount: 1 });
    expect(status.events.at(-1)).toMatchObject({ action: "reminder_sent_auto_first", actor: "system" });
    const first = await c.reminders();
    expect(first.map((r) => [r.channel, r.recipient])).toEqual([["email", "jan@example.pl"]]); // no SMS credentials in tests: no SMS row
    expect(JSON.parse(first[0].payload)).toMatchObject({ link: status.captureLink, vnName: "Jan Kowalski" });

    await runCron(); // the same quarter hour again: nothing new
    clock.advance(47 * HOUR);
    await runCron();
    expect((await c.status()).reminderCount).toBe(1);

    clock.advance(1 * HOUR + 1000);
    await runCron();
    status = await c.status();
    expect(status).toMatchObject({ status: "reminder", reminderCount: 2 });
    expect(status.events.at(-1)).toMatchObject({ action: "reminder_sent_auto_followup", actor: "system" });
    expect(await c.reminders()).toHaveLength(2); // e-mail only: no SMS credentials in tests

    clock.advance(48 * HOUR + 1000);
    await runCron();
    status = await c.status();
    expect(status).toMatchObject({ status: "manual", reminderCount: 2 });
    expect(reminderActions(status.events)).toEqual([
      "reminder_sent_auto_first",
      "reminder_sent_auto_followup",
      "escalated_to_manual",
    ]);
    expect(await c.reminders()).toHaveLength(2); // escalation sends nothing to the policyholder

    clock.advance(100 * HOUR);
    await runCron();
    expect(reminderActions((await c.status()).events)).toHaveLength(3);
  });

  it("maxReminders 0: no reminder, escalation once the first reminder would be due", async () => {
    const c = await newCase({ policy: { firstAfterHours: 2, followupAfterHours: 4, maxReminders: 0 } });
    clock.advance(2 * HOUR + 1000);
    await runCron();
    const status = await c.status();
    expect(status).toMatchObject({ status: "manual", reminderCount: 0 });
    expect(reminderActions(status.events)).toEqual(["escalated_to_manual"]);
    expect(await c.reminders()).toEqual([]);
  });

  it("a re-trigger restarts the clock; the next reminder is a follow-up with the new link", async () => {
    const c = await newCase();
    clock.advance(24 * HOUR + 1000);
    await runCron();
    clock.advance(10 * HOUR);
    const retrigger = await postJson("/capture/retrigger", { ticketId: c.ticketId }, { "x-api-key": c.apiKey });
    const { captureLink } = await retrigger.json<{ captureLink: string }>();
    clock.advance(40 * HOUR); // 50 h after the first reminder, but only 40 h after the new link
    await runCron();
    expect((await c.status()).reminderCount).toBe(1);
    clock.advance(8 * HOUR + 1000);
    await runCron();
    const status = await c.status();
    expect(status).toMatchObject({ status: "reminder", reminderCount: 2 });
    expect(status.events.at(-1)?.action).toBe("reminder_sent_auto_followup");
    expect(JSON.parse((await c.reminders()).at(-1)!.payload).link).toBe(captureLink);
  });
});

describe("no reminder where none is owed", () => {
  it("eigenversand: reminders are events only, no message", async () => {
    const c = await newCase({ mode: "eigenversand" });
    clock.advance(24 * HOUR + 1000);
    await runCron();
    const status = await c.status();
    expect(status).toMatchObject({ status: "reminder", reminderCount: 1 });
    expect(reminderActions(status.events)).toEqual(["reminder_sent_auto_first"]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE case_id = ?").bind(c.ticketId).first()).toEqual(
      { n: 0 },
    );
  });

  it("a case created without reminders: true, or an account without a policy, gets none", async () => {
    const off = await newCase({ reminders: false });
    const noPolicy = await newCase({ policy: null });
    clock.advance(200 * HOUR);
    await runCron();
    for (const c of [off, noPolicy]) {
      const status = await c.status();
      expect(status).toMatchObject({ status: "sent", reminderCount: 0 });
      expect(reminderActions(status.events)).toEqual([]);
    }
  });

  it("a case completed after the first reminder gets nothing more", async () => {
    const c = await newCase();
    clock.advance(24 * HOUR + 1000);
    await runCron();
    await unwrap(c.lock().transition(c.accountId, c.ticketId, "resultIo", { actor: "capture" }));
    clock.advance(200 * HOUR);
    await runCron();
    const status = await c.status();
    expect(status).toMatchObject({ status: "closed", reminderCount: 1 });
    expect(reminderActions(status.events)).toEqual(["reminder_sent_auto_first"]);
    expect(await c.reminders()).toHaveLength(1);
  });

  it("a case handed to manual review (inspection requested) is not reminded or escalated", async () => {
    const c = await newCase();
    await unwrap(c.lock().transition(c.accountId, c.ticketId, "inspectionRequested", { actor: "capture" }));
    clock.advance(200 * HOUR);
    await runCron();
    expect(reminderActions((await c.status()).events)).toEqual([]);
  });
});

describe("overlapping runs", () => {
  it("two cron runs at once send one reminder", async () => {
    const c = await newCase();
    clock.advance(24 * HOUR + 1000);
    await Promise.all([runCron(), runCron(), runCron()]);
    const status = await c.status();
    expect(status.reminderCount).toBe(1);
    expect(reminderActions(status.events)).toEqual(["reminder_sent_auto_first"]);
    expect(await c.reminders()).toHaveLength(1);
  });

  it("the case's lock decides: a repeated visit of a case that was just reminded does nothing", async () => {
    const c = await newCase();
    clock.advance(24 * HOUR + 1000);
    const visits = await Promise.all([1, 2, 3].map(() => unwrap(c.lock().remind(c.accountId, c.ticketId))));
    expect(visits.sort()).toEqual(["nothing", "nothing", "reminded"]);
  });
});

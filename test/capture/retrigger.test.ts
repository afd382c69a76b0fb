import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";

let apiKey: string;
const auth = () => ({ "x-api-key": apiKey });

beforeAll(async () => {
  ({ apiKey } = await createAccount());
});

describe("re-trigger issues a new link (spec 3 rule 2, DESIGN §15)", () => {
  it("created, re-triggered twice: 3 sessions, retriggerCount 2, events in order, first link superseded", async () => {
    const caseNumber = uniqueCaseNumber();
    const created = await (await postJson("/capture/link", { caseNumber }, auth())).json<{
      ticketId: string;
      captureLink: string;
      sessionId: string;
    }>();
    const r1 = await postJson("/capture/retrigger", { ticketId: created.ticketId }, auth());
    expect(r1.status).toBe(200);
    const second = await r1.json<{ captureLink: string; sessionId: string; ticketId: string }>();
    const third = await (await postJson("/capture/retrigger", { caseNumber }, auth())).json<{
      captureLink: string;
      sessionId: string;
    }>();

    expect(second.ticketId).toBe(created.ticketId);
    expect(new Set([created.captureLink, second.captureLink, third.captureLink]).size).toBe(3);

    const status = await (
      await SELF.fetch(`${BASE}/capture/status?ticketId=${created.ticketId}`, { headers: auth() })
    ).json<{
      status: string;
      retriggerCount: number;
      captureLink: string;
      sessions: { sessionNumber: number; sessionId: string; finalStatus: string }[];
      events: { action: string; actor: string }[];
    }>();
    expect(status.status).toBe("sent");
    expect(status.retriggerCount).toBe(2);
    expect(status.captureLink).toBe(third.captureLink);
    expect(status.sessions.map((s) => [s.sessionNumber, s.sessionId, s.finalStatus])).toEqual([
      [1, created.sessionId, "superseded"],
      [2, second.sessionId, "superseded"],
      [3, third.sessionId, "open"],
    ]);
    expect(status.events.map((e) => [e.action, e.actor])).toEqual([
      ["capture_triggered", "API"],
      ["capture_retriggered", "API"],
      ["capture_retriggered", "API"],
    ]);

    const firstLink = await SELF.fetch(created.captureLink);
    expect(firstLink.status).toBe(410);
    expect(await firstLink.text()).toMatch(/replaced/i);
    expect((await SELF.fetch(third.captureLink)).status).toBe(200);
  });

  it("a re-trigger of an unknown or foreign case is 404", async () => {
    const other = await createAccount();
    const foreign = await (
      await postJson("/capture/link", { caseNumber: uniqueCaseNumber() }, { "x-api-key": other.apiKey })
    ).json<{ ticketId: string }>();
    expect((await postJson("/capture/retrigger", { ticketId: foreign.ticketId }, auth())).status).toBe(404);
    expect((await postJson("/capture/retrigger", { caseNumber: "NO-SUCH-CASE" }, auth())).status).toBe(404);
  });

  it("needs ticketId or caseNumber", async () => {
    const res = await postJson("/capture/retrigger", {}, auth());
    expect(res.status).toBe(400);
  });
});

describe("a closed case stays closed (DESIGN §15)", () => {
  it("re-trigger of a closed case is 409; a new create makes a new case", async () => {
    const { env } = await import("cloudflare:test");
    const { caseLockFor, unwrap } = await import("../../src/capture/case-lock");
    const { accountForKey } = await import("../../src/accounts/auth");
    const caseNumber = uniqueCaseNumber();
    const created = await (await postJson("/capture/link", { caseNumber }, auth())).json<{
      ticketId: string;
      captureLink: string;
    }>();
    const account = (await accountForKey(env.DB, apiKey))!;
    await unwrap(
      caseLockFor(env, account.id, caseNumber).transition(account.id, created.ticketId, "manualClose", {
        actor: "handler:test",
        decision: "sonstiges",
      }),
    );

    const res = await postJson("/capture/retrigger", { ticketId: created.ticketId }, auth());
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ status: 409, ticketId: created.ticketId });
    expect((await SELF.fetch(created.captureLink)).status).toBe(410);

    const again = await postJson("/capture/link", { caseNumber }, auth());
    expect(again.status).toBe(201);
    expect((await again.json<{ ticketId: string }>()).ticketId).not.toBe(created.ticketId);
  });
});

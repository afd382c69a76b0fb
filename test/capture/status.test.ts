import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";

let apiKey: string;
const auth = () => ({ "x-api-key": apiKey });
const getStatus = (query: string, headers = auth()) => SELF.fetch(`${BASE}/capture/status?${query}`, { headers });

beforeAll(async () => {
  ({ apiKey } = await createAccount());
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

describe("GET /capture/status returns the 2.4 record (spec 4.2)", () => {
  it("by ticketId, with every field of spec 2.4", async () => {
    const caseNumber = uniqueCaseNumber();
    const created = await (
      await postJson("/capture/link", { caseNumber, scenes: [{ description: "Damage close-up" }] }, auth())
    ).json<Record<string, string>>();
    const res = await getStatus(`ticketId=${created.ticketId}`);
    expect(res.status).toBe(200);
    const body = await res.json<
      Record<string, unknown> & { sessions: Record<string, unknown>[]; events: Record<string, unknown>[] }
    >();
    expect(Object.keys(body).sort()).toEqual(
      [
        "attemptCount",
        "captureLink",
        "caseNumber",
        "closed",
        "closedAt",
        "communicationMode",
        "createdAt",
        "events",
        "finalDecision",
        "lastResult",
        "reminderCount",
        "resultPush",
        "retriggerCount",
        "scenes",
        "sessions",
        "status",
        "ticketId",
        "updatedAt",
      ].sort(),
    );
    expect(body).toMatchObject({
      ticketId: created.ticketId,
      caseNumber,
      status: "sent",
      closed: false,
      lastResult: "pending",
      finalDecision: null,
      attemptCount: 0,
      retriggerCount: 0,
      reminderCount: 0,
      closedAt: null,
      communicationMode: "eigenversand",
      captureLink: created.captureLink,
      scenes: [{ description: "Damage close-up", completed: false }],
      resultPush: null,
    });
    expect(body.createdAt).toMatch(ISO_WITH_OFFSET);
    expect(body.updatedAt).toMatch(ISO_WITH_OFFSET);
    expect(body.sessions).toEqual([
      {
        sessionNumber: 1,
        sessionId: created.sessionId,
        captureLink: created.captureLink,
        triggeredAt: body.createdAt,
        attemptCount: 0,
        finalStatus: "open",
      },
    ]);
    expect(body.events).toEqual([{ timestamp: body.createdAt, action: "capture_triggered", actor: "API" }]);
  });

  it("by URL-encoded caseNumber with slashes", async () => {
    const caseNumber = `${uniqueCaseNumber()}/A B/ü`;
    const created = await (await postJson("/capture/link", { caseNumber }, auth())).json<{ ticketId: string }>();
    const body = await (await getStatus(`caseNumber=${encodeURIComponent(caseNumber)}`)).json<{
      ticketId: string;
      caseNumber: string;
    }>();
    expect(body).toMatchObject({ ticketId: created.ticketId, caseNumber });
  });

  it("ticketId wins when both are given", async () => {
    const a = await (await postJson("/capture/link", { caseNumber: uniqueCaseNumber() }, auth())).json<{
      ticketId: string;
    }>();
    const otherCaseNumber = uniqueCaseNumber();
    await postJson("/capture/link", { caseNumber: otherCaseNumber }, auth());
    const body = await (await getStatus(`ticketId=${a.ticketId}&caseNumber=${otherCaseNumber}`)).json<{
      ticketId: string;
    }>();
    expect(body.ticketId).toBe(a.ticketId);
  });

  it("by caseNumber selects the most recent case (a closed one stays readable)", async () => {
    const caseNumber = uniqueCaseNumber();
    const first = await (await postJson("/capture/link", { caseNumber }, auth())).json<{ ticketId: string }>();
    // Close the first case the way a handler would, then open a new one for the same number.
    const { env } = await import("cloudflare:test");
    const { caseLockFor, unwrap } = await import("../../src/capture/case-lock");
    const { accountForKey } = await import("../../src/accounts/auth");
    const account = (await accountForKey(env.DB, apiKey))!;
    await unwrap(
      caseLockFor(env, account.id, caseNumber).transition(account.id, first.ticketId, "manualClose", {
        actor: "handler:test",
        decision: "manuell_geprueft",
      }),
    );
    const second = await (await postJson("/capture/link", { caseNumber }, auth())).json<{ ticketId: string }>();
    expect(second.ticketId).not.toBe(first.ticketId);

    const latest = await (await getStatus(`caseNumber=${caseNumber}`)).json<{ ticketId: string }>();
    expect(latest.ticketId).toBe(second.ticketId);
    const closed = await (await getStatus(`ticketId=${first.ticketId}`)).json<Record<string, unknown>>();
    expect(closed).toMatchObject({ status: "closed", closed: true, finalDecision: "manuell_geprueft" });
    expect(closed.closedAt).toMatch(ISO_WITH_OFFSET);
  });
});

describe("status errors", () => {
  it("neither ticketId nor caseNumber is 400", async () => {
    const res = await getStatus("");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("an unknown ticket is 404", async () => {
    expect((await getStatus(`ticketId=${crypto.randomUUID()}`)).status).toBe(404);
    expect((await getStatus("ticketId=not-a-uuid")).status).toBe(404);
  });

  it("another account's ticket and case number are 404, never revealed", async () => {
    const other = await createAccount();
    const caseNumber = uniqueCaseNumber();
    const created = await (await postJson("/capture/link", { caseNumber }, { "x-api-key": other.apiKey })).json<{
      ticketId: string;
    }>();
    const byTicket = await getStatus(`ticketId=${created.ticketId}`);
    const byNumber = await getStatus(`caseNumber=${caseNumber}`);
    expect(byTicket.status).toBe(404);
    expect(byNumber.status).toBe(404);
    expect(await byTicket.text()).not.toContain(caseNumber);
  });
});

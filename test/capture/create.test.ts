import { env, SELF } from "cloudflare:test";
import { describe, expect, it, beforeAll } from "vitest";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";

let apiKey: string;
const auth = () => ({ "x-api-key": apiKey });

beforeAll(async () => {
  ({ apiKey } = await createAccount());
});

describe("POST /capture/link creates a case (spec 2.1, 2.3, 4.1)", () => {
  it("answers 201 with the 2.3 body", async () => {
    const caseNumber = uniqueCaseNumber();
    const res = await postJson("/capture/link", { caseNumber }, auth());
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await res.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual([
      "captureLink",
      "caseNumber",
      "communicationMode",
      "notificationStatus",
      "sessionId",
      "ticketId",
    ]);
    expect(body.ticketId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.caseNumber).toBe(caseNumber);
    expect(body.captureLink).toMatch(/^https:\/\/capture\.test\/c\/[A-Za-z0-9_-]{22}$/);
    expect(body.communicationMode).toBe("eigenversand");
    expect(body.notificationStatus).toEqual({ emailSent: false, smsSent: false });
  });

  it("accepts case numbers with slashes", async () => {
    const res = await postJson("/capture/link", { caseNumber: `${uniqueCaseNumber()}/2026/7` }, auth());
    expect(res.status).toBe(201);
  });

  it("accepts Authorization: Bearer as well as x-api-key", async () => {
    const res = await postJson(
      "/capture/link",
      { caseNumber: uniqueCaseNumber() },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(res.status).toBe(201);
  });
});

describe("scenes: first 3 used, descriptions of 5 to 100 characters", () => {
  it("keeps valid ones among the first three and ignores the rest", async () => {
    const caseNumber = uniqueCaseNumber();
    const scenes = [
      { description: "Front of the car" },
      { description: "abcd" }, // 4 characters: ignored
      { description: "x".repeat(100) }, // exactly 100: kept
      { description: "Fourth scene is never used" },
    ];
    await postJson("/capture/link", { caseNumber, scenes }, auth());
    const status = await SELF.fetch(`${BASE}/capture/status?caseNumber=${encodeURIComponent(caseNumber)}`, {
      headers: auth(),
    });
    const body = await status.json<{ scenes: unknown[] }>();
    expect(body.scenes).toEqual([
      { description: "Front of the car", completed: false },
      { description: "x".repeat(100), completed: false },
    ]);
  });

  it("ignores a description of 101 characters and keeps one of exactly 5", async () => {
    const caseNumber = uniqueCaseNumber();
    await postJson(
      "/capture/link",
      { caseNumber, scenes: [{ description: "y".repeat(101) }, { description: "12345" }] },
      auth(),
    );
    const body = await (await SELF.fetch(`${BASE}/capture/status?caseNumber=${caseNumber}`, { headers: auth() })).json<{
      scenes: unknown[];
    }>();
    expect(body.scenes).toEqual([{ description: "12345", completed: false }]);
  });

  it("without scenes the case has none (free series)", async () => {
    const caseNumber = uniqueCaseNumber();
    await postJson("/capture/link", { caseNumber }, auth());
    const body = await (await SELF.fetch(`${BASE}/capture/status?caseNumber=${caseNumber}`, { headers: auth() })).json<{
      scenes: unknown[];
    }>();
    expect(body.scenes).toEqual([]);
  });
});

describe("one open case per case number (spec 3 rule 1, 4.1 rule 1, DESIGN §3)", () => {
  it("answers 409 with the existing case's link, so repeating is safe", async () => {
    const caseNumber = uniqueCaseNumber();
    const first = await (await postJson("/capture/link", { caseNumber }, auth())).json<Record<string, unknown>>();
    const again = await postJson("/capture/link", { caseNumber }, auth());
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    const problem = await again.json<Record<string, unknown>>();
    expect(problem).toMatchObject({
      status: 409,
      ticketId: first.ticketId,
      sessionId: first.sessionId,
      captureLink: first.captureLink,
      caseNumber,
      communicationMode: "eigenversand",
      notificationStatus: { emailSent: false, smsSent: false },
    });
  });

  it("20 parallel creates give one 201 and nineteen 409 with the same ticketId", async () => {
    const caseNumber = uniqueCaseNumber("PAR");
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => postJson("/capture/link", { caseNumber }, auth())),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const bodies = await Promise.all(responses.map((r) => r.json<{ ticketId: string }>()));
    expect(new Set(bodies.map((b) => b.ticketId)).size).toBe(1);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM capture_cases WHERE case_number = ?")
      .bind(caseNumber)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("is per account: another account may open the same case number", async () => {
    const caseNumber = uniqueCaseNumber();
    const other = await createAccount();
    expect((await postJson("/capture/link", { caseNumber }, auth())).status).toBe(201);
    expect((await postJson("/capture/link", { caseNumber }, { "x-api-key": other.apiKey })).status).toBe(201);
  });
});

describe("communication mode comes from the account (spec 2.2, 4.1 rule 3)", () => {
  it("provider_versand records invitations in the outbox; without a mail provider none is accepted", async () => {
    const provider = await createAccount({ communicationMode: "provider_versand" });
    const caseNumber = uniqueCaseNumber();
    const res = await postJson(
      "/capture/link",
      { caseNumber, vnName: "Erika Mustermann", vnEmail: "erika@example.com", vnPhone: "+4915112345678" },
      { "x-api-key": provider.apiKey },
    );
    expect(res.status).toBe(201);
    const body = await res.json<{ ticketId: string; communicationMode: string; notificationStatus: unknown }>();
    expect(body.communicationMode).toBe("provider_versand");
    // The test run has no mail provider (nothing can accept the e-mail) and no SMS credentials (SMS is not offered);
    // test/capture/notification-status.test.ts covers what providers accept.
    expect(body.notificationStatus).toEqual({ emailSent: false, smsSent: false });
    const rows = await env.DB.prepare("SELECT channel, recipient, kind FROM outbox WHERE case_id = ? ORDER BY channel")
      .bind(body.ticketId)
      .all();
    expect(rows.results).toEqual([{ channel: "email", recipient: "erika@example.com", kind: "invitation" }]);
  });

  it("provider_versand requires vnName and vnEmail or vnPhone", async () => {
    const provider = await createAccount({ communicationMode: "provider_versand" });
    const res = await postJson("/capture/link", { caseNumber: uniqueCaseNumber() }, { "x-api-key": provider.apiKey });
    expect(res.status).toBe(400);
    const problem = await res.json<{ errors: { field: string }[] }>();
    expect(problem.errors.map((e) => e.field).sort()).toEqual(["vnEmail", "vnName"]);
  });

  it("eigenversand sends nothing even with policyholder contacts", async () => {
    const caseNumber = uniqueCaseNumber();
    const res = await postJson("/capture/link", { caseNumber, vnName: "A", vnEmail: "a@example.com" }, auth());
    const body = await res.json<{ ticketId: string; notificationStatus: unknown }>();
    expect(body.notificationStatus).toEqual({ emailSent: false, smsSent: false });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE case_id = ?")
      .bind(body.ticketId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

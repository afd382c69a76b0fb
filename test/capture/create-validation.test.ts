import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, createAccount, postJson, uniqueCaseNumber } from "../helpers";

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount());
});

async function expectFieldError(body: unknown, field: string) {
  const res = await postJson("/capture/link", body, { "x-api-key": apiKey });
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const problem = await res.json<{
    type: string;
    title: string;
    status: number;
    errors: { field: string; message: string }[];
  }>();
  expect(problem.status).toBe(400);
  expect(problem.errors.map((e) => e.field)).toContain(field);
}

describe("every field of spec 2.1 is validated (400 problem+json)", () => {
  it.each([
    ["caseNumber missing", { caseNumber: undefined }, "caseNumber"],
    ["caseNumber empty", { caseNumber: "" }, "caseNumber"],
    ["caseNumber not a string", { caseNumber: 42 }, "caseNumber"],
    ["caseNumber over 100", { caseNumber: "x".repeat(101) }, "caseNumber"],
    ["sbEmail malformed", { sbEmail: "not-an-email" }, "sbEmail"],
    ["vnEmail malformed", { vnEmail: "a@" }, "vnEmail"],
    ["vnPhone not E.164", { vnPhone: "0151 1234567" }, "vnPhone"],
    ["vnName empty", { vnName: "" }, "vnName"],
    ["customNote too long", { customNote: "n".repeat(2001) }, "customNote"],
    ["scenes not an array", { scenes: "front" }, "scenes"],
    ["scene without description", { scenes: [{}] }, "scenes.0.description"],
    ["reminders not boolean", { reminders: "yes" }, "reminders"],
    ["unknown field", { reminder: true }, "reminder"],
  ])("%s", async (_name, patch, field) => {
    await expectFieldError({ caseNumber: uniqueCaseNumber(), ...patch }, field);
  });
});

describe("malformed requests get a clear 4xx, never a 500", () => {
  it("bad JSON is 400", async () => {
    const res = await postJson("/capture/link", "{not json", { "x-api-key": apiKey });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("a JSON array body is 400", async () => {
    const res = await postJson("/capture/link", "[]", { "x-api-key": apiKey });
    expect(res.status).toBe(400);
  });

  it("wrong content type is 415", async () => {
    const res = await SELF.fetch(`${BASE}/capture/link`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "text/plain" },
      body: JSON.stringify({ caseNumber: "ABCD-1" }),
    });
    expect(res.status).toBe(415);
    expect((await res.json<{ status: number }>()).status).toBe(415);
  });

  it("a body over 64 KB is 413", async () => {
    const res = await postJson(
      "/capture/link",
      { caseNumber: uniqueCaseNumber(), customNote: "z".repeat(70_000) },
      { "x-api-key": apiKey },
    );
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("an unknown path is a 404 problem", async () => {
    const res = await SELF.fetch(`${BASE}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});

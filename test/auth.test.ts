import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, createAccount, postJson } from "./helpers";

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount());
});

describe("API keys (spec 5, DESIGN §5)", () => {
  it("are 40 characters", () => {
    expect(apiKey).toMatch(/^[A-Za-z0-9]{40}$/);
  });

  it.each([
    ["no key", {}],
    ["unknown x-api-key", { "x-api-key": "x".repeat(40) }],
    ["unknown bearer", { authorization: `Bearer ${"y".repeat(40)}` }],
    ["malformed authorization", { authorization: "Basic abc" }],
  ])("%s → 401 with WWW-Authenticate", async (_name, headers) => {
    const res = await SELF.fetch(`${BASE}/capture/status?caseNumber=ABCD`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBeTruthy();
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = await res.json<Record<string, unknown>>();
    expect(body).toMatchObject({ status: 401, title: "Unauthorized" });
    expect(typeof body.type).toBe("string");
    expect(typeof body.detail).toBe("string");
  });

  it("a rotated key works alongside the old one", async () => {
    const account = await createAccount();
    const res = await SELF.fetch(`${BASE}/admin/accounts/${account.accountId}/keys`, {
      method: "POST",
      headers: { authorization: "Bearer test-admin-token" },
    });
    expect(res.status).toBe(201);
    const { apiKey: second } = await res.json<{ apiKey: string }>();
    expect(second).not.toBe(account.apiKey);
    for (const key of [account.apiKey, second]) {
      expect(
        (await SELF.fetch(`${BASE}/capture/status?caseNumber=NONE`, { headers: { "x-api-key": key } })).status,
      ).toBe(404);
    }
  });

  it("keys are stored only as SHA-256", async () => {
    const { env } = await import("cloudflare:test");
    const rows = await env.DB.prepare("SELECT key_hash FROM api_keys").all<{ key_hash: string }>();
    expect(rows.results.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
    expect(JSON.stringify(rows.results)).not.toContain(apiKey);
  });
});

describe("every response carries X-Request-Id (DESIGN §2)", () => {
  it("on success and on error, echoed in the problem's instance", async () => {
    const ok = await postJson("/capture/link", { caseNumber: `RID-${Date.now()}` }, { "x-api-key": apiKey });
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await SELF.fetch(`${BASE}/capture/status`);
    const id = bad.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await bad.json<{ instance: string }>()).instance).toBe(id);
  });
});

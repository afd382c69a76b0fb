import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, BASE, createAccount, postJson } from "./helpers";

describe("admin API (DESIGN §6)", () => {
  it("refuses a wrong or missing admin token with 401", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Record<string, string>[]) {
      const res = await SELF.fetch(`${BASE}/admin/accounts`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(401);
    }
  });

  it("does not accept an API key as admin token", async () => {
    const { apiKey } = await createAccount();
    const res = await SELF.fetch(`${BASE}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });

  it("creates an account with features, push and reminders; the key is shown once", async () => {
    const res = await SELF.fetch(`${BASE}/admin/accounts`, {
      method: "POST",
      headers: ADMIN,
      body: JSON.stringify({
        name: "Insurer AG",
        communicationMode: "provider_versand",
        features: { presignedDownload: true, resultCache: true },
        push: { url: "https://insurer.example/hooks/capture", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" },
        reminders: { firstAfterHours: 24, followupAfterHours: 48, maxReminders: 2 },
      }),
    });
    expect(res.status).toBe(201);
    const body = await res.json<{ accountId: string; apiKey: string }>();
    expect(Object.keys(body).sort()).toEqual(["accountId", "apiKey"]);
    expect(body.apiKey).toHaveLength(40);
  });

  it("validates the account body", async () => {
    const res = await SELF.fetch(`${BASE}/admin/accounts`, {
      method: "POST",
      headers: ADMIN,
      body: JSON.stringify({ name: "X", communicationMode: "fax", features: { teleport: true } }),
    });
    expect(res.status).toBe(400);
    const fields = (await res.json<{ errors: { field: string }[] }>()).errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["communicationMode", "features.teleport"]));
  });

  it("PATCH changes the mode; the create call then follows it (spec 4.1 rule 3)", async () => {
    const { accountId, apiKey } = await createAccount();
    const patch = await SELF.fetch(`${BASE}/admin/accounts/${accountId}`, {
      method: "PATCH",
      headers: ADMIN,
      body: JSON.stringify({ communicationMode: "provider_versand", features: { resultCache: true } }),
    });
    expect(patch.status).toBe(200);
    const updated = await patch.json<Record<string, unknown>>();
    expect(updated).toMatchObject({
      accountId,
      communicationMode: "provider_versand",
      features: { resultCache: true },
    });
    expect(JSON.stringify(updated)).not.toContain("secret");
    const created = await postJson(
      "/capture/link",
      { caseNumber: `PATCH-${Date.now()}`, vnName: "A", vnPhone: "+48501234567" },
      { "x-api-key": apiKey },
    );
    expect((await created.json<{ notificationStatus: unknown }>()).notificationStatus).toEqual({
      emailSent: false,
      smsSent: false,
    }); // no SMS credentials in tests: SMS not offered
  });

  it("PATCH of an unknown account is 404", async () => {
    const res = await SELF.fetch(`${BASE}/admin/accounts/${crypto.randomUUID()}`, {
      method: "PATCH",
      headers: ADMIN,
      body: JSON.stringify({ name: "Y" }),
    });
    expect(res.status).toBe(404);
  });

  it("creates handlers with hashed passwords; e-mails are unique", async () => {
    const { accountId } = await createAccount();
    const email = `handler-${Date.now()}@insurer.example`;
    const body = JSON.stringify({ email, password: "correct horse battery", name: "Hanna Handler" });
    const res = await SELF.fetch(`${BASE}/admin/accounts/${accountId}/handlers`, {
      method: "POST",
      headers: ADMIN,
      body,
    });
    expect(res.status).toBe(201);
    const again = await SELF.fetch(`${BASE}/admin/accounts/${accountId}/handlers`, {
      method: "POST",
      headers: ADMIN,
      body,
    });
    expect(again.status).toBe(409);
    const { env } = await import("cloudflare:test");
    const row = await env.DB.prepare("SELECT password_hash FROM handlers WHERE email = ?")
      .bind(email)
      .first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^pbkdf2\$100000\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
  });
});

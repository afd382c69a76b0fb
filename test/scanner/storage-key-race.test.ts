import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { BASE, createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Real detectors run on the uploaded photo, on a shared machine.
vi.setConfig({ testTimeout: 180_000 });

describe("a storage_key is consumed once, also under concurrency (issue 19, DESIGN §11)", () => {
  it("five parallel scans of one storage_key with different issueDates: exactly one is delivered and charged", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Storage key race" });
    const caseNumber = scanCase("RACE");
    const urlRes = await SELF.fetch(`${BASE}/v2/getUploadUrl`, {
      method: "POST",
      headers: { "x-api-key": apiKey, caseNumber },
    });
    const { upload_url, storage_key } = await urlRes.json<{ upload_url: string; storage_key: string }>();
    expect(
      (
        await SELF.fetch(upload_url, {
          method: "PUT",
          headers: { "content-type": "application/zip" },
          body: zip({ "a.jpg": samples.canon }),
        })
      ).status,
    ).toBe(200);

    const dates = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05"];
    const answers = await Promise.all(
      dates.map((issueDate) =>
        postScanner({
          apiKey,
          caseNumber,
          storageKey: storage_key,
          headers: { issueDate, accept: "application/json" },
        }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect([409, 410]).toContain(res.status);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    const ledger = await env.DB.prepare("SELECT COUNT(*) AS n FROM usage_ledger WHERE account_id = ?")
      .bind(accountId)
      .first<{ n: number }>();
    expect(ledger!.n).toBe(1);
    // Afterwards the key is spent for everyone.
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber,
          storageKey: storage_key,
          headers: { issueDate: dates[0], accept: "application/json" },
        })
      ).status,
    ).toBe(410);
  });
});

describe("file names never reach storage keys (issue 19)", () => {
  it("an entry name of 1000 characters is analysed and kept in the result as it is", async () => {
    const { apiKey } = await createAccount({ name: "Long names" });
    const name = `${"n".repeat(996)}.jpg`;
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase("LONG"),
      zip: zip({ [name]: samples.nikon }),
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ Files: Record<string, { suspicion_level: string; attachments: string[] }> }>();
    expect(Object.keys(body.Files)).toEqual([name]);
    expect(body.Files[name].attachments.length).toBeGreaterThan(0);
  });
});

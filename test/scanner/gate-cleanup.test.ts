import { env, runDurableObjectAlarm, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { gateFor } from "../../src/scanner/execution/analysis-gate";
import { BASE, createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

describe("the gate's clean-up alarm removes state and stored result after RETENTION_S", () => {
  it("deletes results/{analysisId}/… and forgets the digest", async () => {
    const { accountId, apiKey } = await createAccount({ name: "Gate cleanup", features: { resultCache: true } });
    const caseNumber = scanCase("GC");
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber,
          zip: zip({ "a.jpg": samples.canon }),
          headers: { accept: "application/json" },
        })
      ).status,
    ).toBe(200);
    const row = await env.DB.prepare(
      "SELECT id, digest, result_key FROM analyses WHERE account_id = ? AND case_number = ?",
    )
      .bind(accountId, caseNumber)
      .first<{ id: string; digest: string; result_key: string }>();
    expect(await env.BUCKET.head(row!.result_key)).not.toBeNull();

    // The next alarm is the clean-up one (set for now + RETENTION_S); run it now.
    expect(await runDurableObjectAlarm(gateFor(env, row!.digest))).toBe(true);
    expect(await env.BUCKET.head(row!.result_key)).toBeNull();
    expect((await env.BUCKET.list({ prefix: `results/${row!.id}/` })).objects).toHaveLength(0);

    // With nothing stored, the identical request is analysed again.
    expect(
      (
        await postScanner({
          apiKey,
          caseNumber,
          zip: zip({ "b.jpg": samples.canon }),
          headers: { accept: "application/json" },
        })
      ).status,
    ).toBe(200);
    const runs = await env.DB.prepare("SELECT COUNT(*) AS n FROM analyses WHERE account_id = ? AND case_number = ?")
      .bind(accountId, caseNumber)
      .first<{ n: number }>();
    expect(runs!.n).toBe(2);
  });
});

describe("the v2 routes are in the OpenAPI document", () => {
  it("lists getUploadUrl, scanner, uploads and downloads with the apiKeyAuth scheme", async () => {
    const doc = await (await SELF.fetch(`${BASE}/openapi.json`)).json<{
      paths: Record<string, Record<string, { security?: unknown[]; parameters?: { name: string }[] }>>;
    }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/v2/getUploadUrl",
        "/v2/scanner",
        "/v2/uploads/{storage_key}",
        "/v2/downloads/{id}/attachments.zip",
      ]),
    );
    expect(doc.paths["/v2/scanner"].post.security).toEqual([{ apiKeyAuth: [] }]);
    expect(doc.paths["/v2/scanner"].post.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(["caseNumber", "issueDate", "language", "contactEmail", "storage_key"]),
    );
  });
});

import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { clock } from "../../src/lib/clock";
import { BASE, createAccount } from "../helpers";
import { runCron } from "../support/cron";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

afterEach(() => clock.reset());

describe("cron: unconsumed uploads are deleted after 24 h (spec 4.3)", () => {
  it("keeps a fresh upload, deletes it and its key once RETENTION_S has passed", async () => {
    const { apiKey } = await createAccount({ name: "Sweeps" });
    const caseNumber = scanCase("SW");
    const { upload_url, storage_key } = await (
      await SELF.fetch(`${BASE}/v2/getUploadUrl`, { method: "POST", headers: { "x-api-key": apiKey, caseNumber } })
    ).json<{ upload_url: string; storage_key: string }>();
    await SELF.fetch(upload_url, {
      method: "PUT",
      headers: { "content-type": "application/zip" },
      body: zip({ "a.jpg": samples.canon }),
    });
    await runCron();
    expect(await env.BUCKET.head(`uploads/${storage_key}`)).not.toBeNull();

    clock.advance(86_400_000 + 1000);
    await runCron();
    expect(await env.BUCKET.head(`uploads/${storage_key}`)).toBeNull();
    expect((await postScanner({ apiKey, caseNumber, storageKey: storage_key })).status).toBe(404);
  });
});

describe("cron: download bundles are deleted after 24 h (spec 4.4)", () => {
  it("removes attachments.zip and its record", async () => {
    const { apiKey } = await createAccount({ name: "Sweeps DL", features: { presignedDownload: true } });
    const res = await postScanner({ apiKey, caseNumber: scanCase("SW"), zip: zip({ "a.jpg": samples.canon }) });
    const { attachmentDownloadUrl } = await res.json<{ attachmentDownloadUrl: string }>();
    const id = new URL(attachmentDownloadUrl).pathname.split("/")[3];
    const key = `downloads/${id}/attachments.zip`;
    expect(await env.BUCKET.head(key)).not.toBeNull();

    clock.advance(12 * 3600_000 + 1000);
    expect((await SELF.fetch(attachmentDownloadUrl)).status).toBe(410);

    clock.advance(12 * 3600_000);
    await runCron();
    expect(await env.BUCKET.head(key)).toBeNull();
    expect(await env.DB.prepare("SELECT id FROM downloads WHERE id = ?").bind(id).first()).toBeNull();
  });
});

import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clock } from "../../src/lib/clock";
import { BASE, createAccount } from "../helpers";
import { samples, zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

// Requests run every registered detector (model cold starts included) on a shared machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let apiKey: string;
let otherKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Presigned" }));
  ({ apiKey: otherKey } = await createAccount({ name: "Someone else" }));
});
afterEach(() => clock.reset());

async function getUploadUrl(caseNumber: string, key = apiKey) {
  const res = await SELF.fetch(`${BASE}/v2/getUploadUrl`, {
    method: "POST",
    headers: { "x-api-key": key, caseNumber },
  });
  return { res, body: res.status === 200 ? await res.json<{ upload_url: string; storage_key: string }>() : null };
}

function put(url: string, bytes: Uint8Array, contentType = "application/zip") {
  return SELF.fetch(url, { method: "PUT", headers: { "content-type": contentType }, body: bytes });
}

/** A ZIP just over the 10 MB direct limit: real photos stored plus incompressible padding. */
function largeZip(): Uint8Array {
  const padding = crypto.getRandomValues(new Uint8Array(65536));
  const filler = new Uint8Array(10_600_000);
  for (let at = 0; at < filler.length; at += padding.length)
    filler.set(padding.subarray(0, Math.min(padding.length, filler.length - at)), at);
  return zip({ "a.jpg": samples.canon, "b.jpg": samples.nikon, "padding.bin": filler }, 0);
}

describe("POST /v2/getUploadUrl (spec 2.5, 4.3)", () => {
  it("returns a signed PUT URL under PUBLIC_BASE_URL and a storage_key", async () => {
    const { res, body } = await getUploadUrl(scanCase("UP"));
    expect(res.status).toBe(200);
    expect(body!.storage_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(body!.upload_url).toMatch(
      new RegExp(`^https://capture\\.test/v2/uploads/${body!.storage_key}\\?expires=\\d+&sig=[0-9a-f]{64}$`),
    );
    const expires = Number(new URL(body!.upload_url).searchParams.get("expires"));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(590_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(600_000);
  });
  it("needs a key and a caseNumber of 4 to 50 characters", async () => {
    expect(
      (await SELF.fetch(`${BASE}/v2/getUploadUrl`, { method: "POST", headers: { caseNumber: "ABCD" } })).status,
    ).toBe(401);
    expect((await getUploadUrl("abc")).res.status).toBe(400);
    expect((await getUploadUrl("x".repeat(51))).res.status).toBe(400);
  });
});

describe("the whole presigned flow: URL, PUT, scanner with storage_key", () => {
  it("analyses an 11 MB ZIP, then deletes it; the key cannot be reused", async () => {
    const caseNumber = scanCase("UP");
    const { body } = await getUploadUrl(caseNumber);
    const archive = largeZip();
    expect(archive.length).toBeGreaterThan(10 * 1024 * 1024);
    const stored = await put(body!.upload_url, archive);
    expect(stored.status).toBe(200);
    expect((await env.BUCKET.head(`uploads/${body!.storage_key}`))!.size).toBe(archive.length);

    const res = await postScanner({
      apiKey,
      caseNumber,
      storageKey: body!.storage_key,
      headers: { accept: "application/json" },
    });
    expect(res.status).toBe(200);
    const result = await res.json<{ Files: Record<string, { suspicion_level: string }> }>();
    expect(Object.keys(result.Files)).toEqual(["a.jpg", "b.jpg", "padding.bin"]);
    expect(await env.BUCKET.head(`uploads/${body!.storage_key}`)).toBeNull();

    const again = await postScanner({ apiKey, caseNumber, storageKey: body!.storage_key });
    expect(again.status).toBe(410);
  });

  it("a second PUT to the same link is 409", async () => {
    const { body } = await getUploadUrl(scanCase("UP"));
    expect((await put(body!.upload_url, zip({ "a.jpg": samples.canon }))).status).toBe(200);
    expect((await put(body!.upload_url, zip({ "a.jpg": samples.canon }))).status).toBe(409);
  });
});

describe("upload link and storage_key rules", () => {
  it("an expired upload URL is 410", async () => {
    const { body } = await getUploadUrl(scanCase("UP"));
    clock.advance(601_000);
    const res = await put(body!.upload_url, zip({ "a.jpg": samples.canon }));
    expect(res.status).toBe(410);
  });
  it("a tampered signature is 403", async () => {
    const { body } = await getUploadUrl(scanCase("UP"));
    const url = body!.upload_url;
    const tampered = url.slice(0, -1) + (url.endsWith("0") ? "1" : "0");
    const res = await put(tampered, zip({ "a.jpg": samples.canon }));
    expect(res.status).toBe(403);
  });
  it("the PUT needs Content-Type application/zip", async () => {
    const { body } = await getUploadUrl(scanCase("UP"));
    expect((await put(body!.upload_url, zip({ "a.jpg": samples.canon }), "application/octet-stream")).status).toBe(415);
  });
  it("more than PRESIGNED_MAX_BYTES is 413", async () => {
    const { body } = await getUploadUrl(scanCase("UP"));
    expect((await put(body!.upload_url, new Uint8Array(50 * 1024 * 1024 + 1))).status).toBe(413);
  });
  it("a storage_key of another account is 404", async () => {
    const caseNumber = scanCase("UP");
    const { body } = await getUploadUrl(caseNumber, otherKey);
    await put(body!.upload_url, zip({ "a.jpg": samples.canon }));
    expect((await postScanner({ apiKey, caseNumber, storageKey: body!.storage_key })).status).toBe(404);
  });
  it("an unknown storage_key is 404, a malformed one 400", async () => {
    expect((await postScanner({ apiKey, caseNumber: scanCase("UP"), storageKey: "A".repeat(22) })).status).toBe(404);
    expect((await postScanner({ apiKey, caseNumber: scanCase("UP"), storageKey: "../x" })).status).toBe(400);
  });
  it("a storage_key with nothing uploaded yet is 400", async () => {
    const caseNumber = scanCase("UP");
    const { body } = await getUploadUrl(caseNumber);
    const res = await postScanner({ apiKey, caseNumber, storageKey: body!.storage_key });
    expect(res.status).toBe(400);
  });
  it("a storage_key is bound to its caseNumber", async () => {
    const { body } = await getUploadUrl(scanCase("UP"));
    await put(body!.upload_url, zip({ "a.jpg": samples.canon }));
    const res = await postScanner({ apiKey, caseNumber: scanCase("OTHER"), storageKey: body!.storage_key });
    expect(res.status).toBe(400);
    expect((await res.json<{ errors: { field: string }[] }>()).errors[0].field).toBe("caseNumber");
  });
});

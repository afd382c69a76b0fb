import { env } from "cloudflare:test";
import { describe, expect, it, afterEach } from "vitest";
import dune from "../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import leuven from "../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import { clock } from "../../src/lib/clock";
import { BASE } from "../helpers";
import { asCanvasJpeg, bytesOf, newCase, nonce, pageFetch, sendShot } from "./support";

const photo = () => asCanvasJpeg(bytesOf(dune));
const problem = async (res: Response) => ({
  status: res.status,
  type: ((await res.json()) as { type: string }).type.split(":").pop(),
});

/** Rows and objects stored for a case: a refusal must leave them exactly as they were. */
async function stored(caseId: string) {
  const rows = await env.DB.prepare("select id, sha256, r2_key from capture_photos where case_id = ? order by id")
    .bind(caseId)
    .all<{ id: string; sha256: string; r2_key: string }>();
  const objects = await Promise.all(rows.results.map(async (r) => (await env.BUCKET.head(r.r2_key))?.size ?? null));
  return { rows: rows.results, objects };
}

afterEach(() => clock.reset());

describe("upload: a shot is stored with its attestation in R2 and D1", () => {
  it("keeps bytes, hash, nonce, times, labels and position", async () => {
    const c = await newCase();
    const p = photo();
    const res = await sendShot(c.token, p.jpeg, p);
    expect(res.status).toBe(201);
    const { photoId } = await res.json<{ photoId: string }>();
    const row = await env.DB.prepare("select * from capture_photos where id = ?")
      .bind(photoId)
      .first<Record<string, string>>();
    const attestation = JSON.parse(row!.attestation);
    expect(attestation).toMatchObject({
      cameraLabel: "camera2 0, facing back",
      track: { width: 1280, height: p.height },
      position: { latitude: 52.52, accuracy: 12 },
      network: null,
    });
    expect(attestation.nonce).toBe(row!.nonce);
    expect(attestation.capturedAt).toBeGreaterThanOrEqual(attestation.nonceIssuedAt);
    const object = await env.BUCKET.get(row!.r2_key);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(p.jpeg);
    expect(object!.customMetadata).toMatchObject({ nonce: row!.nonce, sha256: row!.sha256 });
    expect(Object.keys(JSON.parse(row!.checks))).toEqual(
      expect.arrayContaining(["scene", "camera", "recapture", "location"]),
    );
  });
});

describe("upload: resumable", () => {
  it("lists the chunks already received so only the rest is sent again", async () => {
    const c = await newCase();
    const p = photo();
    const n = await nonce(c.token);
    await pageFetch(c.token, `/uploads/${n}/0`, { method: "PUT", body: p.jpeg.slice(0, 256 * 1024) });
    expect(await (await pageFetch(c.token, `/uploads/${n}`)).json()).toEqual({ received: [0] });
  });

  it("a complete that lost its answer can be repeated and returns the same receipt", async () => {
    const c = await newCase();
    const p = photo();
    const n = await nonce(c.token);
    const first = await (await sendShot(c.token, p.jpeg, p, { nonce: n })).json<{ photoId: string }>();
    const again = await sendShot(c.token, p.jpeg, p, { nonce: n, onlyComplete: true });
    expect(again.status).toBe(201);
    expect((await again.json<{ photoId: string }>()).photoId).toBe(first.photoId);
  });
});

describe("upload refusals: clear message, nothing stored is lost", () => {
  it("not an image (magic bytes, whatever the name) → 415", async () => {
    const c = await newCase();
    const p = photo();
    await sendShot(c.token, p.jpeg, p);
    const before = await stored(c.ticketId);
    const res = await sendShot(c.token, new TextEncoder().encode("%PDF-1.7 not a photo"), p, { scenePosition: 2 });
    expect(await problem(res)).toEqual({ status: 415, type: "not-an-image" });
    expect(await stored(c.ticketId)).toEqual(before);
  });

  it("too large: a chunk over the chunk size, or more chunks than 8 MiB → 413", async () => {
    const c = await newCase();
    const n = await nonce(c.token);
    expect(
      await problem(
        await pageFetch(c.token, `/uploads/${n}/0`, { method: "PUT", body: new Uint8Array(256 * 1024 + 1) }),
      ),
    ).toEqual({ status: 413, type: "chunk-too-large" });
    expect(
      await problem(await pageFetch(c.token, `/uploads/${n}/32`, { method: "PUT", body: new Uint8Array(10) })),
    ).toEqual({ status: 413, type: "too-large" });
  });

  it("too large without a Content-Length (streamed body) → 413 without reading it all", async () => {
    const c = await newCase();
    const n = await nonce(c.token);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * 1024 * 1024) return controller.close();
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await pageFetch(c.token, `/uploads/${n}/0`, { method: "PUT", body, duplex: "half" } as RequestInit);
    expect(await problem(res)).toEqual({ status: 413, type: "chunk-too-large" });
    expect(await (await pageFetch(c.token, `/uploads/${n}`)).json()).toEqual({ received: [] });
  });

  it("a replayed nonce (already used for another image) → 409, the first photo stays", async () => {
    const c = await newCase();
    const p = photo();
    const n = await nonce(c.token);
    await sendShot(c.token, p.jpeg, p, { nonce: n });
    const before = await stored(c.ticketId);
    const other = asCanvasJpeg(bytesOf(leuven));
    const res = await sendShot(c.token, other.jpeg, other, { nonce: n, scenePosition: 2 });
    expect(await problem(res)).toEqual({ status: 409, type: "nonce-replayed" });
    expect(await stored(c.ticketId)).toEqual(before);
    expect(before.rows).toHaveLength(1);
  });

  it("an old nonce (over 15 minutes) → 410", async () => {
    const c = await newCase();
    const p = photo();
    const n = await nonce(c.token);
    clock.advance(16 * 60 * 1000);
    expect(await problem(await sendShot(c.token, p.jpeg, p, { nonce: n }))).toEqual({
      status: 410,
      type: "nonce-expired",
    });
  });

  it("a nonce the server never issued → 400", async () => {
    const c = await newCase();
    const p = photo();
    expect(await problem(await sendShot(c.token, p.jpeg, p, { nonce: "AAAAAAAAAAAAAAAAAAAAAA" }))).toEqual({
      status: 400,
      type: "unknown-nonce",
    });
  });

  it("a superseded link (case re-triggered) → 410; the photos sent before remain", async () => {
    const c = await newCase();
    const p = photo();
    await sendShot(c.token, p.jpeg, p);
    const before = await stored(c.ticketId);
    const n = await nonce(c.token);
    const re = await fetchRetrigger(c.apiKey, c.ticketId);
    expect(re.status).toBe(200);
    const other = asCanvasJpeg(bytesOf(leuven));
    expect(await problem(await sendShot(c.token, other.jpeg, other, { nonce: n, scenePosition: 2 }))).toEqual({
      status: 410,
      type: "link-superseded",
    });
    expect(await problem(await pageFetch(c.token, "/nonce", { method: "POST" }))).toEqual({
      status: 410,
      type: "link-superseded",
    });
    expect(await stored(c.ticketId)).toEqual(before);
    expect(before.objects.every((size) => size !== null)).toBe(true);
  });

  it("a POST from another site's page → 403", async () => {
    const c = await newCase();
    const res = await pageFetch(c.token, "/nonce", { method: "POST", headers: { origin: "https://evil.example" } });
    expect(await problem(res)).toEqual({ status: 403, type: "foreign-origin" });
  });

  it("too many shots in a short time → 429 with Retry-After", async () => {
    const c = await newCase();
    for (let i = 0; i < 30; i++) await nonce(c.token);
    const res = await pageFetch(c.token, "/nonce", { method: "POST" });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("600");
  });

  it("invalid attestation → 400 with the field", async () => {
    const c = await newCase();
    const n = await nonce(c.token);
    const res = await pageFetch(c.token, `/uploads/${n}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sha256: "x" }),
    });
    expect(res.status).toBe(400);
    const body = await res.json<{ errors: { field: string }[] }>();
    expect(body.errors.map((e) => e.field)).toContain("sha256");
  });
});

function fetchRetrigger(apiKey: string, ticketId: string) {
  return import("cloudflare:test").then(({ SELF }) =>
    SELF.fetch(`${BASE}/capture/retrigger`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ ticketId }),
    }),
  );
}

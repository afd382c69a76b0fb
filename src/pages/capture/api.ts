import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/app";
import { zodFieldErrors } from "../../lib/app";
import { ApiError, invalid } from "../../lib/problem";
import { enforceRateLimit } from "../../lib/rate-limit";
import type { NetworkLocation } from "../../capture/checks/location";
import { requireOpenLink } from "../../capture/page-session";
import { completeShot, issueNonce, receivedChunks, storeChunk } from "../../capture/photos";
import { completeSceneOf, finishAttempt, overrideScene, policyholderChoice } from "../../capture/outcome";
import { pageState } from "../../capture/page-state";
import { PHOTO_LIMITS } from "../../capture/photo-limits";
import { drainUnread, readAtMost } from "../../lib/drain";

/** The capture page's JSON endpoints under `/c/{token}/…`; the token is the only credential. */
export const capturePageApi = new Hono<AppEnv>();

const NONCE = /^[A-Za-z0-9_-]{22}$/;

// Token-bound JSON needs no CSRF token, but a browser POST from another site is refused.
capturePageApi.use("*", async (c, next) => {
  await enforceRateLimit(c.env.CAPTURE_TOKEN_RATE_LIMITER, "capture link", c.req.param("token") ?? "", c.req.raw);
  if (c.req.method !== "GET") {
    const origin = c.req.header("origin");
    if (origin && origin !== new URL(c.req.url).origin)
      throw new ApiError(403, "foreign-origin", "Requests from other sites are not accepted.");
  }
  await next();
  c.res.headers.set("cache-control", "no-store");
});

const link = (c: Context<AppEnv>) => requireOpenLink(c.env, c.req.param("token")!);

capturePageApi.get("/state", async (c) => c.json(await pageState(c.env, await link(c))));

capturePageApi.post("/nonce", async (c) => c.json(await issueNonce(c.env, await link(c)), 201));

capturePageApi.get("/uploads/:nonce", async (c) => {
  const ps = await link(c);
  return c.json({ received: await receivedChunks(c.env, ps, nonceParam(c)) });
});

capturePageApi.put("/uploads/:nonce/:index", async (c) => {
  const ps = await link(c);
  const body = await readBounded(c.req.raw, PHOTO_LIMITS.chunkBytes);
  await storeChunk(c.env, ps, nonceParam(c), Number(c.req.param("index")), body);
  return c.body(null, 204);
});

/** The body, at most `limit` bytes: an oversized chunk is refused without buffering it (its rest is drained). */
async function readBounded(request: Request, limit: number): Promise<ArrayBuffer> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) {
    await drainUnread(request);
    throw chunkTooLarge();
  }
  if (!request.body) return new ArrayBuffer(0);
  const bytes = await readAtMost(request.body, limit);
  if (!bytes) throw chunkTooLarge();
  return bytes.buffer as ArrayBuffer;
}

const chunkTooLarge = () =>
  new ApiError(413, "chunk-too-large", `A chunk may be at most ${PHOTO_LIMITS.chunkBytes} bytes.`);

const position = z.object({
  latitude: z.number().finite(),
  longitude: z.number().finite(),
  accuracy: z.number().finite(),
  timestamp: z.number().finite(),
});

const completeBody = z.strictObject({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  chunks: z.number().int().min(1),
  scenePosition: z.number().int().min(1).nullable(),
  capturedAt: z.number().int(),
  cameraLabel: z.string().max(200),
  deviceLabel: z.string().max(300),
  trackWidth: z.number().int().min(0).max(100_000),
  trackHeight: z.number().int().min(0).max(100_000),
  position: position.nullable(),
});

capturePageApi.post("/uploads/:nonce/complete", async (c) => {
  const ps = await link(c);
  const body = await jsonBody(c, completeBody);
  const network = c.env.CAPTURE_NETWORK_LOCATION === "off" ? null : networkLocation(c.req.raw);
  const receipt = await completeShot(c.env, ps, nonceParam(c), body, network);
  await completeSceneOf(c.env, ps, receipt);
  return c.json(receipt, 201);
});

capturePageApi.post("/photos/:photoId/override", async (c) => {
  const ps = await link(c);
  return c.json(await overrideScene(c.env, ps, c.req.param("photoId")));
});

capturePageApi.post("/finish", async (c) => c.json(await finishAttempt(c.env, await link(c))));

capturePageApi.post("/inspection", async (c) => {
  await policyholderChoice(c.env, await link(c), "inspection");
  return c.json({ outcome: "manual" });
});

capturePageApi.post("/withdraw", async (c) => {
  await policyholderChoice(c.env, await link(c), "withdraw");
  return c.json({ outcome: "manual" });
});

function nonceParam(c: Context<AppEnv>): string {
  const nonce = c.req.param("nonce") ?? "";
  if (!NONCE.test(nonce))
    throw new ApiError(400, "unknown-nonce", "This shot was not requested by the capture page. Take a new photo.");
  return nonce;
}

async function jsonBody<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw invalid([{ field: "body", message: "is not valid JSON" }]);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid(zodFieldErrors(parsed.error, "json"));
  return parsed.data;
}

/** Where Cloudflare locates the connection; absent in tests, a placeholder in `wrangler dev` (then switched off). */
function networkLocation(request: Request): NetworkLocation | null {
  const cf = (request as Request & { cf?: { latitude?: string; longitude?: string; country?: string } }).cf;
  const latitude = Number(cf?.latitude);
  const longitude = Number(cf?.longitude);
  if (!cf?.latitude || !cf?.longitude || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  return { latitude, longitude, country: cf.country };
}

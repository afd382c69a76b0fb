import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/app";
import { drain, readAtMost } from "../lib/drain";
import { ApiError } from "../lib/problem";

/**
 * Refuses a body over `maxSize` bytes: from Content-Length before reading, or while streaming a
 * chunked body (which is then buffered, at most `maxSize`, for the handler). Unlike hono's
 * bodyLimit, which answers with the request stream locked and unread, the rest of a refused body
 * is read and dropped (up to DRAIN_MAX_BYTES, then cancelled): under `wrangler dev` an answer sent
 * while the caller was still sending left the dev proxy's connection broken, and the next request
 * answered 503 "Your worker restarted mid-request" (issue 19; docs/scanner-api.md "Refused request bodies").
 */
export function limitBody(maxSize: (c: Context<AppEnv>) => number, tooLarge: (c: Context<AppEnv>) => ApiError) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const max = maxSize(c);
    const declared = c.req.header("content-length");
    if (declared !== undefined && !c.req.raw.headers.has("transfer-encoding")) {
      if (Number(declared) <= max) return next();
      await drain(body.getReader());
      throw tooLarge(c);
    }
    const buffered = await readAtMost(body, max);
    if (!buffered) throw tooLarge(c);
    c.req.raw = new Request(c.req.raw, { body: buffered });
    await next();
  });
}

/** JSON bodies of the capture and admin APIs: 64 KB at most. */
export const jsonBodyLimit = limitBody(
  () => 64 * 1024,
  () => new ApiError(413, "payload-too-large", "The JSON body may be at most 64 KB."),
);

/** 415 unless the body is declared as JSON. */
export const requireJson = createMiddleware<AppEnv>(async (c, next) => {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, "unsupported-media-type", "Send the body as application/json.");
  }
  await next();
});

/**
 * Hardening headers of every response, errors included (issue 19): `nosniff`, so no browser runs
 * a JSON or ZIP answer as script or HTML; `no-store`, so results, statuses and signed downloads stay
 * out of shared caches. A route that chose its own Cache-Control (the capture page's static assets)
 * keeps it.
 */
export const hardeningHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
});

import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/app";
import { ApiError } from "../lib/problem";

/** JSON bodies of the capture and admin APIs: 64 KB at most. */
export const jsonBodyLimit = bodyLimit({
  maxSize: 64 * 1024,
  onError: () => {
    throw new ApiError(413, "payload-too-large", "The JSON body may be at most 64 KB.");
  },
});

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

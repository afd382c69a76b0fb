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

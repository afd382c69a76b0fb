import { Hono } from "hono";
import type { AppEnv } from "../../lib/app";
import { getDb } from "../../db/client";
import { findSessionByToken } from "../../capture/repository";
import { html, page } from "../html";

/** The policyholder's link `/c/{token}` (DESIGN §16). */
export const capturePages = new Hono<AppEnv>();

capturePages.get("/:token", async (c) => {
  const token = c.req.param("token");
  const session = /^[A-Za-z0-9_-]{22}$/.test(token) ? await findSessionByToken(getDb(c.env.DB), token) : undefined;
  if (!session) return page(404, "Link not found", html`<main><h1>Link not found</h1><p>Please check the link you received.</p></main>`);
  if (session.finalStatus === "superseded") {
    return page(410, "Link replaced", html`<main><h1>This link has been replaced</h1><p>A newer link was sent for this case. Please use the most recent message you received.</p></main>`);
  }
  if (session.finalStatus === "closed") {
    return page(410, "Case closed", html`<main><h1>This case is closed</h1><p>No further photos are needed.</p></main>`);
  }
  return page(200, "Photo capture", html`<main><h1>Photo capture</h1><p>Your capture session is ready.</p></main>`);
});

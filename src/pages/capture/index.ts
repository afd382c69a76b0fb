import { Hono } from "hono";
import type { AppEnv } from "../../lib/app";
import { loadLink } from "../../capture/page-session";
import { enforceRateLimit } from "../../lib/rate-limit";
import { pageState } from "../../capture/page-state";
import { capturePageApi } from "./api";
import { CAPTURE_CSS } from "./assets/capture-css";
import CAPTURE_JS from "./assets/capture.bundle.js";
import { pickLanguage, type PageLanguage } from "./i18n";
import { capturePage, messagePage } from "./view";

/** The policyholder's link `/c/{token}` (DESIGN §16), its assets and its JSON endpoints. */
export const capturePages = new Hono<AppEnv>();

const ASSET_HEADERS = { "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" };

capturePages.get(
  "/assets/capture.js",
  () => new Response(CAPTURE_JS, { headers: { ...ASSET_HEADERS, "content-type": "text/javascript; charset=utf-8" } }),
);
capturePages.get(
  "/assets/capture.css",
  () => new Response(CAPTURE_CSS, { headers: { ...ASSET_HEADERS, "content-type": "text/css; charset=utf-8" } }),
);

capturePages.route("/:token", capturePageApi);

capturePages.get("/:token", async (c) => {
  const token = c.req.param("token");
  await enforceRateLimit(c.env.CAPTURE_TOKEN_RATE_LIMITER, "capture link", token, c.req.raw);
  const lang = pickLanguage(c.req.query("lang"), c.req.header("accept-language"));
  const langHref = (l: PageLanguage) => `/c/${token}?lang=${l}`;
  const { state, found } = await loadLink(c.env, token);
  switch (state) {
    case "unknown":
      return messagePage(lang, 404, "notFoundTitle", "notFoundText", langHref);
    case "superseded":
      return messagePage(lang, 410, "supersededTitle", "supersededText", langHref);
    case "closed":
      return messagePage(lang, 410, "closedTitle", "closedText", langHref);
    case "finished":
      return messagePage(lang, 200, "finishedTitle", "finishedText", langHref);
    case "open": {
      const view = await pageState(c.env, found!);
      return capturePage(lang, token, view, langHref);
    }
  }
});

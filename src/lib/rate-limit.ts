import { sha256Hex } from "./crypto";
import { drainUnread } from "./drain";
import { ApiError } from "./problem";

/** The window of both limiters (`simple.period` in wrangler.toml): a refused caller may retry after it. */
export const RATE_LIMIT_PERIOD_S = 60;

/**
 * Counts one request against `limiter` for one credential (an API key, a capture token, or the
 * client address of a board login; only its SHA-256 is sent to the limiter) and refuses with 429 +
 * Retry-After once the window is used up.
 * The limits are the `[[ratelimits]]` bindings in wrangler.toml (README "Configuration"). Without the
 * binding, or when the limiter itself fails, the request goes through: a rate limit must never be
 * the reason an insurer's or a policyholder's normal request fails.
 */
export async function enforceRateLimit(
  limiter: RateLimit | undefined,
  what: "API key" | "capture link" | "board login address",
  credential: string,
  request: Request,
): Promise<void> {
  if (!limiter) return;
  let allowed = true;
  try {
    allowed = (await limiter.limit({ key: `${what}:${await sha256Hex(credential)}` })).success;
  } catch (err) {
    console.error("rate limiter unavailable; request allowed", err);
  }
  if (allowed) return;
  await drainUnread(request);
  throw new ApiError(
    429,
    "rate-limited",
    `Too many requests for this ${what}; retry after ${RATE_LIMIT_PERIOD_S} seconds.`,
    {
      headers: { "Retry-After": String(RATE_LIMIT_PERIOD_S) },
    },
  );
}

import type { Env } from "../env";
import { clock } from "./clock";
import { ApiError } from "./problem";
import { hmacSha256Hex, timingSafeEqual } from "./crypto";

/**
 * The one signed-link helper (DESIGN §11, §12): `{base}{path}?expires=<unix>&sig=<hex>`,
 * where sig = HMAC-SHA256(secret, "<METHOD> <path>\n<expires>"). Method-bound so an upload
 * link cannot be used as a download link.
 */
export async function signUrl(opts: {
  baseUrl: string;
  path: string;
  method: "GET" | "PUT";
  ttlSeconds: number;
  secret: string;
}): Promise<{ url: string; expiresAt: Date }> {
  const expires = Math.floor(clock.nowMs() / 1000) + opts.ttlSeconds;
  const sig = await hmacSha256Hex(opts.secret, canonical(opts.method, opts.path, expires));
  const url = `${opts.baseUrl.replace(/\/$/, "")}${opts.path}?expires=${expires}&sig=${sig}`;
  return { url, expiresAt: new Date(expires * 1000) };
}

export type SignatureCheck = "valid" | "invalid" | "expired";

/** Checks a request URL against its signature; expiry is judged only for authentic links. */
export async function verifySignedUrl(url: URL, method: "GET" | "PUT", secret: string): Promise<SignatureCheck> {
  const expires = Number(url.searchParams.get("expires"));
  const sig = url.searchParams.get("sig") ?? "";
  if (!Number.isInteger(expires) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
  const expected = await hmacSha256Hex(secret, canonical(method, url.pathname, expires));
  if (!timingSafeEqual(expected, sig)) return "invalid";
  return expires * 1000 < clock.nowMs() ? "expired" : "valid";
}

function canonical(method: string, path: string, expires: number): string {
  return `${method} ${path}\n${expires}`;
}

/** The HMAC key of every signed link (secret SIGNING_SECRET); without it signed links are unavailable (503). */
export function signingSecret(env: Env): string {
  if (!env.SIGNING_SECRET)
    throw new ApiError(503, "signing-unavailable", "Signed links are not configured (SIGNING_SECRET).");
  return env.SIGNING_SECRET;
}

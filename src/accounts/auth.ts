import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../lib/app";
import { ApiError, invalid } from "../lib/problem";
import { sha256Hex, timingSafeEqual } from "../lib/crypto";
import { enforceRateLimit } from "../lib/rate-limit";
import { getDb } from "../db/client";
import { findAccountByKeyHash } from "./repository";
import type { AccountRecord } from "./service";

/** The caller's account, as handlers see it. */
export type AccountContext = AccountRecord;

const unauthorized = (detail: string) =>
  new ApiError(401, "unauthorized", detail, {
    headers: { "WWW-Authenticate": 'Bearer realm="api", ApiKey header="x-api-key"' },
  });

/**
 * API-key authentication (spec 5, DESIGN §5). `bearer` allows `Authorization: Bearer <key>`
 * besides `x-api-key` (capture endpoints only). `exactLength` makes a key of another length a
 * 400 on field `x-api-key` (the /v2 rule of spec 4.4) instead of an unknown key (401).
 */
export function requireApiKey(opts: { bearer: boolean; exactLength?: number }) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = presentedKey(c.req.header("x-api-key"), opts.bearer ? c.req.header("authorization") : undefined);
    if (!key) throw unauthorized("An API key is required (header x-api-key).");
    if (opts.exactLength !== undefined && key.length !== opts.exactLength) {
      throw invalid([{ field: "x-api-key", message: `must be exactly ${opts.exactLength} characters` }]);
    }
    const account = await accountForKey(c.env.DB, key);
    if (!account) throw unauthorized("The API key is not valid.");
    await enforceRateLimit(c.env.API_KEY_RATE_LIMITER, "API key", key, c.req.raw);
    c.set("account", account);
    await next();
  });
}

function presentedKey(apiKeyHeader: string | undefined, authorization: string | undefined): string | null {
  if (apiKeyHeader !== undefined && apiKeyHeader.trim() !== "") return apiKeyHeader.trim();
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return bearer ? bearer[1] : null;
}

/** Looks a key up by its SHA-256; the stored hash is compared again in constant time. */
export async function accountForKey(d1: D1Database, key: string): Promise<AccountContext | null> {
  const keyHash = await sha256Hex(key);
  const row = await findAccountByKeyHash(getDb(d1), keyHash);
  if (!row || !timingSafeEqual(row.keyHash, keyHash)) return null;
  return row.account;
}

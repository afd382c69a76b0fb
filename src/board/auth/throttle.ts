import { eq, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { loginThrottle } from "../../db/schema";
import { clock } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";

/** Failed logins for one login name before it is locked. */
export const MAX_FAILURES = 5;
/** Failures are forgotten a day after the last one (unless a lock still runs). */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
/** The doubling lock never exceeds a day. */
const MAX_LOCK_MS = 24 * 60 * 60 * 1000;

/** The login name: handlers' e-mails are stored lower-cased (accounts/service.ts createHandler). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The login name as the throttle keys it: the e-mail trimmed and lower-cased, hashed (known or not). */
export function throttleKey(email: string): Promise<string> {
  return sha256Hex(normaliseEmail(email));
}

/** When the login name's lock ends (epoch ms), or null when it is not locked now. */
export async function lockedUntil(d1: D1Database, keyHash: string): Promise<number | null> {
  const row = await getDb(d1).query.loginThrottle.findFirst({ where: eq(loginThrottle.keyHash, keyHash) });
  const until = row?.lockedUntil?.getTime() ?? 0;
  return until > clock.nowMs() ? until : null;
}

/**
 * Counts a failed login (one atomic upsert, so parallel guesses all count). From the fifth failure
 * on, the name is locked for `lockS` seconds, doubled with each further failure after a lock ends.
 * Returns the lock's end (epoch ms) when this failure locked the name.
 */
export async function recordFailure(d1: D1Database, keyHash: string, lockS: number): Promise<number | null> {
  const now = clock.nowMs();
  const db = getDb(d1);
  const [row] = await db
    .insert(loginThrottle)
    .values({ keyHash, failures: 1, lockedUntil: null, updatedAt: new Date(now) })
    .onConflictDoUpdate({
      target: loginThrottle.keyHash,
      set: {
        failures: sql`CASE WHEN ${loginThrottle.updatedAt} < ${now - FORGET_AFTER_MS} AND coalesce(${loginThrottle.lockedUntil}, 0) < ${now} THEN 1 ELSE ${loginThrottle.failures} + 1 END`,
        updatedAt: new Date(now),
      },
    })
    .returning({ failures: loginThrottle.failures });
  if (row.failures < MAX_FAILURES) return null;
  const lockMs = Math.min(lockS * 1000 * 2 ** Math.min(row.failures - MAX_FAILURES, 20), MAX_LOCK_MS);
  const until = now + lockMs;
  await db
    .update(loginThrottle)
    .set({ lockedUntil: new Date(until) })
    .where(eq(loginThrottle.keyHash, keyHash));
  return until;
}

/** A successful login wipes the name's failures. */
export async function clearFailures(d1: D1Database, keyHash: string): Promise<void> {
  await getDb(d1).delete(loginThrottle).where(eq(loginThrottle.keyHash, keyHash));
}

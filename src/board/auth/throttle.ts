import { getDb } from "../../db/client";
import { clock } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import {
  countLoginAttempt,
  deleteForgottenThrottles,
  deleteLoginThrottle,
  findLoginThrottle,
  setLoginLock,
} from "./repository";

/** Login attempts for one login name before it is locked. */
export const MAX_FAILURES = 5;
/** Failures are forgotten a day after the last attempt (unless a lock still runs). */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
/** The doubling lock never exceeds a day. */
const MAX_LOCK_MS = 24 * 60 * 60 * 1000;

/** The login name: handlers' e-mails are stored lower-cased (accounts/service.ts createHandler). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The login name as the throttle keys it: SHA-256 of the normalised e-mail (known or not). */
export function throttleKey(email: string): Promise<string> {
  return sha256Hex(normaliseEmail(email));
}

/**
 * May this login attempt check a password? `lockedUntil` (epoch ms) is the lock that a wrong
 * password leaves in place: set when this attempt is the fifth (or, after a lock ran out, the next).
 */
export type AttemptClaim = { allowed: true; lockedUntil: number | null } | { allowed: false; lockedUntil: number };

/**
 * Counts an attempt before its password is checked, so parallel guesses cannot slip past the
 * limit: every attempt counts as a failure until `clearFailures` (a success) wipes the count. The
 * attempt that reaches MAX_FAILURES sets the lock (`lockS`, doubled for each attempt beyond) by
 * compare-and-set: of parallel attempts only that one checks its password, the others are refused.
 */
export async function claimAttempt(d1: D1Database, keyHash: string, lockS: number): Promise<AttemptClaim> {
  const now = clock.nowMs();
  const db = getDb(d1);
  const row = await countLoginAttempt(db, keyHash, now, FORGET_AFTER_MS);
  const current = row.lockedUntil?.getTime() ?? 0;
  if (current > now) return { allowed: false, lockedUntil: current };
  if (row.failures < MAX_FAILURES) return { allowed: true, lockedUntil: null };
  const until = now + Math.min(lockS * 1000 * 2 ** Math.min(row.failures - MAX_FAILURES, 20), MAX_LOCK_MS);
  if (await setLoginLock(db, keyHash, new Date(until), new Date(now))) return { allowed: true, lockedUntil: until };
  const lock = await findLoginThrottle(db, keyHash);
  return { allowed: false, lockedUntil: Math.max(lock?.lockedUntil?.getTime() ?? until, now + 1000) };
}

/** A successful login wipes the name's failures and lock. */
export async function clearFailures(d1: D1Database, keyHash: string): Promise<void> {
  await deleteLoginThrottle(getDb(d1), keyHash);
}

/**
 * Deletes login names whose failures are forgotten and whose lock has ended (cron), at most `batch`
 * per call: guesses at random e-mails would otherwise leave a row each for good.
 */
export async function deleteStaleThrottles(d1: D1Database, batch = 1000): Promise<number> {
  const now = clock.nowMs();
  return deleteForgottenThrottles(getDb(d1), new Date(now - FORGET_AFTER_MS), new Date(now), batch);
}

import { findHandlerByEmail } from "../../accounts/repository";
import { getDb } from "../../db/client";
import { clock } from "../../lib/clock";
import { verifyPassword } from "../../lib/crypto";
import { createSession, type SessionLifetime } from "./sessions";
import { claimAttempt, clearFailures, normaliseEmail, throttleKey } from "./throttle";

export interface LoginSettings {
  lifetime: SessionLifetime;
  /** The first lock after MAX_FAILURES failures, in seconds (BOARD_LOGIN_LOCK_S). */
  lockS: number;
}

/** What a login attempt gives; `wrong` and `locked` are the same for known and unknown e-mails. */
export type LoginOutcome =
  | { kind: "ok"; handlerId: string; token: string; csrfToken: string }
  | { kind: "wrong" }
  | { kind: "locked"; retryAfterS: number };

/**
 * A well-formed hash no password matches: an unknown e-mail costs the same PBKDF2 work as a known
 * one, so the answer time does not tell which addresses have a handler.
 */
const NO_HANDLER_HASH =
  "pbkdf2$100000$6e6f2d68616e646c65722d73616c7421$0000000000000000000000000000000000000000000000000000000000000000";

/** Password login (DESIGN §17): throttled per login name, a fresh session on success. */
export async function passwordLogin(
  d1: D1Database,
  email: string,
  password: string,
  settings: LoginSettings,
): Promise<LoginOutcome> {
  const key = await throttleKey(email);
  const attempt = await claimAttempt(d1, key, settings.lockS);
  if (!attempt.allowed) return lockedOutcome(attempt.lockedUntil);
  const handler = await handlerByEmail(d1, email);
  const matches = await verifyPassword(password, handler?.passwordHash ?? NO_HANDLER_HASH);
  if (!handler || !matches) {
    // The attempt that set the lock learns of it now; the earlier ones only hear "wrong".
    return attempt.lockedUntil === null ? { kind: "wrong" } : lockedOutcome(attempt.lockedUntil);
  }
  await clearFailures(d1, key);
  return { kind: "ok", handlerId: handler.id, ...(await createSession(d1, handler.id, settings.lifetime)) };
}

export function handlerByEmail(d1: D1Database, email: string) {
  return findHandlerByEmail(getDb(d1), normaliseEmail(email));
}

function lockedOutcome(until: number): LoginOutcome {
  return { kind: "locked", retryAfterS: Math.max(1, Math.ceil((until - clock.nowMs()) / 1000)) };
}

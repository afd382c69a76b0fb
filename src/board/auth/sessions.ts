import { getDb } from "../../db/client";
import { clock } from "../../lib/clock";
import { sha256Hex } from "../../lib/crypto";
import { newToken } from "../../lib/ids";
import {
  deleteEndedSessions,
  deleteHandlersDeadSessions,
  deleteSession,
  findSessionWithHandler,
  insertHandlerSession,
  touchSession,
} from "./repository";

/** How long a board session lives (settings BOARD_SESSION_IDLE_S, BOARD_SESSION_MAX_S). */
export interface SessionLifetime {
  idleS: number;
  maxS: number;
}

/** The handler behind a live session, and the session's CSRF token for its forms. */
export interface SessionHandler {
  id: string;
  accountId: string;
  name: string;
  email: string;
  csrfToken: string;
}

/**
 * last_seen_at is written at most once a minute per session, not on every request (a quarter of the
 * idle time when that is shorter, so a session in use never looks idle).
 */
const touchEveryMs = (idleS: number) => Math.min(60_000, (idleS * 1000) / 4);

/** A new session for the handler: the token goes into the cookie, only its SHA-256 into D1. */
export async function createSession(
  d1: D1Database,
  handlerId: string,
  lifetime: SessionLifetime,
): Promise<{ token: string; csrfToken: string }> {
  const token = newToken(32);
  const csrfToken = newToken(32);
  const now = clock.nowMs();
  const db = getDb(d1);
  // A login is also the moment to drop this handler's dead sessions (the table would only grow otherwise).
  await deleteHandlersDeadSessions(db, handlerId, new Date(now), new Date(now - lifetime.idleS * 1000));
  await insertHandlerSession(db, {
    tokenHash: await sha256Hex(token),
    handlerId,
    csrfToken,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    expiresAt: new Date(now + lifetime.maxS * 1000),
  });
  return { token, csrfToken };
}

/**
 * The handler of a live session, or null. A session past its absolute end or idle for longer than
 * `idleS` is deleted on sight; a live one has its last_seen_at moved on (at most once a minute)
 * unless the request is `background` (the board's own polling, which is not the handler at work).
 */
export async function sessionHandler(
  d1: D1Database,
  token: string,
  lifetime: SessionLifetime,
  background = false,
): Promise<SessionHandler | null> {
  if (!token) return null;
  const db = getDb(d1);
  const tokenHash = await sha256Hex(token);
  const row = await findSessionWithHandler(db, tokenHash);
  if (!row) return null;
  const now = clock.nowMs();
  // The end set at login, or earlier when BOARD_SESSION_MAX_S has been lowered since.
  const absoluteEnd = Math.min(row.expiresAt.getTime(), row.createdAt.getTime() + lifetime.maxS * 1000);
  const idleEnd = row.lastSeenAt.getTime() + lifetime.idleS * 1000;
  if (now >= absoluteEnd || now >= idleEnd) {
    await deleteSession(db, tokenHash);
    return null;
  }
  if (!background && now - row.lastSeenAt.getTime() >= touchEveryMs(lifetime.idleS)) {
    await touchSession(db, tokenHash, new Date(now));
  }
  return { id: row.id, accountId: row.accountId, name: row.name, email: row.email, csrfToken: row.csrfToken };
}

/** Ends the session (logout, or the old session when a login rotates the token). */
export async function revokeSession(d1: D1Database, token: string): Promise<void> {
  if (!token) return;
  await deleteSession(getDb(d1), await sha256Hex(token));
}

/** Deletes sessions past their absolute end or idle too long (cron), at most `batch` per call. */
export async function deleteDeadSessions(d1: D1Database, lifetime: SessionLifetime, batch = 500): Promise<number> {
  const now = clock.nowMs();
  return deleteEndedSessions(
    getDb(d1),
    {
      expiredBefore: new Date(now),
      createdBefore: new Date(now - lifetime.maxS * 1000),
      idleBefore: new Date(now - lifetime.idleS * 1000),
    },
    batch,
  );
}

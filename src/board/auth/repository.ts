/**
 * Every query on board logins: handler sessions and the failed-login throttle. A session is found
 * by its token hash and names its handler (and so the account); the throttle is keyed by a login
 * name's hash and holds no account data. The sweeps span all accounts on purpose (cron clean-up).
 */
import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { handlerSessions, handlers, loginThrottle } from "../../db/schema";

export async function insertHandlerSession(db: Db, row: typeof handlerSessions.$inferInsert): Promise<void> {
  await db.insert(handlerSessions).values(row);
}

/** Deletes the handler's sessions past `expiredBefore` or last seen before `idleBefore`. */
export async function deleteHandlersDeadSessions(
  db: Db,
  handlerId: string,
  expiredBefore: Date,
  idleBefore: Date,
): Promise<void> {
  await db
    .delete(handlerSessions)
    .where(
      and(
        eq(handlerSessions.handlerId, handlerId),
        or(lt(handlerSessions.expiresAt, expiredBefore), lt(handlerSessions.lastSeenAt, idleBefore)),
      ),
    );
}

/** The session of a token hash with its handler. Global on purpose: the token is the handler's credential. */
export async function findSessionWithHandler(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      id: handlers.id,
      accountId: handlers.accountId,
      name: handlers.name,
      email: handlers.email,
      csrfToken: handlerSessions.csrfToken,
      createdAt: handlerSessions.createdAt,
      lastSeenAt: handlerSessions.lastSeenAt,
      expiresAt: handlerSessions.expiresAt,
    })
    .from(handlerSessions)
    .innerJoin(handlers, eq(handlers.id, handlerSessions.handlerId))
    // A removed handler's sessions are deleted with the removal; this also refuses one written in between.
    .where(and(eq(handlerSessions.tokenHash, tokenHash), isNull(handlers.removedAt)))
    .limit(1);
  return row;
}

export async function touchSession(db: Db, tokenHash: string, lastSeenAt: Date): Promise<void> {
  await db.update(handlerSessions).set({ lastSeenAt }).where(eq(handlerSessions.tokenHash, tokenHash));
}

/** Ends every session of a handler (the handler was removed). */
export async function deleteAllHandlerSessions(db: Db, handlerId: string): Promise<void> {
  await db.delete(handlerSessions).where(eq(handlerSessions.handlerId, handlerId));
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(handlerSessions).where(eq(handlerSessions.tokenHash, tokenHash));
}

/** Cron sweep across all accounts: sessions ended by `expiredBefore`, `createdBefore` or `idleBefore`, `batch` at most. */
export async function deleteEndedSessions(
  db: Db,
  ends: { expiredBefore: Date; createdBefore: Date; idleBefore: Date },
  batch: number,
): Promise<number> {
  const dead = db
    .select({ tokenHash: handlerSessions.tokenHash })
    .from(handlerSessions)
    .where(
      or(
        lt(handlerSessions.expiresAt, ends.expiredBefore),
        lt(handlerSessions.createdAt, ends.createdBefore),
        lt(handlerSessions.lastSeenAt, ends.idleBefore),
      ),
    )
    .limit(batch);
  const deleted = await db
    .delete(handlerSessions)
    .where(inArray(handlerSessions.tokenHash, dead))
    .returning({ tokenHash: handlerSessions.tokenHash });
  return deleted.length;
}

/**
 * Counts one attempt for the login name (upsert): a running lock keeps the count, failures older
 * than `forgetAfterMs` start again at 1. Returns the count and lock after this attempt.
 */
export async function countLoginAttempt(db: Db, keyHash: string, now: number, forgetAfterMs: number) {
  const lockRuns = sql`coalesce(${loginThrottle.lockedUntil}, 0) > ${now}`;
  const [row] = await db
    .insert(loginThrottle)
    .values({ keyHash, failures: 1, lockedUntil: null, updatedAt: new Date(now) })
    .onConflictDoUpdate({
      target: loginThrottle.keyHash,
      set: {
        // Attempts during a lock are refused without counting (they would only lengthen the next lock).
        failures: sql`CASE WHEN ${lockRuns} THEN ${loginThrottle.failures} WHEN ${loginThrottle.updatedAt} < ${now - forgetAfterMs} THEN 1 ELSE ${loginThrottle.failures} + 1 END`,
        updatedAt: new Date(now),
      },
    })
    .returning({ failures: loginThrottle.failures, lockedUntil: loginThrottle.lockedUntil });
  return row;
}

/** Sets the lock unless one still runs at `now` (compare-and-set); true when this call set it. */
export async function setLoginLock(db: Db, keyHash: string, until: Date, now: Date): Promise<boolean> {
  const won = await db
    .update(loginThrottle)
    .set({ lockedUntil: until })
    .where(
      and(
        eq(loginThrottle.keyHash, keyHash),
        or(isNull(loginThrottle.lockedUntil), lte(loginThrottle.lockedUntil, now)),
      ),
    )
    .returning({ keyHash: loginThrottle.keyHash });
  return won.length > 0;
}

export function findLoginThrottle(db: Db, keyHash: string) {
  return db.query.loginThrottle.findFirst({ where: eq(loginThrottle.keyHash, keyHash) });
}

export async function deleteLoginThrottle(db: Db, keyHash: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.keyHash, keyHash));
}

/** Cron sweep across all login names: last attempt before `forgottenBefore` and no lock running at `now`, `batch` at most. */
export async function deleteForgottenThrottles(
  db: Db,
  forgottenBefore: Date,
  now: Date,
  batch: number,
): Promise<number> {
  const stale = db
    .select({ keyHash: loginThrottle.keyHash })
    .from(loginThrottle)
    .where(
      and(
        lt(loginThrottle.updatedAt, forgottenBefore),
        or(isNull(loginThrottle.lockedUntil), lte(loginThrottle.lockedUntil, now)),
      ),
    )
    .limit(batch);
  const deleted = await db
    .delete(loginThrottle)
    .where(inArray(loginThrottle.keyHash, stale))
    .returning({ keyHash: loginThrottle.keyHash });
  return deleted.length;
}

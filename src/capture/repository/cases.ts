/**
 * Every query on capture cases, their sessions, scenes and events (the capture aggregate; photos,
 * messages and result pushes are in the files next to this one). A case is found with the
 * caller's account id (DESIGN §4: another account's case is not found); the records below a case
 * are then reached by that case's id. Lookups without an account say why.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, max, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { accounts, captureCases, captureEvents, captureScenes, captureSessions, pushDeliveries } from "../../db/schema";
import { insertOutboxStatements, type OutboxInsert } from "./messages";

export type CaseRow = typeof captureCases.$inferSelect;
export type SessionRow = typeof captureSessions.$inferSelect;
export type SceneRow = typeof captureScenes.$inferSelect;
type CaseInsert = typeof captureCases.$inferInsert;
type SessionInsert = typeof captureSessions.$inferInsert;
type EventInsert = typeof captureEvents.$inferInsert;
type SceneInsert = typeof captureScenes.$inferInsert;
type Statements = BatchItem<"sqlite">[];

export function findOpenCase(db: Db, accountId: string, caseNumber: string) {
  return db.query.captureCases.findFirst({
    where: and(
      eq(captureCases.accountId, accountId),
      eq(captureCases.caseNumber, caseNumber),
      eq(captureCases.closed, false),
    ),
  });
}

/** A case by ticket id, only if it belongs to the account (DESIGN §4). */
export function findCaseById(db: Db, accountId: string, ticketId: string) {
  return db.query.captureCases.findFirst({
    where: and(eq(captureCases.id, ticketId), eq(captureCases.accountId, accountId)),
  });
}

/** The most recent case for a case number (spec 4.2). */
export function findLatestCase(db: Db, accountId: string, caseNumber: string) {
  return db.query.captureCases.findFirst({
    where: and(eq(captureCases.accountId, accountId), eq(captureCases.caseNumber, caseNumber)),
    orderBy: [desc(captureCases.createdAt), desc(captureCases.id)],
  });
}

export function findCurrentSession(db: Db, caseId: string) {
  return db.query.captureSessions.findFirst({
    where: eq(captureSessions.caseId, caseId),
    orderBy: desc(captureSessions.sessionNumber),
  });
}

/** Global on purpose: the capture-link token is the policyholder's only credential, and names its case. */
export function findSessionByToken(db: Db, token: string) {
  return db.query.captureSessions.findFirst({ where: eq(captureSessions.token, token) });
}

/**
 * A case by id with no account check. Only for ids read from our own rows (a capture session's or
 * a result push's case id), never for an id a caller sent.
 */
export function findCaseByInternalId(db: Db, caseId: string) {
  return db.query.captureCases.findFirst({ where: eq(captureCases.id, caseId) });
}

export async function nextEventSeq(db: Db, caseId: string): Promise<number> {
  const [row] = await db
    .select({ seq: max(captureEvents.seq) })
    .from(captureEvents)
    .where(eq(captureEvents.caseId, caseId));
  return (row?.seq ?? 0) + 1;
}

/** Everything the status record (spec 2.4) shows, in display order. */
export async function loadCaseDetails(db: Db, caseId: string) {
  const [sessions, scenes, events, pushes] = await Promise.all([
    db
      .select()
      .from(captureSessions)
      .where(eq(captureSessions.caseId, caseId))
      .orderBy(asc(captureSessions.sessionNumber)),
    db.select().from(captureScenes).where(eq(captureScenes.caseId, caseId)).orderBy(asc(captureScenes.position)),
    db.select().from(captureEvents).where(eq(captureEvents.caseId, caseId)).orderBy(asc(captureEvents.seq)),
    db.select().from(pushDeliveries).where(eq(pushDeliveries.caseId, caseId)).orderBy(desc(pushDeliveries.at)).limit(1),
  ]);
  return { sessions, scenes, events, lastPush: pushes[0] ?? null };
}

/** A new case with its first session, first event, scenes and invitations, in one D1 batch (one transaction). */
export async function insertNewCase(
  db: Db,
  rows: {
    caseRow: CaseInsert;
    session: SessionInsert;
    event: EventInsert;
    scenes: SceneInsert[];
    messages: OutboxInsert[];
  },
): Promise<void> {
  await db.batch([
    db.insert(captureCases).values(rows.caseRow),
    db.insert(captureSessions).values(rows.session),
    db.insert(captureEvents).values(rows.event),
    ...rows.scenes.map((scene) => db.insert(captureScenes).values(scene)),
    ...insertOutboxStatements(db, rows.messages),
  ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/**
 * A lifecycle step in one batch: the case row (only if its status is still `fromStatus`), the
 * event, on close the open sessions, and the step's own statements. The case id is the one
 * findCaseById returned for the caller's account.
 */
export async function applyTransition(
  db: Db,
  step: {
    caseId: string;
    fromStatus: CaseRow["status"];
    patch: Partial<CaseInsert>;
    event: EventInsert;
    closing: boolean;
  },
  statements: Statements,
): Promise<void> {
  await db.batch([
    db
      .update(captureCases)
      .set(step.patch)
      .where(and(eq(captureCases.id, step.caseId), eq(captureCases.status, step.fromStatus))),
    db.insert(captureEvents).values(step.event),
    ...(step.closing
      ? [
          db
            .update(captureSessions)
            .set({ finalStatus: "closed" })
            .where(and(eq(captureSessions.caseId, step.caseId), eq(captureSessions.finalStatus, "open"))),
        ]
      : []),
    ...statements,
  ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** For a re-trigger's batch: the previous session superseded at `at`. */
export function supersedeSessionStatement(db: Db, sessionId: string, at: Date) {
  return db
    .update(captureSessions)
    .set({ supersededAt: at, finalStatus: "superseded" })
    .where(eq(captureSessions.id, sessionId));
}

export function insertSessionStatement(db: Db, session: SessionInsert) {
  return db.insert(captureSessions).values(session);
}

/** Counts the session's attempt if its counter is still `attempt - 1` (compare-and-set); false when another "send" won. */
export async function claimSessionAttempt(db: Db, sessionId: string, attempt: number): Promise<boolean> {
  const claimed = await db
    .update(captureSessions)
    .set({ attemptCount: attempt })
    .where(and(eq(captureSessions.id, sessionId), eq(captureSessions.attemptCount, attempt - 1)))
    .returning();
  return claimed.length > 0;
}

export async function setSessionAttemptCount(db: Db, sessionId: string, attemptCount: number): Promise<void> {
  await db.update(captureSessions).set({ attemptCount }).where(eq(captureSessions.id, sessionId));
}

/** The case's scenes in order. */
export function findScenes(db: Db, caseId: string): Promise<SceneRow[]> {
  return db.select().from(captureScenes).where(eq(captureScenes.caseId, caseId)).orderBy(asc(captureScenes.position));
}

/** Marks the scene completed unless it already is; the scene when this call marked it. */
export async function markSceneCompleted(
  db: Db,
  caseId: string,
  position: number,
  at: Date,
): Promise<SceneRow | undefined> {
  const [marked] = await db
    .update(captureScenes)
    .set({ completedAt: at })
    .where(
      and(eq(captureScenes.caseId, caseId), eq(captureScenes.position, position), isNull(captureScenes.completedAt)),
    )
    .returning();
  return marked;
}

export async function clearSceneCompleted(db: Db, sceneId: string): Promise<void> {
  await db.update(captureScenes).set({ completedAt: null }).where(eq(captureScenes.id, sceneId));
}

/** Every scene of the case open again (the next attempt walks them anew). */
export async function clearCaseScenesCompleted(db: Db, caseId: string): Promise<void> {
  await db.update(captureScenes).set({ completedAt: null }).where(eq(captureScenes.caseId, caseId));
}

/**
 * Cron sweep across all accounts on purpose: open cases created with reminders, on accounts with a
 * reminder policy, whose next reminder time has passed at `nowMs` (the rule of dueReminderStep, in
 * SQL), the least recently changed first. Each result names its account.
 */
export function findCasesDueForReminder(db: Db, nowMs: number, limit: number) {
  const linkIssuedAt = sql`(select max(${captureSessions.triggeredAt}) from ${captureSessions} where ${captureSessions.caseId} = ${captureCases.id})`;
  const waitHours = sql`(case when ${captureCases.reminderCount} = 0 then json_extract(${accounts.reminders}, '$.firstAfterHours') else json_extract(${accounts.reminders}, '$.followupAfterHours') end)`;
  return db
    .select({ id: captureCases.id, accountId: captureCases.accountId, caseNumber: captureCases.caseNumber })
    .from(captureCases)
    .innerJoin(accounts, eq(accounts.id, captureCases.accountId))
    .where(
      and(
        eq(captureCases.closed, false),
        inArray(captureCases.status, ["sent", "reminder"]),
        eq(captureCases.remindersEnabled, true),
        isNotNull(accounts.reminders),
        sql`max(coalesce(${captureCases.lastReminderAt}, 0), ${linkIssuedAt}) + ${waitHours} * 3600000 <= ${nowMs}`,
      ),
    )
    .orderBy(asc(captureCases.updatedAt))
    .limit(limit);
}

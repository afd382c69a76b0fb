import { and, asc, desc, eq, max } from "drizzle-orm";
import type { Db } from "../db/client";
import { captureCases, captureEvents, captureScenes, captureSessions, pushDeliveries } from "../db/schema";

export type CaseRow = typeof captureCases.$inferSelect;
export type SessionRow = typeof captureSessions.$inferSelect;

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

export function findSessionByToken(db: Db, token: string) {
  return db.query.captureSessions.findFirst({ where: eq(captureSessions.token, token) });
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

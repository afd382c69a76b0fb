/**
 * Every query on capture photos and the one-time nonces of their shots. Both hang below a capture
 * session, which the capture page reaches by its link token (global on purpose) and the board
 * through a case found with the handler's account (caseId here is always such a case's id).
 */
import { and, asc, count, eq, gte, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { captureNonces, capturePhotos } from "../../db/schema";

export type PhotoRow = typeof capturePhotos.$inferSelect;

/** Nonces issued to the session since `since`, and in all. */
export async function countSessionNonces(db: Db, sessionId: string, since: Date) {
  const [recent] = await db
    .select({ n: count() })
    .from(captureNonces)
    .where(and(eq(captureNonces.sessionId, sessionId), gte(captureNonces.issuedAt, since)));
  const [total] = await db.select({ n: count() }).from(captureNonces).where(eq(captureNonces.sessionId, sessionId));
  return { recent: recent.n, total: total.n };
}

export async function insertNonce(db: Db, row: typeof captureNonces.$inferInsert): Promise<void> {
  await db.insert(captureNonces).values(row);
}

/** The nonce only if it was issued to this session. */
export function findSessionNonce(db: Db, sessionId: string, nonce: string) {
  return db.query.captureNonces.findFirst({
    where: and(eq(captureNonces.nonce, nonce), eq(captureNonces.sessionId, sessionId)),
  });
}

/** Uses the nonce at `at` unless it is used already (compare-and-set); false when it was. */
export async function consumeNonce(db: Db, nonce: string, at: Date): Promise<boolean> {
  const consumed = await db
    .update(captureNonces)
    .set({ usedAt: at })
    .where(and(eq(captureNonces.nonce, nonce), isNull(captureNonces.usedAt)))
    .returning();
  return consumed.length > 0;
}

/** The session's photo stored with this nonce. */
export function findSessionPhotoByNonce(db: Db, sessionId: string, nonce: string) {
  return db.query.capturePhotos.findFirst({
    where: and(eq(capturePhotos.nonce, nonce), eq(capturePhotos.sessionId, sessionId)),
  });
}

export async function insertPhoto(db: Db, row: typeof capturePhotos.$inferInsert): Promise<void> {
  await db.insert(capturePhotos).values(row);
}

/** The session's photos, oldest first; only of attempt `attempt` when given. */
export function findSessionPhotos(db: Db, sessionId: string, attempt?: number): Promise<PhotoRow[]> {
  const where =
    attempt === undefined
      ? eq(capturePhotos.sessionId, sessionId)
      : and(eq(capturePhotos.sessionId, sessionId), eq(capturePhotos.attempt, attempt));
  return db.select().from(capturePhotos).where(where).orderBy(asc(capturePhotos.createdAt));
}

/** The policyholder's override of a failed scene check on one photo. */
export async function setPhotoChecks(
  db: Db,
  photoId: string,
  patch: Pick<typeof capturePhotos.$inferInsert, "checks" | "verdict">,
): Promise<void> {
  await db.update(capturePhotos).set(patch).where(eq(capturePhotos.id, photoId));
}

/** Every photo of the case, oldest first. */
export function findCasePhotos(db: Db, caseId: string): Promise<PhotoRow[]> {
  return db.select().from(capturePhotos).where(eq(capturePhotos.caseId, caseId)).orderBy(asc(capturePhotos.createdAt));
}

/** The photo's R2 key only if the photo is of this case. */
export async function findCasePhotoKey(db: Db, caseId: string, photoId: string): Promise<string | null> {
  const photo = await db.query.capturePhotos.findFirst({
    where: and(eq(capturePhotos.id, photoId), eq(capturePhotos.caseId, caseId)),
    columns: { r2Key: true },
  });
  return photo?.r2Key ?? null;
}

/**
 * Every query of the scanner: presigned uploads, download bundles, analyses, the usage ledger and
 * the reverse-search hash index. Records an API key reaches take the account id (DESIGN §4); the
 * signed-link lookups and the cron sweeps say why they have none.
 */
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { analyses, downloads, imageHashes, uploads, usageLedger } from "../db/schema";

type UploadRow = typeof uploads.$inferSelect;

export async function insertUpload(db: Db, row: typeof uploads.$inferInsert): Promise<void> {
  await db.insert(uploads).values(row);
}

/** An upload by storage key alone. Global on purpose: for the PUT of a signed upload URL, the signature is the credential. */
export function findUploadBySignedKey(db: Db, storageKey: string) {
  return db.query.uploads.findFirst({ where: eq(uploads.storageKey, storageKey) });
}

/** The account's upload; another account's storage key is not found. */
export function findAccountUpload(db: Db, accountId: string, storageKey: string) {
  return db.query.uploads.findFirst({
    where: and(eq(uploads.storageKey, storageKey), eq(uploads.accountId, accountId)),
  });
}

export async function markUploadReceived(
  db: Db,
  storageKey: string,
  received: Pick<UploadRow, "uploadedAt" | "size">,
): Promise<void> {
  await db.update(uploads).set(received).where(eq(uploads.storageKey, storageKey));
}

/**
 * Binds the unconsumed upload to `digest` unless another digest holds it (compare-and-set); false
 * when it does. The storage key was resolved with the account first (findAccountUpload).
 */
export async function claimUploadForDigest(db: Db, storageKey: string, digest: string): Promise<boolean> {
  const claimed = await db
    .update(uploads)
    .set({ claimedDigest: digest })
    .where(
      and(
        eq(uploads.storageKey, storageKey),
        isNull(uploads.consumedAt),
        or(isNull(uploads.claimedDigest), eq(uploads.claimedDigest, digest)),
      ),
    )
    .returning({ storageKey: uploads.storageKey });
  return claimed.length > 0;
}

/** Marks the upload consumed at `at` unless it already is; false when another delivery did. Key resolved with the account first. */
export async function consumeUploadRow(db: Db, storageKey: string, at: Date): Promise<boolean> {
  const spent = await db
    .update(uploads)
    .set({ consumedAt: at })
    .where(and(eq(uploads.storageKey, storageKey), isNull(uploads.consumedAt)))
    .returning({ storageKey: uploads.storageKey });
  return spent.length > 0;
}

/** Cron sweep across all accounts on purpose: uploads created before `cutoff`. */
export function findUploadsCreatedBefore(db: Db, cutoff: Date, limit: number) {
  return db.select({ storageKey: uploads.storageKey }).from(uploads).where(lt(uploads.createdAt, cutoff)).limit(limit);
}

/** Cron sweep: the rows of findUploadsCreatedBefore. */
export async function deleteUploads(db: Db, storageKeys: string[]): Promise<void> {
  await db.delete(uploads).where(inArray(uploads.storageKey, storageKeys));
}

export async function insertDownload(db: Db, row: typeof downloads.$inferInsert): Promise<void> {
  await db.insert(downloads).values(row);
}

/** A download by id alone. Global on purpose: the signed download link is the credential (spec 4.4, no API key). */
export function findDownloadBySignedId(db: Db, id: string) {
  return db.query.downloads.findFirst({ where: eq(downloads.id, id) });
}

/** Cron sweep across all accounts on purpose: bundles made before `cutoff`. */
export function findDownloadsCreatedBefore(db: Db, cutoff: Date, limit: number) {
  return db
    .select({ id: downloads.id, r2Key: downloads.r2Key })
    .from(downloads)
    .where(lt(downloads.createdAt, cutoff))
    .limit(limit);
}

/** Cron sweep: the rows of findDownloadsCreatedBefore. */
export async function deleteDownloads(db: Db, ids: string[]): Promise<void> {
  await db.delete(downloads).where(inArray(downloads.id, ids));
}

export async function insertAnalysis(db: Db, row: typeof analyses.$inferInsert): Promise<void> {
  await db.insert(analyses).values(row);
}

/** The run's outcome on its row (the id is the run's own, written by insertAnalysis). */
export async function finishAnalysis(
  db: Db,
  analysisId: string,
  outcome: Pick<typeof analyses.$inferInsert, "status" | "resultKey" | "tokens" | "suspicionLevel" | "finishedAt">,
): Promise<void> {
  await db.update(analyses).set(outcome).where(eq(analyses.id, analysisId));
}

/** One charged delivery (spec 4.4 rule 3). */
export async function insertUsage(db: Db, row: typeof usageLedger.$inferInsert): Promise<void> {
  await db.insert(usageLedger).values(row);
}

/** Stores one picture's hashes unless the same account, source, case and picture are stored; true when stored. */
export async function insertImageHash(db: Db, row: typeof imageHashes.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(imageHashes).values(row).onConflictDoNothing().returning({ id: imageHashes.id });
  return inserted.length > 0;
}

/** A stored picture as the lookup SQL returns it. */
export interface ImageHashRow {
  id: number;
  source: "scanner" | "capture";
  case_number: string;
  ref: string;
  ticket_id: string | null;
  sha256: string;
  thumb_key: string | null;
  created_at: number;
  dct0: number;
  dct1: number;
  dct2: number;
  dct3: number;
  bm0: number;
  bm1: number;
  bm2: number;
  bm3: number;
}

/**
 * Runs the lookups (one D1 batch): each `sql` is band-index.ts's lookupSql, bound here to the
 * account (`?1`, every probe of the SQL is limited to it), the case number left out, the sources and
 * the popcount table. Raw SQL: drizzle cannot express the band probes.
 */
export async function findImageHashCandidates(
  d1: D1Database,
  lookups: { sql: string; accountId: string; caseNumber: string; sources: string[] }[],
  popcounts: string,
): Promise<ImageHashRow[][]> {
  const statements = lookups.map((l) =>
    d1.prepare(l.sql).bind(l.accountId, l.caseNumber, JSON.stringify(l.sources), popcounts),
  );
  const results = await d1.batch<ImageHashRow>(statements);
  return results.map((result) => result.results ?? []);
}

/**
 * Cron sweep across all accounts on purpose: hashes older than their own account's
 * `hash_retention_days` at `nowMs`, oldest first.
 */
export async function findExpiredImageHashes(d1: D1Database, nowMs: number, dayMs: number, limit: number) {
  const stale = await d1
    .prepare(
      `SELECT h.id, h.thumb_key FROM image_hashes h JOIN accounts a ON a.id = h.account_id
     WHERE h.created_at < ?1 - a.hash_retention_days * ${dayMs}
     ORDER BY h.created_at LIMIT ${limit}`,
    )
    .bind(nowMs)
    .all<{ id: number; thumb_key: string | null }>();
  return stale.results ?? [];
}

/** Cron sweep: the rows of findExpiredImageHashes. */
export async function deleteImageHashes(d1: D1Database, ids: number[]): Promise<void> {
  await d1
    .prepare(`DELETE FROM image_hashes WHERE id IN (SELECT value FROM json_each(?1))`)
    .bind(JSON.stringify(ids))
    .run();
}

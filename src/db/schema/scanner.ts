import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/** Presigned uploads (DESIGN §11): bound to account + caseNumber, consumed once. */
export const uploads = sqliteTable(
  "uploads",
  {
    storageKey: text("storage_key").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    caseNumber: text("case_number").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    uploadedAt: integer("uploaded_at", { mode: "timestamp_ms" }),
    size: integer("size"),
    consumedAt: integer("consumed_at", { mode: "timestamp_ms" }),
    /** The request digest that first used this upload (claimUpload): concurrent other requests are refused. */
    claimedDigest: text("claimed_digest"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    // The cron sweep deletes unconsumed uploads after the retention period.
    index("uploads_created").on(t.createdAt),
  ],
);

/** One analysis run per request digest (DESIGN §9, §10). */
export const analyses = sqliteTable(
  "analyses",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    digest: text("digest").notNull(),
    caseNumber: text("case_number").notNull(),
    status: text("status", { enum: ["running", "done", "failed"] }).notNull(),
    suspicionLevel: text("suspicion_level"),
    resultKey: text("result_key"),
    tokens: integer("tokens"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("analyses_digest").on(t.accountId, t.digest)],
);

/** One row per delivered result: the basis for billing (spec 4.4 rule 3). */
export const usageLedger = sqliteTable(
  "usage_ledger",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    analysisId: text("analysis_id")
      .notNull()
      .references(() => analyses.id),
    tokens: integer("tokens").notNull(),
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("usage_account").on(t.accountId, t.deliveredAt)],
);

/** Downloadable attachment bundles (DESIGN §12), deleted after retention. */
export const downloads = sqliteTable("downloads", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id),
  analysisId: text("analysis_id").notNull(),
  r2Key: text("r2_key").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Perceptual hashes of every analysed image and capture photo, per account, for reverse search
 * across claims (DESIGN §21, docs/reverse-search.md). Each 64-bit hash is stored as four 16-bit
 * bands, each band its own indexed column: the multi-index lookup of src/scanner/similarity/band-index.ts.
 */
export const imageHashes = sqliteTable(
  "image_hashes",
  {
    id: integer("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    source: text("source", { enum: ["scanner", "capture"] }).notNull(),
    /** The caller's case number (scanner request, or the capture case's). */
    caseNumber: text("case_number").notNull(),
    /** Scanner: the file name in `Files`; capture: the photo id. */
    ref: text("ref").notNull(),
    /** Capture photos: the case's ticket id. */
    ticketId: text("ticket_id"),
    sha256: text("sha256").notNull(),
    dct0: integer("dct0").notNull(),
    dct1: integer("dct1").notNull(),
    dct2: integer("dct2").notNull(),
    dct3: integer("dct3").notNull(),
    bm0: integer("bm0").notNull(),
    bm1: integer("bm1").notNull(),
    bm2: integer("bm2").notNull(),
    bm3: integer("bm3").notNull(),
    /** R2 key of a small PNG for the side-by-side match report (deleted with the row). */
    thumbKey: text("thumb_key"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("image_hashes_dct0").on(t.accountId, t.dct0),
    index("image_hashes_dct1").on(t.accountId, t.dct1),
    index("image_hashes_dct2").on(t.accountId, t.dct2),
    index("image_hashes_dct3").on(t.accountId, t.dct3),
    index("image_hashes_bm0").on(t.accountId, t.bm0),
    index("image_hashes_bm1").on(t.accountId, t.bm1),
    index("image_hashes_bm2").on(t.accountId, t.bm2),
    index("image_hashes_bm3").on(t.accountId, t.bm3),
    // One row per picture and case: a repeated request or re-sent photo adds nothing.
    uniqueIndex("image_hashes_once").on(t.accountId, t.source, t.caseNumber, t.sha256),
    // The retention sweep walks rows oldest first.
    index("image_hashes_created").on(t.createdAt),
  ],
);

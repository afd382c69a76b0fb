import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";
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

/** Perceptual hashes of analysed images, for cross-file and reverse-search matches per account. */
export const perceptualHashes = sqliteTable(
  "perceptual_hashes",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    hash: text("hash").notNull(),
    sha256: text("sha256").notNull(),
    caseNumber: text("case_number").notNull(),
    fileName: text("file_name").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("phash_account").on(t.accountId, t.hash)],
);

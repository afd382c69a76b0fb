import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, real, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

export const caseStatuses = ["sent", "reminder", "manual", "closed"] as const;
export type CaseStatus = (typeof caseStatuses)[number];

export const captureResults = [
  "pending",
  "io",
  "nicht_io",
  "io_gps_suspicious",
  "io_scene_override",
  "inspection_requested",
  "claim_withdrawn",
] as const;
export type CaptureResult = (typeof captureResults)[number];

export const finalDecisions = ["closed_io", "betrug_bestaetigt", "manuell_geprueft", "sonstiges"] as const;
export type FinalDecision = (typeof finalDecisions)[number];

/** A capture case (ticket). */
export const captureCases = sqliteTable(
  "capture_cases",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    caseNumber: text("case_number").notNull(),
    status: text("status", { enum: caseStatuses }).notNull(),
    closed: integer("closed", { mode: "boolean" }).notNull().default(false),
    lastResult: text("last_result", { enum: captureResults }),
    finalDecision: text("final_decision", { enum: finalDecisions }),
    retriggerCount: integer("retrigger_count").notNull().default(0),
    reminderCount: integer("reminder_count").notNull().default(0),
    remindersEnabled: integer("reminders_enabled", { mode: "boolean" }).notNull().default(false),
    sbEmail: text("sb_email"),
    vnName: text("vn_name"),
    vnEmail: text("vn_email"),
    vnPhone: text("vn_phone"),
    customNote: text("custom_note"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
    closedAt: integer("closed_at", { mode: "timestamp_ms" }),
    lastReminderAt: integer("last_reminder_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // Spec 3 rule 1, enforced by the database too: one open case per account and case number.
    uniqueIndex("capture_cases_one_open").on(t.accountId, t.caseNumber).where(sql`${t.closed} = 0`),
    // Status by caseNumber picks the most recent case.
    index("capture_cases_lookup").on(t.accountId, t.caseNumber, t.createdAt),
    // Board columns (newest first) and the reminder cron scan by status.
    index("capture_cases_status").on(t.accountId, t.status, t.createdAt),
    // The board's "all cases" list and its date filter, newest first.
    index("capture_cases_created").on(t.accountId, t.createdAt),
    // The board's lastResult filter, newest first.
    index("capture_cases_last_result").on(t.accountId, t.lastResult, t.createdAt),
    // The board's live update: "has anything of this account changed?" is one index probe.
    index("capture_cases_updated").on(t.accountId, t.updatedAt),
  ],
);

/** One issued link. A re-trigger supersedes the previous session. */
export const captureSessions = sqliteTable(
  "capture_sessions",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    sessionNumber: integer("session_number").notNull(),
    token: text("token").notNull(),
    triggeredAt: integer("triggered_at", { mode: "timestamp_ms" }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    finalStatus: text("final_status"),
    supersededAt: integer("superseded_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // The capture page resolves its token on every request.
    uniqueIndex("capture_sessions_token").on(t.token),
    uniqueIndex("capture_sessions_number").on(t.caseId, t.sessionNumber),
  ],
);

export const captureScenes = sqliteTable(
  "capture_scenes",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    position: integer("position").notNull(),
    description: text("description").notNull(),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("capture_scenes_position").on(t.caseId, t.position)],
);

/** Case history (spec 6). Append-only. */
export const captureEvents = sqliteTable(
  "capture_events",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    seq: integer("seq").notNull(),
    timestamp: integer("timestamp", { mode: "timestamp_ms" }).notNull(),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
  },
  (t) => [uniqueIndex("capture_events_order").on(t.caseId, t.seq)],
);

/** A live photo with its attestation and check results. */
export const capturePhotos = sqliteTable(
  "capture_photos",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    sessionId: text("session_id")
      .notNull()
      .references(() => captureSessions.id),
    scenePosition: integer("scene_position"),
    attempt: integer("attempt").notNull(),
    r2Key: text("r2_key").notNull(),
    sha256: text("sha256").notNull(),
    nonce: text("nonce").notNull(),
    capturedAt: integer("captured_at", { mode: "timestamp_ms" }),
    attestation: text("attestation", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    checks: text("checks", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    verdict: text("verdict").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("capture_photos_case").on(t.caseId, t.sessionId)],
);

/** One-time nonces issued to the capture page, one per shot. */
export const captureNonces = sqliteTable("capture_nonces", {
  nonce: text("nonce").primaryKey(),
  sessionId: text("session_id")
    .notNull()
    .references(() => captureSessions.id),
  issuedAt: integer("issued_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

/** Internal notes of claims handlers: board only, never in an API response (spec 2.4). */
export const caseNotes = sqliteTable(
  "case_notes",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    handlerId: text("handler_id").notNull(),
    body: text("body").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("case_notes_case").on(t.caseId, t.createdAt)],
);

/** Outgoing notifications (invitations, reminders), recorded before they are queued. */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    kind: text("kind", { enum: ["invitation", "reminder"] }).notNull(),
    channel: text("channel", { enum: ["email", "sms"] }).notNull(),
    recipient: text("recipient").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("outbox_case").on(t.caseId)],
);

/**
 * Every try to hand an outbox row to its provider, with what the provider said (issue 14: each
 * attempt is recorded). `detail` names the provider's id or error, never the recipient.
 */
export const notificationAttempts = sqliteTable(
  "notification_attempts",
  {
    id: text("id").primaryKey(),
    outboxId: text("outbox_id")
      .notNull()
      .references(() => outbox.id),
    attempt: integer("attempt").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    outcome: text("outcome", { enum: ["accepted", "refused", "failed"] }).notNull(),
    detail: text("detail"),
  },
  (t) => [index("notification_attempts_outbox").on(t.outboxId, t.attempt)],
);

/**
 * Result pushes to the insurer (DESIGN §14): one row per case close, its id the `webhook-id`.
 * `pending` until the first attempt has an outcome; the newest attempted row is `resultPush`.
 */
export const pushDeliveries = sqliteTable(
  "push_deliveries",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => captureCases.id),
    status: text("status", { enum: ["pending", "delivered", "retrying", "failed"] }).notNull(),
    statusCode: integer("status_code"),
    attempts: integer("attempts").notNull().default(0),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("push_deliveries_case").on(t.caseId, t.at)],
);

import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";

export const communicationModes = ["provider_versand", "eigenversand"] as const;
export type CommunicationMode = (typeof communicationModes)[number];

/** An insurer. Features and settings are JSON (DESIGN §7). */
export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  communicationMode: text("communication_mode", { enum: communicationModes }).notNull(),
  features: text("features", { mode: "json" }).$type<Record<string, boolean>>().notNull().default({}),
  pushUrl: text("push_url"),
  pushSecret: text("push_secret"),
  reminders: text("reminders", { mode: "json" }).$type<ReminderSettings | null>(),
  /** Language of the policyholder's e-mails (invitations, reminders): de, en or pl. */
  language: text("language", { enum: ["de", "en", "pl"] })
    .notNull()
    .default("de"),
  /** Days the perceptual hashes of this account's images are kept for reverse search (docs/reverse-search.md). */
  hashRetentionDays: integer("hash_retention_days").notNull().default(365),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

export interface ReminderSettings {
  firstAfterHours: number;
  followupAfterHours: number;
  maxReminders: number;
}

/** API keys are stored only as SHA-256 (DESIGN §5). */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    keyHash: text("key_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // Every authenticated request looks its key up by hash.
    uniqueIndex("api_keys_hash").on(t.keyHash),
  ],
);

/** Claims handlers who log in to the board. */
export const handlers = sqliteTable(
  "handlers",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    /** Set when the account removes the handler: no login, no session; the notes keep the name. */
    removedAt: integer("removed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // Login is by e-mail; one active handler per e-mail address across the service (a removed handler's
    // address can be given to a new one).
    uniqueIndex("handlers_email_active").on(t.email).where(sql`removed_at IS NULL`),
    index("handlers_account").on(t.accountId),
  ],
);

/**
 * Board login sessions; only the token hash is stored. A session ends at `expiresAt` (absolute) or
 * after a period without requests since `lastSeenAt` (idle), whichever comes first.
 */
export const handlerSessions = sqliteTable(
  "handler_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    handlerId: text("handler_id")
      .notNull()
      .references(() => handlers.id),
    csrfToken: text("csrf_token").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`0`),
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }).notNull().default(sql`0`),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("handler_sessions_handler").on(t.handlerId)],
);

/**
 * Failed board logins per login name (SHA-256 of the normalised e-mail, known or not, so the
 * lockout itself reveals nothing about which addresses exist).
 */
export const loginThrottle = sqliteTable("login_throttle", {
  keyHash: text("key_hash").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lockedUntil: integer("locked_until", { mode: "timestamp_ms" }),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

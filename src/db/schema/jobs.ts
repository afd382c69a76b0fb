import { integer, sqliteTable, text, index } from "drizzle-orm/sqlite-core";

/** Queue messages that failed every retry and reached the dead-letter queue (src/queue/dead-letter.ts). */
export const failedJobs = sqliteTable(
  "failed_jobs",
  {
    id: text("id").primaryKey(),
    /** The message id the queue gave it. */
    messageId: text("message_id").notNull(),
    queue: text("queue").notNull(),
    body: text("body", { mode: "json" }).$type<unknown>().notNull(),
    attempts: integer("attempts").notNull(),
    failedAt: integer("failed_at", { mode: "timestamp_ms" }).notNull(),
  },
  // Operators look at the newest failures first.
  (t) => [index("failed_jobs_failed_at").on(t.failedAt)],
);

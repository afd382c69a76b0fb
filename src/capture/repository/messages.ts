/**
 * Every query on the outbox (invitations and reminders to the policyholder) and its delivery
 * attempts. A row carries its account and case; rows are reached by their own id (from a queue
 * message, a bounce or a case the caller already holds), and the cross-account reads say why.
 */
import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notificationAttempts, outbox } from "../../db/schema";

export type OutboxRecord = typeof outbox.$inferSelect;
export type OutboxInsert = typeof outbox.$inferInsert;

/** For a case's batch: its messages, written in the same transaction so none is lost. */
export function insertOutboxStatements(db: Db, rows: readonly OutboxInsert[]) {
  return rows.map((row) => db.insert(outbox).values(row));
}

/** A row by its id (from a queue message or our own batch). */
export function findOutboxRow(db: Db, outboxId: string) {
  return db.query.outbox.findFirst({ where: eq(outbox.id, outboxId) });
}

/** Counts a try if the row is still pending with `attempts` tries (compare-and-set); false when another try won. */
export async function claimOutboxTry(db: Db, outboxId: string, attempts: number): Promise<boolean> {
  const claimed = await db
    .update(outbox)
    .set({ attempts: attempts + 1 })
    .where(and(eq(outbox.id, outboxId), eq(outbox.status, "pending"), eq(outbox.attempts, attempts)))
    .returning({ id: outbox.id });
  return claimed.length > 0;
}

/** One try's record, and the row's new state (if any) in the same batch. */
export async function recordOutboxTry(
  db: Db,
  attempt: typeof notificationAttempts.$inferInsert,
  outboxId: string,
  patch?: Partial<OutboxRecord>,
): Promise<void> {
  const insert = db.insert(notificationAttempts).values(attempt);
  if (!patch) {
    await insert;
    return;
  }
  await db.batch([insert, db.update(outbox).set(patch).where(eq(outbox.id, outboxId))]);
}

/** The state of rows written by one call (ids from our own batch). */
export function findOutboxStatuses(db: Db, outboxIds: readonly string[]) {
  return db
    .select({ id: outbox.id, channel: outbox.channel, status: outbox.status })
    .from(outbox)
    .where(inArray(outbox.id, [...outboxIds]));
}

/**
 * The e-mail row a bounce names, by id, else the newest sent e-mail to the failed recipient.
 * Global on purpose: a bounce carries no account; the row found names its account and case.
 */
export async function findBouncedEmail(db: Db, outboxId: string | null, recipients: readonly string[]) {
  const byId = outboxId
    ? await db.query.outbox.findFirst({ where: and(eq(outbox.id, outboxId), eq(outbox.channel, "email")) })
    : undefined;
  if (byId) return byId;
  for (const recipient of recipients) {
    const row = await db.query.outbox.findFirst({
      where: and(eq(outbox.channel, "email"), eq(outbox.status, "sent"), eq(outbox.recipient, recipient)),
      orderBy: desc(outbox.sentAt),
    });
    if (row) return row;
  }
  return undefined;
}

/** For a bounce's batch: the row failed. */
export function failOutboxStatement(db: Db, outboxId: string) {
  return db.update(outbox).set({ status: "failed" }).where(eq(outbox.id, outboxId));
}

export async function markOutboxFailed(db: Db, outboxId: string): Promise<void> {
  await failOutboxStatement(db, outboxId);
}

/** Cron sweep across all accounts on purpose: rows still pending that were written before `before`. */
export function findStalePendingOutbox(db: Db, before: Date, limit: number) {
  return db
    .select({ id: outbox.id, attempts: outbox.attempts })
    .from(outbox)
    .where(and(eq(outbox.status, "pending"), lt(outbox.createdAt, before)))
    .limit(limit);
}

/** The newest rows of every account: only for /dev/outbox, which exists in local development alone. */
export function findNewestOutboxOfAllAccounts(db: Db, limit: number) {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(limit);
}

/** The messages of the account's case, oldest first. */
export function findCaseMessages(db: Db, accountId: string, caseId: string) {
  return db
    .select({
      kind: outbox.kind,
      channel: outbox.channel,
      recipient: outbox.recipient,
      status: outbox.status,
      createdAt: outbox.createdAt,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(and(eq(outbox.caseId, caseId), eq(outbox.accountId, accountId)))
    .orderBy(asc(outbox.createdAt));
}

/**
 * Every query on accounts, their API keys and their claims handlers (the account aggregate).
 * An account is the tenant itself (DESIGN §4): lookups by id take the caller's own account id;
 * the two global lookups (API key hash, handler e-mail) say why they are global.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, apiKeys, handlers } from "../db/schema";

type AccountInsert = typeof accounts.$inferInsert;

export function findAccount(db: Db, accountId: string) {
  return db.query.accounts.findFirst({ where: eq(accounts.id, accountId) });
}

export async function insertAccount(db: Db, row: AccountInsert): Promise<void> {
  await db.insert(accounts).values(row);
}

export async function updateAccountColumns(db: Db, accountId: string, patch: Partial<AccountInsert>): Promise<void> {
  await db.update(accounts).set(patch).where(eq(accounts.id, accountId));
}

export async function insertApiKey(db: Db, row: typeof apiKeys.$inferInsert): Promise<void> {
  await db.insert(apiKeys).values(row);
}

/** The account of an unrevoked key hash. Global on purpose: the key is what tells which account calls. */
export async function findAccountByKeyHash(db: Db, keyHash: string) {
  const [row] = await db
    .select({ account: accounts, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/**
 * The active handler with this login e-mail (stored lower-cased). Global on purpose: an e-mail is one login
 * across all accounts. A removed handler's address may since belong to a new handler.
 */
export function findHandlerByEmail(db: Db, email: string) {
  return db.query.handlers.findFirst({ where: and(eq(handlers.email, email), isNull(handlers.removedAt)) });
}

export async function insertHandler(db: Db, row: typeof handlers.$inferInsert): Promise<void> {
  await db.insert(handlers).values(row);
}

/** Marks the account's handler removed (once: a second call keeps the first time); false when the account has no such handler. */
export async function markHandlerRemoved(db: Db, accountId: string, handlerId: string, at: Date): Promise<boolean> {
  const mine = and(eq(handlers.id, handlerId), eq(handlers.accountId, accountId));
  await db
    .update(handlers)
    .set({ removedAt: at })
    .where(and(mine, isNull(handlers.removedAt)));
  return (await db.select({ id: handlers.id }).from(handlers).where(mine).limit(1)).length > 0;
}

/** The names of the account's handlers among `ids`; another account's handler is left out. */
export async function findHandlerNames(db: Db, accountId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: handlers.id, name: handlers.name })
    .from(handlers)
    .where(and(inArray(handlers.id, [...new Set(ids)]), eq(handlers.accountId, accountId)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

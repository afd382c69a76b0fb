/**
 * Every query of the claims-handler board: its reads of the account's capture cases (counts,
 * columns, version) and the handlers' internal notes. Each takes the handler's account id and
 * every read is bound to it (DESIGN §4). The queries are built apart from running them, so the
 * board bench (scripts/bench/board.bench.ts) can show their plans.
 */
import { and, count, desc, eq, gte, lt, max, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { captureCases, caseNotes, handlers, type CaseStatus } from "../db/schema";
import type { BoardFilter } from "./cases-list";
import { MANUAL_REASON_ACTIONS } from "./manual-reason";

export function versionQuery(db: Db, accountId: string) {
  return db
    .select({ latest: max(captureCases.updatedAt), n: count() })
    .from(captureCases)
    .where(eq(captureCases.accountId, accountId));
}

const cardColumns = {
  id: captureCases.id,
  caseNumber: captureCases.caseNumber,
  status: captureCases.status,
  lastResult: captureCases.lastResult,
  finalDecision: captureCases.finalDecision,
  vnName: captureCases.vnName,
  createdAt: captureCases.createdAt,
  updatedAt: captureCases.updatedAt,
  reminderCount: captureCases.reminderCount,
  retriggerCount: captureCases.retriggerCount,
  // Per card on the page only (SQLite computes result columns after LIMIT/OFFSET), each through the
  // events' (case_id, seq) index: the event that sent the case to manual last, and any bounce. The
  // case's id is written with its table: drizzle leaves a select-list column bare, and a bare "id"
  // inside the subquery would be the event's own.
  lastManualAction: sql<
    string | null
  >`(SELECT action FROM capture_events e WHERE e.case_id = ${captureCases}.id AND e.action IN (${sql.join(
    MANUAL_REASON_ACTIONS.map((a) => sql`${a}`),
    sql`, `,
  )}) ORDER BY e.seq DESC LIMIT 1)`,
  bounced: sql<number>`EXISTS (SELECT 1 FROM capture_events e WHERE e.case_id = ${captureCases}.id AND e.action = 'invitation_bounced')`,
};

/** The WHERE terms of the filter; the first is always the account. */
export function filterConditions(accountId: string, filter: BoardFilter): SQL[] {
  const terms: SQL[] = [eq(captureCases.accountId, accountId)];
  const search = filter.search?.trim().toLowerCase();
  if (search) {
    // Substring match on the (account_id, case_number, created_at) index alone: SQLite reads the
    // account's index entries (no table rows) and fetches only the cases that match.
    terms.push(
      sql`${captureCases}.rowid IN (SELECT rowid FROM capture_cases INDEXED BY capture_cases_lookup WHERE account_id = ${accountId} AND instr(lower(case_number), ${search}) > 0)`,
    );
  }
  if (filter.lastResult) terms.push(eq(captureCases.lastResult, filter.lastResult));
  if (filter.createdFrom) terms.push(gte(captureCases.createdAt, filter.createdFrom));
  if (filter.createdBefore) terms.push(lt(captureCases.createdAt, filter.createdBefore));
  return terms;
}

/** The column counts. */
export function countQuery(db: Db, filter: SQL[]) {
  return db
    .select({ status: captureCases.status, n: count() })
    .from(captureCases)
    .where(and(...filter))
    .groupBy(captureCases.status);
}

/** One page of a column, newest first. */
export function columnQuery(db: Db, filter: SQL[], status: CaseStatus, limit: number, offset: number) {
  return (
    db
      .select(cardColumns)
      .from(captureCases)
      .where(and(...filter, eq(captureCases.status, status)))
      // Ties on created_at follow the index's own order: pages neither repeat nor skip a case.
      .orderBy(desc(captureCases.createdAt))
      .limit(limit)
      .offset(offset)
  );
}

export type CardRow = Awaited<ReturnType<typeof columnQuery>>[number];
export type VersionRow = Awaited<ReturnType<typeof versionQuery>>[number];

/**
 * Counts, version and one page of each column in one D1 batch (one round trip, one consistent
 * snapshot). `filter` comes from filterConditions, whose first term is the account.
 */
export async function readBoardSnapshot(
  db: Db,
  accountId: string,
  filter: SQL[],
  columns: { statuses: CaseStatus[]; size: number; offset: number },
) {
  const [countRows, versionRows, ...pages] = await db.batch([
    countQuery(db, filter),
    versionQuery(db, accountId),
    ...columns.statuses.map((status) => columnQuery(db, filter, status, columns.size, columns.offset)),
  ] as unknown as [
    ReturnType<typeof countQuery>,
    ReturnType<typeof versionQuery>,
    ...ReturnType<typeof columnQuery>[],
  ]);
  return {
    countRows: countRows as { status: CaseStatus; n: number }[],
    versionRows: versionRows as VersionRow[],
    pages: pages as CardRow[][],
  };
}

/** The notes on the account's case, newest first, with their handlers' names. */
export function findCaseNotes(db: Db, accountId: string, caseId: string) {
  return db
    .select({ id: caseNotes.id, body: caseNotes.body, createdAt: caseNotes.createdAt, handlerName: handlers.name })
    .from(caseNotes)
    .innerJoin(handlers, eq(handlers.id, caseNotes.handlerId))
    .where(and(eq(caseNotes.caseId, caseId), eq(handlers.accountId, accountId)))
    .orderBy(desc(caseNotes.createdAt));
}

/** For the note's batch (under the case's lock, the case found with the handler's account). */
export function insertCaseNoteStatement(db: Db, note: typeof caseNotes.$inferInsert) {
  return db.insert(caseNotes).values(note);
}

import { and, count, desc, eq, gte, lt, max, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, captureCases, caseStatuses, type CaptureResult, type CaseStatus } from "../db/schema";
import { manualReasonOf, MANUAL_REASON_ACTIONS, type ManualReason } from "./manual-reason";

/** Cards per column on the overview (all four columns side by side). */
export const OVERVIEW_SIZE = 12;
/** Cards per page when one column is opened on its own. */
export const PAGE_SIZE = 25;

/** What a handler narrows the board to; every field optional. */
export interface BoardFilter {
  /** Part of a case number (slashes allowed), matched case-insensitively. */
  search?: string;
  lastResult?: CaptureResult;
  /** Created on or after (inclusive). */
  createdFrom?: Date;
  /** Created before (exclusive; the day after the handler's "to" date). */
  createdBefore?: Date;
}

export interface BoardQuery extends BoardFilter {
  /** One column on its own, paginated; absent: the overview of all four. */
  column?: CaseStatus;
  /** 1-based page of the opened column. */
  page: number;
}

/** One case as a card on the board. */
export interface CaseCard {
  id: string;
  caseNumber: string;
  status: CaseStatus;
  lastResult: CaptureResult | null;
  finalDecision: string | null;
  vnName: string | null;
  createdAt: Date;
  updatedAt: Date;
  reminderCount: number;
  retriggerCount: number;
  /** Why a `manual` case waits for a handler; null in other columns. */
  manualReason: ManualReason | null;
  /** An invitation or reminder e-mail came back undelivered. */
  bounced: boolean;
}

export interface BoardColumn {
  status: CaseStatus;
  /** Cases in this column matching the filter. */
  total: number;
  cards: CaseCard[];
  page: number;
  pages: number;
}

export interface BoardList {
  counts: Record<CaseStatus, number>;
  columns: BoardColumn[];
  /** The account's board version when the list was read (see `boardVersion`). */
  version: string;
  /**
   * The account sends its links itself (eigenversand): the cron sends no reminders, so a case in the
   * reminder column waits for the handler to remind the policyholder.
   */
  remindersByHandler: boolean;
}

/**
 * The board: counts per column, the newest cards and the board version, all scoped to the account
 * (DESIGN §4), read in one D1 batch (one round trip, one consistent snapshot). A page past the
 * last is read again as the last page.
 */
export async function listBoard(db: Db, accountId: string, query: BoardQuery): Promise<BoardList> {
  const filter = filterConditions(accountId, query);
  const statuses = query.column ? [query.column] : [...caseStatuses];
  const size = query.column ? PAGE_SIZE : OVERVIEW_SIZE;
  // Pages belong to a column opened on its own; the overview always shows each column's newest.
  const wanted = query.column ? Math.max(1, query.page) : 1;
  const [countRows, versionRows, ...pages] = await db.batch([
    countQuery(db, filter),
    versionQuery(db, accountId),
    ...statuses.map((status) => columnQuery(db, filter, status, size, (wanted - 1) * size)),
  ] as unknown as [
    ReturnType<typeof countQuery>,
    ReturnType<typeof versionQuery>,
    ...ReturnType<typeof columnQuery>[],
  ]);
  const counts = { sent: 0, reminder: 0, manual: 0, closed: 0 };
  for (const row of countRows as { status: CaseStatus; n: number }[]) counts[row.status] = row.n;
  const columns = await Promise.all(
    statuses.map(async (status, i) => {
      const total = counts[status];
      const last = Math.max(1, Math.ceil(total / size));
      const page = Math.min(wanted, last);
      const rows = (
        page === wanted ? pages[i] : await columnQuery(db, filter, status, size, (page - 1) * size)
      ) as CardRow[];
      return { status, total, page, pages: last, cards: rows.map(toCard) };
    }),
  );
  const account = await db.query.accounts.findFirst({
    where: eq(accounts.id, accountId),
    columns: { communicationMode: true },
  });
  const remindersByHandler = account?.communicationMode === "eigenversand";
  return { counts, columns, version: versionOf(versionRows as VersionRow[]), remindersByHandler };
}

type CardRow = Awaited<ReturnType<typeof columnQuery>>[number];
type VersionRow = Awaited<ReturnType<typeof versionQuery>>[number];

function toCard({ lastManualAction, bounced, ...row }: CardRow): CaseCard {
  return {
    ...row,
    manualReason: row.status === "manual" ? manualReasonOf(row.lastResult, lastManualAction) : null,
    bounced: Boolean(bounced),
  };
}

/**
 * A fingerprint of everything the account's board shows: the newest change and the number of
 * cases. Every state change writes `updated_at`; the count also catches two cases created in the
 * same millisecond. Both come from the (account_id, updated_at) index alone (no table rows).
 */
export async function boardVersion(db: Db, accountId: string): Promise<string> {
  return versionOf(await versionQuery(db, accountId));
}

const versionOf = ([row]: VersionRow[]) => `${row?.n ?? 0}-${row?.latest?.getTime() ?? 0}`;

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

/** The column counts (built apart from running, so the bench can show its plan). */
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

import { and, count, desc, eq, gte, inArray, lt, max, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { captureCases, captureEvents, caseStatuses, type CaptureResult, type CaseStatus } from "../db/schema";
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
}

/** The board: counts per column and the newest cards, all scoped to the account (DESIGN §4). */
export async function listBoard(db: Db, accountId: string, query: BoardQuery): Promise<BoardList> {
  const filter = filterConditions(accountId, query);
  const counts = await countByStatus(db, filter);
  const statuses = query.column ? [query.column] : caseStatuses;
  const size = query.column ? PAGE_SIZE : OVERVIEW_SIZE;
  const columns = await Promise.all(
    statuses.map(async (status) => {
      const total = counts[status];
      const pages = Math.max(1, Math.ceil(total / size));
      const page = Math.min(Math.max(1, query.page), pages);
      const rows = total === 0 ? [] : await columnQuery(db, filter, status, size, (page - 1) * size);
      return { status, total, page, pages, rows };
    }),
  );
  const flags = await caseFlags(
    db,
    columns.flatMap((c) => c.rows.map((r) => r.id)),
  );
  return {
    counts,
    columns: columns.map(({ rows, ...column }) => ({
      ...column,
      cards: rows.map((row) => {
        const f = flags.get(row.id);
        return {
          ...row,
          manualReason: row.status === "manual" ? manualReasonOf(row.lastResult, f?.lastManualAction ?? null) : null,
          bounced: f?.bounced ?? false,
        };
      }),
    })),
  };
}

/**
 * A fingerprint of everything the account's board shows: the newest change and the number of
 * cases. Every state change writes `updated_at`; the count also catches two cases created in the
 * same millisecond. Both come from the (account_id, updated_at) index alone (no table rows).
 */
export async function boardVersion(db: Db, accountId: string): Promise<string> {
  const [row] = await versionQuery(db, accountId);
  return `${row?.n ?? 0}-${row?.latest?.getTime() ?? 0}`;
}

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

async function countByStatus(db: Db, filter: SQL[]): Promise<Record<CaseStatus, number>> {
  const rows = await countQuery(db, filter);
  const counts = { sent: 0, reminder: 0, manual: 0, closed: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** Per case on the page: the event that sent it to `manual` last, and whether a message bounced. */
async function caseFlags(db: Db, caseIds: string[]) {
  const flags = new Map<string, { lastManualAction: string | null; bounced: boolean }>();
  if (caseIds.length === 0) return flags;
  const rows = await db
    .select({ caseId: captureEvents.caseId, action: captureEvents.action, seq: captureEvents.seq })
    .from(captureEvents)
    .where(
      and(inArray(captureEvents.caseId, caseIds), inArray(captureEvents.action, [...MANUAL_REASON_ACTIONS, BOUNCED])),
    )
    .orderBy(captureEvents.caseId, captureEvents.seq);
  for (const row of rows) {
    const f = flags.get(row.caseId) ?? { lastManualAction: null, bounced: false };
    if (row.action === BOUNCED) f.bounced = true;
    else f.lastManualAction = row.action;
    flags.set(row.caseId, f);
  }
  return flags;
}

const BOUNCED = "invitation_bounced";

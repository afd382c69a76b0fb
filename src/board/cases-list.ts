import { findAccount } from "../accounts/repository";
import type { Db } from "../db/client";
import { caseStatuses, type CaptureResult, type CaseStatus } from "../db/schema";
import { manualReasonOf, type ManualReason } from "./manual-reason";
import {
  columnQuery,
  filterConditions,
  readBoardSnapshot,
  versionQuery,
  type CardRow,
  type VersionRow,
} from "./repository";

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
  const { countRows, versionRows, pages } = await readBoardSnapshot(db, accountId, filter, {
    statuses,
    size,
    offset: (wanted - 1) * size,
  });
  const counts = { sent: 0, reminder: 0, manual: 0, closed: 0 };
  for (const row of countRows) counts[row.status] = row.n;
  const columns = await Promise.all(
    statuses.map(async (status, i) => {
      const total = counts[status];
      const last = Math.max(1, Math.ceil(total / size));
      const page = Math.min(wanted, last);
      const rows = page === wanted ? pages[i] : await columnQuery(db, filter, status, size, (page - 1) * size);
      return { status, total, page, pages: last, cards: rows.map(toCard) };
    }),
  );
  const account = await findAccount(db, accountId);
  const remindersByHandler = account?.communicationMode === "eigenversand";
  return { counts, columns, version: versionOf(versionRows), remindersByHandler };
}

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

import type { Db } from "../db/client";
import { notFound } from "../lib/problem";
import { findCaseById, findLatestCase } from "./repository/cases";

/** Spec 4.2: ticketId selects exactly that case (and wins); caseNumber the most recent one. */
export async function resolveCase(db: Db, accountId: string, query: { ticketId?: string; caseNumber?: string }) {
  const row =
    query.ticketId !== undefined
      ? await findCaseById(db, accountId, query.ticketId)
      : await findLatestCase(db, accountId, query.caseNumber!);
  if (!row) throw notFound("Capture case");
  return row;
}

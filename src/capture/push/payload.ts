import type { Db } from "../../db/client";
import type { CommunicationMode } from "../../db/schema";
import type { Env } from "../../env";
import { isoWithOffset } from "../../lib/clock";
import type { CaseRow } from "../repository/cases";
import { statusView } from "../status-view";

/**
 * The body of a result push (DESIGN §14). `timestamp` is when the case closed, so every retry of
 * one close sends the same body; the attempt's own time is the `webhook-timestamp` header.
 */
export async function pushPayload(db: Db, env: Env, row: CaseRow, communicationMode: CommunicationMode) {
  const view = await statusView(db, env, row, communicationMode);
  return {
    type: "capture.closed" as const,
    timestamp: isoWithOffset(row.closedAt ?? row.updatedAt)!,
    data: {
      ticketId: view.ticketId,
      caseNumber: view.caseNumber,
      status: view.status,
      lastResult: view.lastResult,
      finalDecision: view.finalDecision,
      closedAt: view.closedAt,
      sessions: view.sessions,
    },
  };
}

import type { Db } from "../db/client";
import type { CommunicationMode } from "../db/schema";
import type { Env } from "../env";
import { isoWithOffset } from "../lib/clock";
import { BOARD_ONLY_ACTIONS } from "./lifecycle";
import { captureLink } from "./links";
import { loadCaseDetails, type CaseRow } from "./repository/cases";

/** The status record of spec 2.4. Internal notes are never part of it, nor the events that they were written. */
export async function statusView(db: Db, env: Env, row: CaseRow, communicationMode: CommunicationMode) {
  const { sessions, scenes, events, lastPush } = await loadCaseDetails(db, row.id);
  const current = sessions[sessions.length - 1];
  return {
    ticketId: row.id,
    caseNumber: row.caseNumber,
    status: row.status,
    closed: row.closed,
    lastResult: row.lastResult,
    finalDecision: row.finalDecision,
    attemptCount: current?.attemptCount ?? 0,
    retriggerCount: row.retriggerCount,
    reminderCount: row.reminderCount,
    createdAt: isoWithOffset(row.createdAt)!,
    updatedAt: isoWithOffset(row.updatedAt)!,
    closedAt: isoWithOffset(row.closedAt),
    communicationMode,
    captureLink: captureLink(env.PUBLIC_BASE_URL, current.token),
    sessions: sessions.map((s) => ({
      sessionNumber: s.sessionNumber,
      sessionId: s.id,
      captureLink: captureLink(env.PUBLIC_BASE_URL, s.token),
      triggeredAt: isoWithOffset(s.triggeredAt)!,
      attemptCount: s.attemptCount,
      finalStatus: s.finalStatus ?? "open",
    })),
    scenes: scenes.map((s) => ({ description: s.description, completed: s.completedAt !== null })),
    resultPush:
      lastPush && lastPush.status !== "pending"
        ? { status: lastPush.status, at: isoWithOffset(lastPush.at)!, statusCode: lastPush.statusCode ?? 0 }
        : null,
    events: events
      .filter((e) => !BOARD_ONLY_ACTIONS.has(e.action))
      .map((e) => ({ timestamp: isoWithOffset(e.timestamp)!, action: e.action, actor: e.actor })),
  };
}

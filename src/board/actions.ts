import { findAccount } from "../accounts/repository";
import { getDb } from "../db/client";
import type { Env } from "../env";
import { caseLockFor, unwrap } from "../capture/case-lock";
import { dispatchNotifications } from "../capture/notification-dispatch";
import { findCaseById } from "../capture/repository/cases";
import { retriggerLocked, transitionLocked } from "../capture/service";
import { clock } from "../lib/clock";
import { newId } from "../lib/ids";
import { ApiError, notFound } from "../lib/problem";
import { insertCaseNoteStatement } from "./repository";

/** The decisions a handler closes with (`closed_io` stays automatic). */
export const HANDLER_DECISIONS = ["betrug_bestaetigt", "manuell_geprueft", "sonstiges"] as const;
export type HandlerDecision = (typeof HANDLER_DECISIONS)[number];

/** Longest internal note, in characters. */
export const NOTE_MAX_LENGTH = 4000;

/**
 * A handler's change to a case. `seenVersion` is the case's `updatedAt` (ms) on the page the
 * handler decided on: a close or re-trigger on a case that changed since is refused, so nobody
 * acts on a state they have not seen. A note only adds, so it needs no version.
 */
export type BoardAction =
  | { kind: "close"; decision: HandlerDecision; seenVersion: number }
  | { kind: "retrigger"; seenVersion: number }
  | { kind: "note"; body: string };

/**
 * Runs the action under the case's CaseLock (DESIGN §1): two handlers at once are serialised. A
 * re-trigger's invitations go to the providers after the lock, as the API's re-trigger does
 * (src/capture/commands.ts): a slow provider must not hold up the case.
 */
export async function runBoardAction(
  env: Env,
  handler: { id: string; accountId: string },
  caseId: string,
  action: BoardAction,
): Promise<void> {
  const row = await findCaseById(getDb(env.DB), handler.accountId, caseId);
  if (!row) throw notFound("Capture case");
  const { outboxIds } = await unwrap(
    caseLockFor(env, handler.accountId, row.caseNumber).boardAction(handler, caseId, action),
  );
  if (outboxIds.length > 0) await dispatchNotifications(env, outboxIds);
}

/** The action itself (call only under the case's CaseLock, through `CaseLock.boardAction`). */
export async function boardActionLocked(
  env: Env,
  handler: { id: string; accountId: string },
  caseId: string,
  action: BoardAction,
): Promise<{ outboxIds: string[] }> {
  const db = getDb(env.DB);
  const current = await findCaseById(db, handler.accountId, caseId);
  if (!current) throw notFound("Capture case");
  if (current.closed)
    throw new ApiError(409, "case-closed", "The case is closed and can no longer be changed.", {
      body: { caseStatus: current.status },
    });
  if (action.kind !== "note" && current.updatedAt.getTime() !== action.seenVersion)
    throw new ApiError(409, "case-changed", "The case changed meanwhile. Please check its current state.", {
      body: { caseStatus: current.status },
    });
  const actor = `handler:${handler.id}` as const;
  switch (action.kind) {
    case "close":
      // The same transition as every close: it records the result push owed (transitionLocked).
      await transitionLocked(env, handler.accountId, caseId, "manualClose", { actor, decision: action.decision });
      return { outboxIds: [] };
    case "retrigger": {
      const account = await findAccount(db, handler.accountId);
      if (!account) throw notFound("Account");
      const { outboxIds } = await retriggerLocked(env, account, caseId, actor);
      return { outboxIds };
    }
    case "note":
      await transitionLocked(env, handler.accountId, caseId, "noteAdded", {
        actor,
        statements: [
          insertCaseNoteStatement(db, {
            id: newId(),
            caseId,
            handlerId: handler.id,
            body: action.body,
            createdAt: clock.now(),
          }),
        ],
      });
      return { outboxIds: [] };
  }
}

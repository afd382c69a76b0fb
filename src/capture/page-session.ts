import { getDb } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../lib/problem";
import {
  findCaseById,
  findCaseByInternalId,
  findSessionByToken,
  type CaseRow,
  type SessionRow,
} from "./repository/cases";

/** The case and session behind a capture link. */
export interface PageSession {
  caseRow: CaseRow;
  session: SessionRow;
}

const TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** What a link is now: usable, unknown, replaced by a re-trigger, closed, or already handed in. */
export type LinkState = "open" | "unknown" | "superseded" | "closed" | "finished";

export async function loadLink(env: Env, token: string): Promise<{ state: LinkState; found?: PageSession }> {
  if (!TOKEN.test(token)) return { state: "unknown" };
  const db = getDb(env.DB);
  const session = await findSessionByToken(db, token);
  if (!session) return { state: "unknown" };
  const caseRow = await findCaseByInternalId(db, session.caseId);
  if (!caseRow) return { state: "unknown" };
  const found = { caseRow, session };
  if (session.finalStatus === "superseded") return { state: "superseded", found };
  if (session.finalStatus === "closed" || caseRow.closed) return { state: "closed", found };
  if (caseRow.status === "manual") return { state: "finished", found };
  return { state: "open", found };
}

/** The session of a link that still takes photos; otherwise the clear refusal of that state. */
export async function requireOpenLink(env: Env, token: string): Promise<PageSession> {
  const { state, found } = await loadLink(env, token);
  if (state === "open") return found!;
  throw linkRefusal(state);
}

export function linkRefusal(state: Exclude<LinkState, "open">): ApiError {
  switch (state) {
    case "unknown":
      return new ApiError(404, "link-not-found", "This capture link does not exist.");
    case "superseded":
      return new ApiError(
        410,
        "link-superseded",
        "This link has been replaced by a newer one. Nothing was accepted; please use the most recent message you received.",
      );
    case "closed":
      return new ApiError(410, "case-closed", "This case is closed. Nothing was accepted.");
    case "finished":
      return new ApiError(
        409,
        "capture-finished",
        "The photos of this case have been handed in and are being reviewed. Nothing further is accepted.",
      );
  }
}

/** Re-reads the case (after a change made through the lock). */
export async function reloadCase(env: Env, accountId: string, caseId: string): Promise<CaseRow> {
  return (await findCaseById(getDb(env.DB), accountId, caseId))!;
}

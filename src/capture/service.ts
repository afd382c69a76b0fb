import type { BatchItem } from "drizzle-orm/batch";
import { getDb, type Db } from "../db/client";
import type { captureCases, CommunicationMode, FinalDecision } from "../db/schema";
import type { AccountRecord } from "../accounts/service";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { newId, newToken } from "../lib/ids";
import { ApiError } from "../lib/problem";
import { nextState, transitions, type Actor, type TransitionName } from "./lifecycle";
import { captureLink } from "./links";
import { invitationRows, NOTHING_SENT, smsOffer, type NotificationStatus, type OutboxRow } from "./notifications";
import { enqueuePush, pushOnClose } from "./push/schedule";
import {
  applyTransition,
  findCaseById,
  findCurrentSession,
  findOpenCase,
  insertNewCase,
  insertSessionStatement,
  nextEventSeq,
  supersedeSessionStatement,
  type CaseRow,
} from "./repository/cases";
import { insertOutboxStatements } from "./repository/messages";
import { usableScenes } from "./scenes";

/** Input of a create call after validation (spec 2.1). */
export interface CreateCaseInput {
  caseNumber: string;
  sbEmail?: string;
  vnName?: string;
  vnEmail?: string;
  vnPhone?: string;
  customNote?: string;
  scenes?: { description: string }[];
  reminders?: boolean;
}

/** The body of spec 2.3. */
export interface CaseLinkView {
  ticketId: string;
  caseNumber: string;
  captureLink: string;
  sessionId: string;
  communicationMode: CommunicationMode;
  notificationStatus: NotificationStatus;
}

/** `outboxIds`: the invitations written with the case, for dispatchNotifications (notification-dispatch.ts). */
export type CreateOutcome =
  | { created: true; view: CaseLinkView; outboxIds: string[] }
  | { created: false; view: CaseLinkView };

/** Creates the case unless one is open (call only under the case's CaseLock). */
export async function createCaseLocked(
  env: Env,
  account: AccountRecord,
  input: CreateCaseInput,
): Promise<CreateOutcome> {
  const db = getDb(env.DB);
  const existing = await findOpenCase(db, account.id, input.caseNumber);
  if (existing) return { created: false, view: await linkView(db, env, account, existing) };

  const now = clock.now();
  const caseId = newId();
  const session = { id: newId(), caseId, sessionNumber: 1, token: newToken(), triggeredAt: now, finalStatus: "open" };
  const link = captureLink(env.PUBLIC_BASE_URL, session.token);
  const caseRow = {
    id: caseId,
    accountId: account.id,
    caseNumber: input.caseNumber,
    status: "sent" as const,
    lastResult: "pending" as const,
    remindersEnabled: input.reminders ?? false,
    sbEmail: input.sbEmail ?? null,
    vnName: input.vnName ?? null,
    vnEmail: input.vnEmail ?? null,
    vnPhone: input.vnPhone ?? null,
    customNote: input.customNote ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const messages = invitationRows(account, { ...caseRow, caseId }, link, "invitation", smsOffer(env));
  const scenes = usableScenes(input.scenes).map((description, i) => ({
    id: newId(),
    caseId,
    position: i + 1,
    description,
  }));

  // One D1 batch is one transaction: the case exists completely or not at all.
  await insertNewCase(db, {
    caseRow,
    session,
    event: { id: newId(), caseId, seq: 1, timestamp: now, action: "capture_triggered", actor: "API" },
    scenes,
    messages,
  });
  return { created: true, view: viewOf(caseRow, session.id, link, account), outboxIds: idsOf(messages) };
}

export interface TransitionOptions {
  actor: Actor;
  decision?: FinalDecision;
  /** Extra column changes that belong to the same step (counters, timestamps). */
  casePatch?: Partial<typeof captureCases.$inferInsert>;
  /** Extra statements written in the same transaction. */
  statements?: BatchItem<"sqlite">[];
}

/** Applies a lifecycle transition and appends its event (call only under the case's CaseLock). */
export async function transitionLocked(
  env: Env,
  accountId: string,
  caseId: string,
  name: TransitionName,
  opts: TransitionOptions,
): Promise<CaseRow> {
  const db = getDb(env.DB);
  const current = await findCaseById(db, accountId, caseId);
  if (!current) throw new ApiError(404, "not-found", "Capture case was not found.");
  const now = clock.now();
  const next = nextState(current, name, now, opts.decision);
  if (!next) {
    throw new ApiError(
      409,
      "transition-not-allowed",
      `The case is ${current.status}; "${transitions[name].action}" is not possible now.`,
      {
        body: { ticketId: current.id, caseStatus: current.status },
      },
    );
  }
  const seq = await nextEventSeq(db, caseId);
  const closing = next.closed && !current.closed;
  // Every close, automatic or by a handler, passes here: the result push is owed from this batch on.
  const push = closing ? await pushOnClose(db, accountId, caseId, now) : null;
  await applyTransition(
    db,
    {
      caseId,
      fromStatus: current.status,
      patch: { ...next, ...opts.casePatch, updatedAt: now },
      event: { id: newId(), caseId, seq, timestamp: now, action: transitions[name].action, actor: opts.actor },
      closing,
    },
    [...(push ? [push.statement] : []), ...(opts.statements ?? [])],
  );
  if (push) await enqueuePush(env, push.deliveryId, 1);
  return { ...current, ...next, ...opts.casePatch, updatedAt: now } as CaseRow;
}

/**
 * Re-trigger (DESIGN §15): new session and link, the old link stops working (call under CaseLock).
 * `outboxIds`: the new invitations, for dispatchNotifications.
 */
export async function retriggerLocked(
  env: Env,
  account: AccountRecord,
  caseId: string,
  actor: Actor,
): Promise<{ view: CaseLinkView; outboxIds: string[] }> {
  const db = getDb(env.DB);
  const current = await findCaseById(db, account.id, caseId);
  if (!current) throw new ApiError(404, "not-found", "Capture case was not found.");
  const previous = await findCurrentSession(db, caseId);
  const now = clock.now();
  const session = {
    id: newId(),
    caseId,
    sessionNumber: (previous?.sessionNumber ?? 0) + 1,
    token: newToken(),
    triggeredAt: now,
    finalStatus: "open",
  };
  const link = captureLink(env.PUBLIC_BASE_URL, session.token);
  const messages = invitationRows(account, { ...current, caseId }, link, "invitation", smsOffer(env));
  await transitionLocked(env, account.id, caseId, "retrigger", {
    actor,
    casePatch: { retriggerCount: current.retriggerCount + 1 },
    statements: [
      ...(previous ? [supersedeSessionStatement(db, previous.id, now)] : []),
      insertSessionStatement(db, session),
      ...insertOutboxStatements(db, messages),
    ],
  });
  return { view: viewOf(current, session.id, link, account), outboxIds: idsOf(messages) };
}

async function linkView(db: Db, env: Env, account: AccountRecord, row: CaseRow): Promise<CaseLinkView> {
  const session = await findCurrentSession(db, row.id);
  return viewOf(row, session!.id, captureLink(env.PUBLIC_BASE_URL, session!.token), account);
}

/** The link view; nothing has been accepted by a provider yet (dispatchNotifications fills that in). */
function viewOf(
  row: { id: string; caseNumber: string },
  sessionId: string,
  link: string,
  account: AccountRecord,
): CaseLinkView {
  return {
    ticketId: row.id,
    caseNumber: row.caseNumber,
    captureLink: link,
    sessionId,
    communicationMode: account.communicationMode,
    notificationStatus: NOTHING_SENT,
  };
}

const idsOf = (rows: readonly OutboxRow[]) => rows.map((row) => row.id!);

import type { CheckReason } from "../capture/checks/types";
import { findAccount, findHandlerNames } from "../accounts/repository";
import type { Db } from "../db/client";
import type { CaptureResult, CommunicationMode } from "../db/schema";
import { captureLink } from "../capture/links";
import type { PhotoVerdict } from "../capture/checks";
import type { CheckStatus } from "../capture/checks/types";
import { findCaseById, loadCaseDetails, type CaseRow } from "../capture/repository/cases";
import { findCaseMessages } from "../capture/repository/messages";
import { findCasePhotoKey, findCasePhotos } from "../capture/repository/photos";
import { manualReasonOf, MANUAL_REASON_ACTIONS, type ManualReason } from "./manual-reason";
import { findCaseNotes } from "./repository";

/** The four automatic checks of a photo, in the order the board shows them. */
export const CHECK_NAMES = ["scene", "camera", "recapture", "location"] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export interface CheckView {
  name: CheckName;
  status: CheckStatus;
  reasons: CheckReason[];
  /** The measured numbers behind the decision, flattened to label/value pairs. */
  evidence: { key: string; value: string }[];
}

/** What the capture page attested about a shot, in a form a handler can read. */
export interface AttestationView {
  capturedAt: Date | null;
  receivedAt: Date | null;
  deviceLabel: string | null;
  cameraLabel: string | null;
  track: string | null;
  /** "52.52000, 13.40500 (± 12 m)" or null when the policyholder shared no position. */
  position: string | null;
  network: string | null;
}

export interface PhotoView {
  id: string;
  sessionNumber: number;
  attempt: number;
  scenePosition: number | null;
  sceneDescription: string | null;
  verdict: PhotoVerdict;
  sceneOverride: boolean;
  checks: CheckView[];
  attestation: AttestationView;
}

export interface CaseDetail {
  row: CaseRow;
  /** The account's delivery mode: whether a re-trigger sends the invitation again. */
  communicationMode: CommunicationMode;
  manualReason: ManualReason | null;
  sessions: {
    number: number;
    id: string;
    link: string;
    triggeredAt: Date;
    attemptCount: number;
    finalStatus: string;
    current: boolean;
  }[];
  scenes: { position: number; description: string; completedAt: Date | null }[];
  photos: PhotoView[];
  events: { timestamp: Date; action: string; actor: string }[];
  resultPush: { status: string; at: Date; statusCode: number | null; attempts: number } | null;
  notes: { id: string; body: string; createdAt: Date; handlerName: string }[];
  messages: {
    kind: string;
    channel: string;
    recipient: string;
    status: string;
    createdAt: Date;
    sentAt: Date | null;
  }[];
  bounced: boolean;
  /** Names of the handlers who appear as `handler:<id>` actors in the events. */
  handlerNames: Map<string, string>;
}

/** Everything the case page shows, or null when the case is not the account's (DESIGN §4). */
export async function loadCaseDetail(
  db: Db,
  publicBaseUrl: string,
  accountId: string,
  caseId: string,
): Promise<CaseDetail | null> {
  const row = await findCaseById(db, accountId, caseId);
  if (!row) return null;
  const [details, photos, notes, messages, account] = await Promise.all([
    loadCaseDetails(db, caseId),
    findCasePhotos(db, caseId),
    findCaseNotes(db, accountId, caseId),
    findCaseMessages(db, accountId, caseId),
    findAccount(db, accountId),
  ]);
  const { sessions, scenes, events, lastPush } = details;
  const sessionNumber = new Map(sessions.map((s) => [s.id, s.sessionNumber]));
  const sceneText = new Map(scenes.map((s) => [s.position, s.description]));
  const handlerNames = await findHandlerNames(
    db,
    accountId,
    events.flatMap((e) => (e.actor.startsWith(HANDLER_ACTOR) ? [e.actor.slice(HANDLER_ACTOR.length)] : [])),
  );
  const lastManual = events.filter((e) => MANUAL_REASON_ACTIONS.includes(e.action)).at(-1)?.action ?? null;
  return {
    row,
    communicationMode: account?.communicationMode ?? "eigenversand",
    manualReason: row.status === "manual" ? manualReasonOf(row.lastResult as CaptureResult, lastManual) : null,
    sessions: sessions.map((s, i) => ({
      number: s.sessionNumber,
      id: s.id,
      link: captureLink(publicBaseUrl, s.token),
      triggeredAt: s.triggeredAt,
      attemptCount: s.attemptCount,
      finalStatus: s.finalStatus ?? "open",
      current: i === sessions.length - 1,
    })),
    scenes: scenes.map((s) => ({ position: s.position, description: s.description, completedAt: s.completedAt })),
    photos: photos.map((p) => ({
      id: p.id,
      sessionNumber: sessionNumber.get(p.sessionId) ?? 0,
      attempt: p.attempt,
      scenePosition: p.scenePosition,
      sceneDescription: p.scenePosition === null ? null : (sceneText.get(p.scenePosition) ?? null),
      verdict: p.verdict as PhotoVerdict,
      sceneOverride: p.checks.sceneOverride === true,
      checks: CHECK_NAMES.map((name) => checkView(name, p.checks[name])),
      attestation: attestationView(p.attestation),
    })),
    events: events.map((e) => ({ timestamp: e.timestamp, action: e.action, actor: e.actor })),
    resultPush: lastPush
      ? { status: lastPush.status, at: lastPush.at, statusCode: lastPush.statusCode, attempts: lastPush.attempts }
      : null,
    notes,
    messages,
    bounced: messages.some((m) => m.status === "failed") || events.some((e) => e.action === "invitation_bounced"),
    handlerNames,
  };
}

const HANDLER_ACTOR = "handler:";

/** A stored photo's R2 key, only if the photo belongs to a case of the account. */
export async function findPhotoKey(db: Db, accountId: string, caseId: string, photoId: string) {
  const row = await findCaseById(db, accountId, caseId);
  if (!row) return null;
  return findCasePhotoKey(db, row.id, photoId);
}

function checkView(name: CheckName, stored: unknown): CheckView {
  const check = (stored ?? {}) as { status?: CheckStatus; reasons?: CheckView["reasons"]; evidence?: unknown };
  return {
    name,
    status: check.status ?? "unknown",
    reasons: Array.isArray(check.reasons) ? check.reasons : [],
    evidence: flatten(check.evidence),
  };
}

/** Nested evidence as `a.b: value` pairs; numbers rounded to what a reader can use. */
function flatten(value: unknown, prefix = ""): { key: string; value: string }[] {
  if (value === null || value === undefined) return prefix ? [{ key: prefix, value: "–" }] : [];
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null))
      return [{ key: prefix, value: value.map((v) => show(v)).join(", ") }];
    return [{ key: prefix, value: `${value.length} ×` }];
  }
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      flatten(v, prefix ? `${prefix}.${k}` : k),
    );
  }
  return [{ key: prefix, value: show(value) }];
}

function show(v: unknown): string {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
  return String(v);
}

function attestationView(stored: Record<string, unknown>): AttestationView {
  const a = stored as {
    capturedAt?: number;
    receivedAt?: number;
    deviceLabel?: string;
    cameraLabel?: string;
    track?: { width?: number; height?: number };
    position?: { latitude: number; longitude: number; accuracy?: number } | null;
    network?: { latitude: number; longitude: number; country?: string } | null;
  };
  return {
    capturedAt: typeof a.capturedAt === "number" ? new Date(a.capturedAt) : null,
    receivedAt: typeof a.receivedAt === "number" ? new Date(a.receivedAt) : null,
    deviceLabel: a.deviceLabel || null,
    cameraLabel: a.cameraLabel || null,
    track: a.track?.width && a.track.height ? `${a.track.width} × ${a.track.height}` : null,
    position: a.position
      ? `${a.position.latitude.toFixed(5)}, ${a.position.longitude.toFixed(5)}${
          typeof a.position.accuracy === "number" ? ` (± ${Math.round(a.position.accuracy)} m)` : ""
        }`
      : null,
    network: a.network
      ? `${a.network.latitude.toFixed(2)}, ${a.network.longitude.toFixed(2)}${a.network.country ? ` ${a.network.country}` : ""}`
      : null,
  };
}

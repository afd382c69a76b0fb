import type { CaptureResult, CaseStatus, FinalDecision } from "../db/schema";

/** Who caused a change (spec 6: API and the capture system; plus cron and handlers). */
export type Actor = "API" | "capture" | "system" | `handler:${string}`;

/**
 * One transition of the case lifecycle (DESIGN §15). `to: "same"` keeps the column and only
 * records the event (scene completed, a failed attempt with tries left, push outcomes).
 */
export interface Transition {
  from: readonly CaseStatus[];
  to: CaseStatus | "same";
  action: string;
  lastResult?: CaptureResult;
  /** `"input"`: the handler's decision is required. */
  finalDecision?: FinalDecision | "input";
  /** The event stays on the board: the API's status record and the result push leave it out. */
  boardOnly?: true;
}

const OPEN = ["sent", "reminder", "manual"] as const;
const AWAITING_CAPTURE = ["sent", "reminder"] as const;
const ANY = ["sent", "reminder", "manual", "closed"] as const;

/** The lifecycle as data: every allowed change, its source columns, target and event. */
export const transitions = {
  retrigger: { from: OPEN, to: "sent", action: "capture_retriggered", lastResult: "pending" },
  reminderFirst: { from: AWAITING_CAPTURE, to: "reminder", action: "reminder_sent_auto_first" },
  // From `sent` too: a re-trigger after a reminder sets `sent`, and the next reminder is a follow-up.
  reminderFollowup: { from: AWAITING_CAPTURE, to: "reminder", action: "reminder_sent_auto_followup" },
  remindersExhausted: { from: AWAITING_CAPTURE, to: "manual", action: "escalated_to_manual" },
  sceneCompleted: { from: AWAITING_CAPTURE, to: "same", action: "capture_scene_completed" },
  attemptFailed: { from: AWAITING_CAPTURE, to: "same", action: "capture_result_nicht_io", lastResult: "nicht_io" },
  resultIo: {
    from: AWAITING_CAPTURE,
    to: "closed",
    action: "capture_result_io",
    lastResult: "io",
    finalDecision: "closed_io",
  },
  resultNichtIoFinal: {
    from: AWAITING_CAPTURE,
    to: "manual",
    action: "capture_result_nicht_io_final",
    lastResult: "nicht_io",
  },
  resultGpsSuspicious: {
    from: AWAITING_CAPTURE,
    to: "manual",
    action: "capture_result_io_gps_suspicious",
    lastResult: "io_gps_suspicious",
  },
  resultSceneOverride: {
    from: AWAITING_CAPTURE,
    to: "manual",
    action: "capture_result_io_scene_override",
    lastResult: "io_scene_override",
  },
  inspectionRequested: {
    from: AWAITING_CAPTURE,
    to: "manual",
    action: "capture_inspection_requested",
    lastResult: "inspection_requested",
  },
  claimWithdrawn: {
    from: AWAITING_CAPTURE,
    to: "manual",
    action: "capture_claim_withdrawn",
    lastResult: "claim_withdrawn",
  },
  manualClose: { from: OPEN, to: "closed", action: "manually_closed", finalDecision: "input" },
  /** A handler's internal note (board only): the event names no text; a closed case takes none. */
  noteAdded: { from: OPEN, to: "same", action: "internal_note_added", boardOnly: true },
  pushDelivered: { from: ANY, to: "same", action: "feedback_pushed" },
  pushFailed: { from: ANY, to: "same", action: "feedback_push_failed" },
  /** A delivery-status notification said an invitation/reminder e-mail could not be delivered (docs/e-mail.md). */
  notificationBounced: { from: ANY, to: "same", action: "invitation_bounced" },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof transitions;

/** Actions of board-only events (spec 3: internal notes are never returned, not even that one was written). */
export const BOARD_ONLY_ACTIONS: ReadonlySet<string> = new Set(
  Object.values(transitions).flatMap((t: Transition) => (t.boardOnly ? [t.action] : [])),
);

export interface CaseState {
  status: CaseStatus;
  lastResult: CaptureResult | null;
  finalDecision: FinalDecision | null;
  closed: boolean;
  closedAt: Date | null;
}

/** The state after `name`, or null when the transition is not allowed from `state`. */
export function nextState(
  state: CaseState,
  name: TransitionName,
  now: Date,
  decision?: FinalDecision,
): CaseState | null {
  const t: Transition = transitions[name];
  if (!t.from.includes(state.status)) return null;
  if (t.finalDecision === "input" && !decision) return null;
  const status = t.to === "same" ? state.status : t.to;
  const closing = status === "closed" && !state.closed;
  return {
    status,
    lastResult: t.lastResult ?? state.lastResult,
    finalDecision: t.finalDecision === "input" ? decision! : (t.finalDecision ?? state.finalDecision),
    closed: status === "closed",
    closedAt: closing ? now : state.closedAt,
  };
}

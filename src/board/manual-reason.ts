import type { CaptureResult } from "../db/schema";
import { transitions } from "../capture/lifecycle";

/** Why a case waits in `manual` (DESIGN §15), in words the board translates. */
export type ManualReason =
  | "attempts_failed"
  | "gps_suspicious"
  | "scene_override"
  | "inspection_requested"
  | "claim_withdrawn"
  | "reminders_exhausted";

/** The event of each transition into `manual`, and the reason it stands for. */
const BY_ACTION: Record<string, ManualReason> = {
  [transitions.resultNichtIoFinal.action]: "attempts_failed",
  [transitions.resultGpsSuspicious.action]: "gps_suspicious",
  [transitions.resultSceneOverride.action]: "scene_override",
  [transitions.inspectionRequested.action]: "inspection_requested",
  [transitions.claimWithdrawn.action]: "claim_withdrawn",
  [transitions.remindersExhausted.action]: "reminders_exhausted",
};

export const MANUAL_REASON_ACTIONS = Object.keys(BY_ACTION);

/**
 * The reason from the last event that moved the case to `manual`. Without such an event (older
 * data), `lastResult` says it, except for exhausted reminders, which leave `lastResult` as it was.
 */
export function manualReasonOf(lastResult: CaptureResult | null, lastManualAction: string | null): ManualReason {
  const byEvent = lastManualAction ? BY_ACTION[lastManualAction] : undefined;
  if (byEvent) return byEvent;
  switch (lastResult) {
    case "nicht_io":
      return "attempts_failed";
    case "io_gps_suspicious":
      return "gps_suspicious";
    case "io_scene_override":
      return "scene_override";
    case "inspection_requested":
      return "inspection_requested";
    case "claim_withdrawn":
      return "claim_withdrawn";
    default:
      return "reminders_exhausted";
  }
}

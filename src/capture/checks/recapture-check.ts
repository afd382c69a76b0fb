import { Parts } from "../../lib/parts";
import { classicalRecapture } from "./recapture-classical";
import { combinedRecapture } from "./recapture-combined";
import { learnedRecapture } from "./recapture-learned";
import { fromReasons, type CheckReason, type CheckResult, type RgbaImage } from "./types";

/** What a recapture detector says about one full-resolution crop. */
export interface RecaptureVerdict {
  recaptured: boolean;
  /** 0 (natural scene) … 1 (certainly a screen or print). */
  score: number;
  cues: CheckReason[];
  evidence: Record<string, unknown>;
}

/**
 * The seam for recapture detectors. The default is `combinedRecapture` (learned model and classical
 * spectral check, either one flags); `recaptureDetectors` picks one by setting, tests pass one directly.
 */
export interface RecaptureDetector {
  readonly name: string;
  detect(image: RgbaImage): RecaptureVerdict | Promise<RecaptureVerdict>;
}

/** The recapture detector of the capture checks, by setting `CAPTURE_RECAPTURE_DETECTOR` (default `combined`). */
export const recaptureDetectors = new Parts<RecaptureDetector>("CAPTURE_RECAPTURE_DETECTOR", {
  combined: combinedRecapture,
  learned: learnedRecapture,
  classical: classicalRecapture,
});

/** Recapture check: is this a photo of a screen or a printout rather than of the scene? */
export async function checkRecapture(
  detail: RgbaImage,
  detector: RecaptureDetector = combinedRecapture,
): Promise<CheckResult> {
  const verdict = await detector.detect(detail);
  return fromReasons(verdict.recaptured ? verdict.cues : [], {
    detector: detector.name,
    score: verdict.score,
    ...verdict.evidence,
  });
}

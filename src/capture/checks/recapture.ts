import { combinedRecapture } from "./recapture-combined";
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
 * spectral check, either one flags); tests swap in a single detector with `useRecaptureDetector`.
 */
export interface RecaptureDetector {
  readonly name: string;
  detect(image: RgbaImage): RecaptureVerdict | Promise<RecaptureVerdict>;
}

let active: RecaptureDetector = combinedRecapture;

/** Swaps the detector (tests). Returns the previous one. */
export function useRecaptureDetector(detector: RecaptureDetector): RecaptureDetector {
  const previous = active;
  active = detector;
  return previous;
}

/** Recapture check: is this a photo of a screen or a printout rather than of the scene? */
export async function checkRecapture(detail: RgbaImage): Promise<CheckResult> {
  const verdict = await active.detect(detail);
  return fromReasons(verdict.recaptured ? verdict.cues : [], { detector: active.name, score: verdict.score, ...verdict.evidence });
}

import { classicalRecapture } from "./recapture-classical";
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
 * The seam for recapture detectors: the classical one now; the learned model
 * (`src/scanner/ml/recapture.ts`, `detectRecapture(rgba)`) replaces it by `useRecaptureDetector`
 * without touching the callers.
 */
export interface RecaptureDetector {
  readonly name: string;
  detect(image: RgbaImage): RecaptureVerdict | Promise<RecaptureVerdict>;
}

let active: RecaptureDetector = classicalRecapture;

/** Swaps the detector (the learned one when it lands; tests). Returns the previous one. */
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

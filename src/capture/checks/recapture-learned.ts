import { detectRecapture } from "../../scanner/ml/recapture-inference";
import { RECAPTURE_THRESHOLDS } from "../../scanner/ml/thresholds";
import type { RecaptureDetector, RecaptureVerdict } from "./recapture-check";
import type { RgbaImage } from "./types";
import { checkReason } from "./reason-texts";

/**
 * The learned recapture model (models/recapture.md) behind the capture check's interface, on the
 * same full-resolution centre crop. Only its Red threshold counts as "recaptured": a failed attempt
 * costs the policyholder a try. Part of the default `combinedRecapture`.
 */
export const learnedRecapture: RecaptureDetector = {
  name: "learned-recapture-cnn",
  async detect(image: RgbaImage): Promise<RecaptureVerdict> {
    const result = await detectRecapture(image);
    const probability = result.probability ?? 0;
    const recaptured = probability >= RECAPTURE_THRESHOLDS.red;
    return {
      recaptured,
      score: Math.round(probability * 1000) / 1000,
      cues: recaptured ? [checkReason("model_screen", { percent: Math.round(probability * 100) })] : [],
      evidence: { model: result.model, patches: result.patches.length, flatPatches: result.flat.length },
    };
  },
};

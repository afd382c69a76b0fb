import { classicalRecapture } from "./recapture-classical";
import { learnedRecapture } from "./recapture-learned";
import type { RecaptureDetector, RecaptureVerdict } from "./recapture-check";
import type { RgbaImage } from "./types";

/**
 * The capture path's recapture detector: the learned model (models/recapture.md) and the classical
 * spectral check look at the same centre crop, and either one seeing a screen or print fails the
 * photo. They miss different things (the model: screens it was not trained on; the spectral check:
 * high-dpi screens without moiré), and a failed attempt only costs a retake, while a missed screen
 * closes a case as `io`. If the model cannot run, the classical verdict stands and the evidence says so.
 */
export const combinedRecapture: RecaptureDetector = {
  name: `${classicalRecapture.name}+${learnedRecapture.name}`,
  async detect(image: RgbaImage): Promise<RecaptureVerdict> {
    const classical = await classicalRecapture.detect(image);
    const learned = await learnedVerdict(image);
    return {
      recaptured: classical.recaptured || learned.recaptured,
      score: Math.max(classical.score, learned.score),
      cues: [...classical.cues, ...learned.cues],
      evidence: {
        classical: { recaptured: classical.recaptured, score: classical.score, ...classical.evidence },
        learned: { recaptured: learned.recaptured, score: learned.score, ...learned.evidence },
      },
    };
  },
};

async function learnedVerdict(image: RgbaImage): Promise<RecaptureVerdict> {
  try {
    return await learnedRecapture.detect(image);
  } catch (error) {
    return modelUnavailable(error);
  }
}

function modelUnavailable(error: unknown): RecaptureVerdict {
  const reason = error instanceof RangeError ? "image too small for the model" : "model could not run";
  console.warn("recapture model unavailable on the capture path", error);
  return { recaptured: false, score: 0, cues: [], evidence: { unavailable: reason } };
}

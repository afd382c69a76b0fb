/**
 * Screen/print recapture detector (models/recapture.md). Public entry for live capture and file
 * verification: `detectRecapture(rgba)` → score 0–1 that the picture is a photo of a screen or print.
 * The score is not a calibrated probability: compare it with RECAPTURE_THRESHOLDS (./thresholds.ts).
 */
import { recaptureModel, type ModelFile, type ModelIdentity } from "./models";
import { runModel } from "./runtime";
import { rgbaSource, type PixelSource, type RgbaImage } from "./raster";
import { PATCH, aggregatePatchScores, recapturePatches } from "./recapture-input";

export interface PatchScore {
  x: number;
  y: number;
  probability: number;
}

export interface RecaptureResult {
  /** Image score 0 … 1 (mean of the upper half of the patch scores); null when every patch was flat. */
  probability: number | null;
  patches: PatchScore[];
  /** Grid positions skipped as flat (no statement possible there). */
  flat: Array<{ x: number; y: number }>;
  model: ModelIdentity;
}

/** Patches per inference call: bounds the model's activation memory (≈ 6 MB per call). */
const BATCH = 8;

/** Smallest side the model can look at (one native-resolution patch). */
export const MIN_RECAPTURE_SIDE = PATCH;

/**
 * Scores an image given as RGBA (at least 128 × 128, full resolution: do not downscale first, the
 * screen grid lives in the finest detail). Rejects when the model cannot run; callers degrade.
 */
export async function detectRecapture(rgba: RgbaImage): Promise<RecaptureResult> {
  return detectRecaptureIn(rgbaSource(rgba));
}

/** Same on any pixel source; `model` is replaceable so tests can hand in a broken file. */
export async function detectRecaptureIn(
  source: PixelSource,
  model: ModelFile = recaptureModel,
): Promise<RecaptureResult> {
  if (source.width < PATCH || source.height < PATCH)
    throw new RangeError(`image ${source.width}x${source.height} is smaller than ${PATCH}x${PATCH}`);
  const { tensor, origins, flat } = recapturePatches(source);
  if (origins.length === 0) return { probability: null, patches: [], flat, model: model.identity };
  const probabilities = new Float32Array(origins.length);
  const size = 3 * PATCH * PATCH;
  for (let start = 0; start < origins.length; start += BATCH) {
    const count = Math.min(BATCH, origins.length - start);
    const input = {
      name: "image",
      data: tensor.subarray(start * size, (start + count) * size),
      dims: [count, 3, PATCH, PATCH],
    };
    const { probability } = await runModel(model, input, ["probability"]);
    probabilities.set(probability.data.subarray(0, count), start);
  }
  const patches = origins.map((o, i) => ({ ...o, probability: probabilities[i] }));
  return { probability: aggregatePatchScores(probabilities), patches, flat, model: model.identity };
}

/**
 * Input of the recapture model, identical to models/training/recapture_model.py: 128 × 128 patches at
 * NATIVE resolution (screen pixel grids and moiré die when resampled) on an evenly spread grid of at
 * most 6 × 6, flat patches skipped, RGB / 255 as float32 NCHW.
 */
import type { PixelSource } from "./raster";

export const PATCH = 128;
const GRID_MAX = 6;
/** Patches with a luma standard deviation below this (0–255) show nothing a screen would leave. */
export const FLAT_LUMA_STD = 2.0;

/** Top-left corners of the patch grid, row by row. */
export function patchOrigins(width: number, height: number): Array<{ x: number; y: number }> {
  const axis = (size: number): number[] => {
    const count = Math.min(GRID_MAX, Math.floor(size / PATCH));
    if (count <= 1) return [Math.floor((size - PATCH) / 2)];
    return Array.from({ length: count }, (_, i) => Math.floor((i * (size - PATCH)) / (count - 1)));
  };
  const xs = axis(width);
  return axis(height).flatMap((y) => xs.map((x) => ({ x, y })));
}

export interface RecapturePatches {
  /** N × 3 × 128 × 128, values 0–1. */
  tensor: Float32Array;
  origins: Array<{ x: number; y: number }>;
  /** Grid positions that were skipped as flat. */
  flat: Array<{ x: number; y: number }>;
}

/** Cuts the informative patches out of `source` (which must be at least 128 px on both sides). */
export function recapturePatches(source: PixelSource): RecapturePatches {
  const shared = source.shared?.patches;
  if (shared) return keepInformative(shared.origins, (i) => ({ band: shared.crops[i], width: PATCH, x0: 0 }));
  let bandY = -1;
  let band: Uint8Array = new Uint8Array(0);
  return keepInformative(patchOrigins(source.width, source.height), (_, origin) => {
    if (origin.y !== bandY) {
      band = source.rows(origin.y, PATCH);
      bandY = origin.y;
    }
    return { band, width: source.width, x0: origin.x };
  });
}

/** Where patch `i` lies: 128 rows of RGBA `width` pixels wide, the patch starting at column x0. */
type PatchAt = (i: number, origin: { x: number; y: number }) => { band: Uint8Array; width: number; x0: number };

function keepInformative(all: Array<{ x: number; y: number }>, at: PatchAt): RecapturePatches {
  const kept: Float32Array[] = [];
  const origins: Array<{ x: number; y: number }> = [];
  const flat: Array<{ x: number; y: number }> = [];
  all.forEach((origin, i) => {
    const { band, width, x0 } = at(i, origin);
    if (lumaStd(band, width, x0) < FLAT_LUMA_STD) flat.push(origin);
    else {
      kept.push(patchTensor(band, width, x0));
      origins.push(origin);
    }
  });
  const tensor = new Float32Array(kept.length * 3 * PATCH * PATCH);
  kept.forEach((patch, i) => tensor.set(patch, i * patch.length));
  return { tensor, origins, flat };
}

/** One patch as 3 × 128 × 128 (channel planes) in 0–1, from a band of 128 full-width RGBA rows. */
function patchTensor(band: Uint8Array, width: number, x0: number): Float32Array {
  const plane = PATCH * PATCH;
  const out = new Float32Array(3 * plane);
  for (let y = 0; y < PATCH; y++) {
    for (let x = 0; x < PATCH; x++) {
      const p = (y * width + x0 + x) * 4;
      const o = y * PATCH + x;
      out[o] = band[p] / 255;
      out[plane + o] = band[p + 1] / 255;
      out[2 * plane + o] = band[p + 2] / 255;
    }
  }
  return out;
}

/** Population standard deviation of BT.601 luma (0–255) of the patch at x0 in a band of RGBA rows. */
function lumaStd(band: Uint8Array, width: number, x0: number): number {
  const luma = new Float64Array(PATCH * PATCH);
  let sum = 0;
  for (let y = 0; y < PATCH; y++) {
    for (let x = 0; x < PATCH; x++) {
      const p = (y * width + x0 + x) * 4;
      const v = 0.299 * band[p] + 0.587 * band[p + 1] + 0.114 * band[p + 2];
      luma[y * PATCH + x] = v;
      sum += v;
    }
  }
  const mean = sum / luma.length;
  let squares = 0;
  for (const v of luma) squares += (v - mean) ** 2;
  return Math.sqrt(squares / luma.length);
}

/** Image score: mean of the upper half of the patch probabilities (same rule as training's `aggregate`). */
export function aggregatePatchScores(probabilities: ArrayLike<number>): number {
  const ordered = Array.from(probabilities).sort((a, b) => b - a);
  const top = ordered.slice(0, Math.ceil(ordered.length / 2));
  return top.reduce((s, p) => s + p, 0) / top.length;
}

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
  const all = patchOrigins(source.width, source.height);
  const kept: Float32Array[] = [];
  const origins: Array<{ x: number; y: number }> = [];
  const flat: Array<{ x: number; y: number }> = [];
  let bandY = -1;
  let band: Uint8Array = new Uint8Array(0);
  for (const origin of all) {
    if (origin.y !== bandY) {
      band = source.rows(origin.y, PATCH);
      bandY = origin.y;
    }
    if (lumaStd(band, source.width, origin.x) < FLAT_LUMA_STD) flat.push(origin);
    else {
      kept.push(patchTensor(band, source.width, origin.x));
      origins.push(origin);
    }
  }
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

/**
 * Whether the inside of a frame found by the cut-edge search is, on one of the independent per-block maps
 * (ELA, noise, JPEG coefficients: region-fusion.ts's families on its scale), the most out-of-line area of its
 * size in the whole picture. A frame too weak to report alone (seams.ts) counts when this holds: cut edges in
 * the pixels and an anomaly of compression or noise inside them are two observations of one area (issue 17:
 * "two independent detectors agreeing on one region count more than either alone"). Calibrated on the
 * seed-20261122 evaluation set only (docs/forensics.md, "Cut edges", "Frames confirmed by a map").
 */
import type { BlockMaps } from "../images/block-analysis";
import { type Family, FUSION_SCALES, familyScore, type FusionInput } from "./region-fusion";

export const INTERIOR_THRESHOLDS = {
  /** The inside's mean on the family's scale (1 = the family's own block threshold). */
  minMean: 0.5,
  /** Same-size windows elsewhere, all of them lower: the inside must stand out of a picture, not of a few places. */
  minWindows: 100,
};

export interface InteriorStanding {
  family: Family;
  /** The inside's mean on the family's scale. */
  mean: number;
  /** How many same-size windows that do not overlap the inside were compared; every one reads lower. */
  windows: number;
}

type Box = { x: number; y: number; width: number; height: number };
const FAMILIES: Family[] = ["ela", "noise", "jpeg"];

/**
 * For one picture's maps: the first family (ELA, noise, JPEG coefficients) on which a box's inside (picture
 * pixels) stands out, or null. Each family's summed-area table is built once, when first needed, and serves every
 * box asked about (the frame, then the tone box).
 */
export function interiorStanding(input: FusionInput, maps: BlockMaps): (box: Box) => InteriorStanding | null {
  const tables: ReturnType<typeof summedTable>[] = [];
  return (box) => {
    const inside = insideBlocks(box);
    if (inside.width < 2 || inside.height < 2) return null;
    for (const [k, family] of FAMILIES.entries()) {
      tables[k] ??= summedTable(input, maps, k);
      const standing = standsOut(tables[k], maps.blocksWide, maps.blocksHigh, inside);
      if (standing) return { family, ...standing };
    }
    return null;
  };
}

/** The blocks lying wholly inside the box. */
function insideBlocks(box: Box): Box {
  const x = Math.ceil(box.x / 8);
  const y = Math.ceil(box.y / 8);
  return { x, y, width: Math.floor((box.x + box.width) / 8) - x, height: Math.floor((box.y + box.height) / 8) - y };
}

/** Summed-area tables of the family's scores and of its judged blocks ((w + 1) × (h + 1) each). */
function summedTable(input: FusionInput, maps: BlockMaps, family: number) {
  const [w, h] = [maps.blocksWide, maps.blocksHigh];
  const sums = new Float64Array((w + 1) * (h + 1));
  const counts = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let rowSum = 0;
    let rowCount = 0;
    for (let x = 0; x < w; x++) {
      const v = familyScore(input, FUSION_SCALES, y * w + x, family);
      if (!Number.isNaN(v)) {
        rowSum += v;
        rowCount++;
      }
      const at = (y + 1) * (w + 1) + x + 1;
      sums[at] = sums[at - w - 1] + rowSum;
      counts[at] = counts[at - w - 1] + rowCount;
    }
  }
  return { sums, counts };
}

/**
 * The window's mean over its judged blocks, or NaN when at most half of them are judged. The family is judged
 * on too few blocks there to read a mean.
 */
function windowMean(t: ReturnType<typeof summedTable>, stride: number, b: Box): number {
  const corners = (a: Float64Array) =>
    a[(b.y + b.height) * stride + b.x + b.width] -
    a[b.y * stride + b.x + b.width] -
    a[(b.y + b.height) * stride + b.x] +
    a[b.y * stride + b.x];
  const n = corners(t.counts);
  return n > (b.width * b.height) / 2 ? corners(t.sums) / n : Number.NaN;
}

/** Whether the inside's mean reaches minMean and every same-size window not overlapping it, on a lattice, reads lower. */
function standsOut(t: ReturnType<typeof summedTable>, w: number, h: number, inside: Box) {
  const mean = windowMean(t, w + 1, inside);
  if (!(mean >= INTERIOR_THRESHOLDS.minMean)) return null;
  const step = Math.max(1, Math.floor(Math.min(inside.width, inside.height) / 4));
  let windows = 0;
  for (let y = 0; y + inside.height <= h; y += step)
    for (let x = 0; x + inside.width <= w; x += step) {
      if (Math.abs(x - inside.x) < inside.width && Math.abs(y - inside.y) < inside.height) continue;
      const other = windowMean(t, w + 1, { x, y, width: inside.width, height: inside.height });
      if (Number.isNaN(other)) continue;
      if (other >= mean) return null;
      windows++;
    }
  return windows >= INTERIOR_THRESHOLDS.minWindows ? { mean: Number(mean.toFixed(2)), windows } : null;
}

/**
 * The inside of a weak blurred rectangle against its surroundings (issue 17). A rectangle whose sides are sharpness
 * steps along only part of their length (a side running along flat sky, across letters or a brightness jump) is too
 * weak alone; but a blur within a straight selection also leaves its whole inside poorer in one-pixel detail than the
 * pixels just outside *every* side, by the same factor the blur removed. A natural soft area (defocus, a plain
 * object) borders on similar areas somewhere along its outline.
 */
import type { GrayImage } from "../images/gray";
import type { BlurRectangle } from "./blur-search";

/**
 * Chosen on the seed-20261122 evaluation set (docs/forensics.md, "Blurred rectangles confirmed by their inside"): a
 * rectangle scoring ≥ 0.3 (below the Yellow threshold) is reported when the mean |Laplacian| in a ring 4–16 px outside
 * each side is ≥ 4 × the inside's; the highest ratio of any strongest rectangle ≥ 0.3 on the seed's untouched,
 * camera-edited and re-saved files was 2.15.
 */
export const CONFIRMED_BLUR_THRESHOLDS = { minScore: 0.3, ringRatio: 4 };

/** The inside is read this far within the rectangle's sides (the sides' own step windows reach 6 px). */
const INSET = 4;
/** The ring outside each side: from this many pixels off the side … */
const RING_FROM = 4;
/** … to this many. */
const RING_TO = 16;
/** Below half a grey level of detail the inside counts as half a level (a ratio against ~0 says nothing). */
const INSIDE_FLOOR = 0.5;

/** Mean one-pixel detail inside the rectangle and in the ring outside each side that lies within the picture. */
export interface InteriorDetail {
  inside: number;
  /** Left, right, top, bottom; null where the ring lies outside the picture. */
  sides: (number | null)[];
  /** The weakest side's ring detail over the inside's (floored). */
  ratio: number;
}

/** Mean |4-neighbour Laplacian| over the pixels x0 … x1 − 1, y0 … y1 − 1 (clipped to the inner pixels), or null. */
function meanDetail(img: GrayImage, x0: number, y0: number, x1: number, y1: number): number | null {
  const { width, height, data } = img;
  const [left, top, right, bottom] = [
    Math.max(1, x0),
    Math.max(1, y0),
    Math.min(width - 1, x1),
    Math.min(height - 1, y1),
  ];
  if (left >= right || top >= bottom) return null;
  let sum = 0;
  for (let y = top; y < bottom; y++)
    for (let x = left, i = y * width + left; x < right; x++, i++)
      sum += Math.abs(4 * data[i] - data[i - 1] - data[i + 1] - data[i - width] - data[i + width]);
  return sum / ((right - left) * (bottom - top));
}

export function interiorDetail(img: GrayImage, r: BlurRectangle): InteriorDetail {
  const [x1, y1] = [r.x + r.width, r.y + r.height];
  const inside = meanDetail(img, r.x + INSET, r.y + INSET, x1 - INSET, y1 - INSET) ?? 0;
  const sides = [
    meanDetail(img, r.x - RING_TO, r.y, r.x - RING_FROM, y1),
    meanDetail(img, x1 + RING_FROM, r.y, x1 + RING_TO, y1),
    meanDetail(img, r.x, r.y - RING_TO, x1, r.y - RING_FROM),
    meanDetail(img, r.x, y1 + RING_FROM, x1, y1 + RING_TO),
  ];
  const judged = sides.filter((s): s is number => s !== null);
  const ratio = judged.length ? Math.min(...judged) / Math.max(inside, INSIDE_FLOOR) : 0;
  return { inside, sides, ratio };
}

/** A rectangle too weak alone whose inside has lost the detail every side's surroundings keep. */
export function confirmedByInterior(r: BlurRectangle, detail: InteriorDetail): boolean {
  return r.score >= CONFIRMED_BLUR_THRESHOLDS.minScore && detail.ratio >= CONFIRMED_BLUR_THRESHOLDS.ringRatio;
}

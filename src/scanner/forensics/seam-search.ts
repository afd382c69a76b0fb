/**
 * Cut edges: the search behind the `seams` detector. An area pasted in, or whose tone was changed with a
 * straight-edged selection, ends in a step one pixel wide along a straight line: the pixel values jump
 * between two neighbouring columns (or rows) and not between the columns beside them. A camera never
 * draws edges that sharp along whole lines, its lens and colour interpolation spread every edge over two
 * or more pixels. The search marks every such one-pixel step (`SEAM_STEP` grey levels more than both
 * neighbouring differences), keeps the columns and rows where they run along `SEAM_MIN_SIDE` pixels or more,
 * and looks for the rectangle whose four sides are steps along most of their length. Natural straight
 * edges (façades, signs, text) rarely close a rectangle of sharp steps on all four sides.
 */
import type { GrayImage } from "../images/gray";

/** Grey levels by which a step must exceed both neighbouring differences. */
export const SEAM_STEP = 4;
/** Shortest side of a rectangle, in pixels of the searched picture. */
export const SEAM_MIN_SIDE = 64;
/** A column or row is a candidate when a run of SEAM_MIN_SIDE pixels along it is at least this share steps. */
const CANDIDATE_SHARE = 0.5;
/** At most this many candidate columns and rows each (the strongest): the search is their pairs of pairs. */
const CANDIDATES = 40;

/**
 * For each boundary between column k and k + 1 (k = 0 … width − 2), how many of the rows above y hold a
 * one-pixel step there: counts[y · lines + k], y = 0 … height (prefix sums down the columns).
 */
interface StepCounts {
  lines: number;
  length: number;
  counts: Uint16Array;
}

function stepCounts(img: GrayImage): StepCounts {
  const { width, height, data } = img;
  const lines = width - 1;
  const counts = new Uint16Array((height + 1) * lines);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const above = y * lines;
    const here = above + lines;
    for (let k = 0; k < lines; k++) {
      let step = 0;
      if (k > 0 && k < lines - 1) {
        const d = Math.abs(data[row + k + 1] - data[row + k]);
        const left = Math.abs(data[row + k] - data[row + k - 1]);
        const right = Math.abs(data[row + k + 2] - data[row + k + 1]);
        step = d - Math.max(left, right) >= SEAM_STEP ? 1 : 0;
      }
      counts[here + k] = counts[above + k] + step;
    }
  }
  return { lines, length: height, counts };
}

/** Share of positions a … b − 1 along line k that are steps. */
function support(s: StepCounts, k: number, a: number, b: number): number {
  return (s.counts[b * s.lines + k] - s.counts[a * s.lines + k]) / (b - a);
}

/** The lines with the densest run of SEAM_MIN_SIDE steps (at least CANDIDATE_SHARE), in ascending order. */
function candidates(s: StepCounts): number[] {
  const best = new Float32Array(s.lines);
  for (let y = 0; y + SEAM_MIN_SIDE <= s.length; y++)
    for (let k = 0; k < s.lines; k++) best[k] = Math.max(best[k], support(s, k, y, y + SEAM_MIN_SIDE));
  const lines = Array.from(best.keys()).filter((k) => best[k] >= CANDIDATE_SHARE);
  return lines
    .sort((a, b) => best[b] - best[a] || a - b)
    .slice(0, CANDIDATES)
    .sort((a, b) => a - b);
}

function transpose(img: GrayImage): GrayImage {
  const { width, height, data } = img;
  const out = new Float32Array(data.length);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[x * height + y] = data[y * width + x];
  return { width: height, height: width, data: out };
}

/** The rectangle found, in pixels of the searched picture, and the share of its sides that are steps (the weakest side's). */
export interface SeamRectangle {
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0–1: the weakest of the four sides' shares of one-pixel steps. */
  score: number;
}

/** The best rectangle of one-pixel steps, or null when no four candidate lines close one. */
export function searchSeams(img: GrayImage): SeamRectangle | null {
  if (img.width < SEAM_MIN_SIDE + 4 || img.height < SEAM_MIN_SIDE + 4) return null;
  const vertical = stepCounts(img);
  const horizontal = stepCounts(transpose(img));
  const xs = candidates(vertical);
  const ys = candidates(horizontal);
  let best: SeamRectangle | null = null;
  let bestScore = 0;
  // Sides are measured without the two pixels next to each corner (the crossing side's own step).
  for (const y0 of ys)
    for (const y1 of ys) {
      if (y1 - y0 < SEAM_MIN_SIDE) continue;
      for (const x0 of xs) {
        const left = support(vertical, x0, y0 + 2, y1 - 1);
        if (left <= bestScore) continue;
        for (const x1 of xs) {
          if (x1 - x0 < SEAM_MIN_SIDE) continue;
          const right = support(vertical, x1, y0 + 2, y1 - 1);
          if (right <= bestScore) continue;
          const top = support(horizontal, y0, x0 + 2, x1 - 1);
          if (top <= bestScore) continue;
          const score = Math.min(left, right, top, support(horizontal, y1, x0 + 2, x1 - 1));
          if (score <= bestScore) continue;
          bestScore = score;
          best = { x: x0 + 1, y: y0 + 1, width: x1 - x0, height: y1 - y0, score };
        }
      }
    }
  return best;
}

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
import { seamStepCountsWasm } from "./seam-steps-wasm";
import { strongestLines } from "./strongest-lines";

/** Grey levels by which a step must exceed both neighbouring differences. */
export const SEAM_STEP = 4;
/** Shortest side of a rectangle, in pixels of the searched picture. */
export const SEAM_MIN_SIDE = 64;
/** A column or row is a candidate when a run of SEAM_MIN_SIDE pixels along it is at least this share steps. */
const CANDIDATE_SHARE = 0.5;
/** At most this many candidate columns and rows each (the strongest): the search is their pairs of pairs. */
const CANDIDATES = 40;

/**
 * Steps are counted at every other position along each line: a pasted or re-toned area's edge runs along the
 * whole side, so half the rows (columns) measure its share as well as all of them, at half the cost.
 */
const SAMPLE = 2;

/**
 * For each boundary between column k and k + 1 (k = 0 … width − 2), how many of the sampled rows above
 * sample j hold a one-pixel step there: counts[j · lines + k] (prefix sums down the columns; sample j is
 * row SAMPLE · j of the picture); most[k]: the most steps in any run of SEAM_MIN_SIDE pixels along line k.
 */
interface StepCounts {
  lines: number;
  samples: number;
  counts: Uint16Array;
  most: Uint16Array;
}

/** Step counts of the picture's rows 0, `rowStep`, 2 · `rowStep`, … (the reference of seam-steps-wasm.ts) */
export function stepCounts(img: GrayImage, rowStep: number): StepCounts {
  const { width, height, data } = img;
  const lines = width - 1;
  const samples = Math.ceil(height / rowStep);
  const counts = new Uint16Array((samples + 1) * lines);
  for (let j = 0; j < samples; j++) {
    const row = j * rowStep * width;
    const above = j * lines;
    const here = above + lines;
    counts[here] = counts[above];
    counts[here + lines - 1] = counts[above + lines - 1];
    // |p[k + 1] − p[k]| rolled along the row: each difference computed once.
    let prev = Math.abs(data[row + 1] - data[row]);
    let cur = Math.abs(data[row + 2] - data[row + 1]);
    for (let k = 1; k < lines - 1; k++) {
      const next = Math.abs(data[row + k + 2] - data[row + k + 1]);
      counts[here + k] = counts[above + k] + (cur - Math.max(prev, next) >= SEAM_STEP ? 1 : 0);
      prev = cur;
      cur = next;
    }
  }
  return { lines, samples, counts, most: runMaxima(lines, samples, counts) };
}

/** The most steps in any run of the side's samples, per line (integer counts, one pass over the sums). */
function runMaxima(lines: number, samples: number, counts: Uint16Array): Uint16Array {
  const run = SEAM_MIN_SIDE / SAMPLE;
  const most = new Uint16Array(lines);
  for (let j = 0; j + run <= samples; j++) {
    const start = j * lines;
    const end = (j + run) * lines;
    for (let k = 0; k < lines; k++) {
      const n = counts[end + k] - counts[start + k];
      if (n > most[k]) most[k] = n;
    }
  }
  return most;
}

/** The lines with the densest run of SEAM_MIN_SIDE pixels of steps (at least CANDIDATE_SHARE), in ascending order. */
function candidates({ most }: StepCounts): number[] {
  return strongestLines(most, CANDIDATE_SHARE * (SEAM_MIN_SIDE / SAMPLE), CANDIDATES).sort((a, b) => a - b);
}

/** The picture turned on its diagonal: its columns become rows (both searches read vertical edges along them). */
export function transposed(img: GrayImage): GrayImage {
  const { width, height, data } = img;
  const out = new Float32Array(width * height);
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

/**
 * The best rectangle of one-pixel steps, or null when no four candidate lines close one. The steps are counted by
 * the kernel (seam-steps-wasm.ts), or with `reference` by stepCounts of the picture and of its transposed copy.
 */
export function searchSeams(img: GrayImage, options: { reference?: boolean } = {}): SeamRectangle | null {
  if (img.width < SEAM_MIN_SIDE + 4 || img.height < SEAM_MIN_SIDE + 4) return null;
  const { vertical, horizontal } = options.reference
    ? { vertical: stepCounts(img, SAMPLE), horizontal: stepCounts(transposed(img), SAMPLE) }
    : seamStepCountsWasm(img, SAMPLE, SEAM_MIN_SIDE / SAMPLE);
  const xs = candidates(vertical);
  const ys = candidates(horizontal);
  let best: SeamRectangle | null = null;
  let bestScore = 0;
  // A side's support: the share of the sampled positions a … b − 1 (pixels) along its line that are steps, from the
  // prefix counts at samples ceil(a / SAMPLE) and ceil(b / SAMPLE): the vertical sides' per pair of rows (left and
  // right) before the loop over columns, the horizontal ones (top and bottom) as it reaches them. Sides are measured
  // without the two pixels next to each corner (the crossing side's own step): a side between lines a and b spans
  // a + 2 … b − 2.
  const n = xs.length;
  const m = ys.length;
  const sampleOf = (v: number) => Math.ceil(v / SAMPLE);
  const [xFrom, xTo] = [xs.map((x) => sampleOf(x + 2)), xs.map((x) => sampleOf(x - 1))];
  const [yFrom, yTo] = [ys.map((y) => sampleOf(y + 2)), ys.map((y) => sampleOf(y - 1))];
  // The counts where a side starting (ending) at each candidate line starts (ends), along each crossing line.
  const gathered = (s: StepCounts, along: number[], from: number[], to: number[]) => {
    const [starts, ends] = [new Int32Array(from.length * along.length), new Int32Array(from.length * along.length)];
    for (let a = 0; a < from.length; a++)
      for (let i = 0; i < along.length; i++) {
        starts[a * along.length + i] = s.counts[from[a] * s.lines + along[i]];
        ends[a * along.length + i] = s.counts[to[a] * s.lines + along[i]];
      }
    return { starts, ends };
  };
  const rowCounts = gathered(horizontal, ys, xFrom, xTo);
  // The horizontal side along row a between columns i and j: worked out when the loops below reach it (most
  // pairs of columns are never reached: a side of either already fails), not for all m · n² of them.
  const across = (a: number, i: number, j: number) =>
    (rowCounts.ends[j * m + a] - rowCounts.starts[i * m + a]) / (xTo[j] - xFrom[i]);
  const { starts: fromCounts, ends: toCounts } = gathered(vertical, xs, yFrom, yTo);
  const sides = new Float64Array(n);
  // The columns whose side beats the best score when a pair of rows begins, ascending: the only ones the loops
  // below can take (the best score only grows: sides are shares of integer counts, never NaN), so the rectangles are
  // met in the same order.
  const strong = new Int32Array(n);
  for (let a = 0; a < m; a++)
    for (let b = 0; b < m; b++) {
      const [y0, y1] = [ys[a], ys[b]];
      if (y1 - y0 < SEAM_MIN_SIDE) continue;
      const length = yTo[b] - yFrom[a];
      let count = 0;
      for (let i = 0; i < n; i++) {
        sides[i] = (toCounts[b * n + i] - fromCounts[a * n + i]) / length;
        if (sides[i] > bestScore) strong[count++] = i;
      }
      // The first right-hand column at least SEAM_MIN_SIDE after the left one: only moves on as the left one does.
      let first = 0;
      const lastRight = count ? xs[strong[count - 1]] : 0;
      for (let p = 0; p < count; p++) {
        const i = strong[p];
        const x0 = xs[i];
        // This column and the ones after it (they ascend) have no strong column far enough to their right.
        if (lastRight - x0 < SEAM_MIN_SIDE) break;
        const left = sides[i];
        if (left <= bestScore) continue;
        while (first < count && xs[strong[first]] - x0 < SEAM_MIN_SIDE) first++;
        for (let q = first; q < count; q++) {
          const j = strong[q];
          const x1 = xs[j];
          const right = sides[j];
          if (right <= bestScore) continue;
          const top = across(a, i, j);
          if (top <= bestScore) continue;
          const score = Math.min(left, right, top, across(b, i, j));
          if (score <= bestScore) continue;
          bestScore = score;
          best = { x: x0 + 1, y: y0 + 1, width: x1 - x0, height: y1 - y0, score };
        }
      }
    }
  return best;
}

/**
 * Blurred rectangles: the search behind the `blur` detector (issue 17). Blurring an area within a straight
 * selection removes its finest detail (one-pixel contrast) and leaves the coarser structure; the pixels just
 * outside keep theirs. Along each side of the selection the picture's sharpness therefore drops in one step,
 * while its brightness and its coarse structure carry on. A *sharpness step* at a boundary between two columns is
 * a row where, 2–6 px either side of it:
 * - the fine detail (mean |4-neighbour Laplacian|) of the sharp side is ≥ `FINE_RATIO` × the other side's and at
 *   least `MIN_FINE` grey levels;
 * - the fine detail per unit of coarse structure (gradient of the 9 × 9 box mean) drops as much (`RATIO_DROP`), so
 *   a flat area next to a textured one (a window in a façade) is no step, and the blurred side keeps at least
 *   `COARSE_KEPT` of the sharp side's coarse structure (≥ `MIN_COARSE`);
 * - the mean brightness differs by less than `MAX_BRIGHTNESS_JUMP` (a blurred area continues its surroundings; a dark
 *   object on a bright ground does not).
 * Columns (rows) where a run of `RUN` px is at least half such steps, facing the same way, are candidates; every
 * rectangle whose four sides face inwards (sharp outside, blurred inside) is scored by its weakest side's share of
 * steps, like the cut-edge search (seam-search.ts). Natural defocus follows object outlines, not four straight sides.
 */
import type { GrayImage } from "../images/gray";
import { blurStepCountsWasm } from "./blur-steps-wasm";
import { strongestLines } from "./strongest-lines";

/** Shortest side of a rectangle, in pixels of the searched picture (the generator's: ≥ 48). */
export const BLUR_MIN_SIDE = 48;
/** Fine detail of the sharp side: at least this many times the blurred side's … */
export const FINE_RATIO = 2.5;
/** … and at least this many grey levels (mean |Laplacian|: below it both sides are flat). */
const MIN_FINE = 3;
/** Fine detail per unit of coarse structure: sharp side ≥ this many times the blurred side's. */
const RATIO_DROP = 2;
/** Added to the coarse structure before dividing (grey levels), so flat areas do not divide by ~0. */
const COARSE_FLOOR = 2;
/** The blurred side keeps at least this share of the sharp side's coarse structure … */
const COARSE_KEPT = 0.3;
/** … and at least this much of it (grey levels): a blurred area is not flat. */
const MIN_COARSE = 2;
/** Mean brightness either side differs by less than this (grey levels). */
export const MAX_BRIGHTNESS_JUMP = 30;
/** A candidate line holds a run of this many pixels that is at least half steps. */
const RUN = 48;
/** At most this many candidate lines per side (the strongest). */
const CANDIDATES = 40;
/** Steps are counted at every other position along a line (the windows span 5 rows already). */
const SAMPLE = 2;

/**
 * Mean over the (2r + 1)² box around each pixel (clamped at the borders): running column sums carried down the
 * rows, then a running sum along each row (row-major access only).
 */
function boxMean(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const out = new Float32Array(src.length);
  const columns = new Float64Array(width);
  const row = (y: number) => (y < 0 ? 0 : y >= height ? height - 1 : y) * width;
  for (let y = -r; y <= r; y++) for (let x = 0, o = row(y); x < width; x++) columns[x] += src[o + x];
  const n = (2 * r + 1) * (2 * r + 1);
  const last = width - 1;
  for (let y = 0; y < height; y++) {
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += columns[x < 0 ? 0 : Math.min(x, last)];
    for (let x = 0, o = y * width; x < width; x++) {
      out[o + x] = sum / n;
      sum += columns[Math.min(x + r + 1, last)] - columns[Math.max(x - r, 0)];
    }
    const add = row(y + r + 1);
    const drop = row(y - r);
    for (let x = 0; x < width; x++) columns[x] += src[add + x] - src[drop + x];
  }
  return out;
}

/** |4-neighbour Laplacian| of every inner pixel (0 on the border). */
function fineDetail(img: GrayImage): Float32Array {
  const { width, height, data } = img;
  const out = new Float32Array(data.length);
  for (let y = 1; y < height - 1; y++)
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++)
      out[i] = Math.abs(4 * data[i] - data[i - 1] - data[i + 1] - data[i - width] - data[i + width]);
  return out;
}

/** Gradient magnitude (|∂x| + |∂y|, ×8 as a 3 × 3 Sobel) of the 9 × 9 box mean: structure coarser than the blur. */
function coarseStructure(img: GrayImage): Float32Array {
  const { width, height } = img;
  const g = boxMean(img.data, width, height, 4);
  const out = new Float32Array(g.length);
  for (let y = 2; y < height - 2; y++)
    for (let x = 2, i = y * width + 2; x < width - 2; x++, i++)
      out[i] = 2 * (Math.abs(g[i + 2] - g[i - 2]) + Math.abs(g[i + 2 * width] - g[i - 2 * width]));
  return out;
}

/** The three 5 × 5 box means a step is judged on, shared by both orientations. */
interface SideMeans {
  width: number;
  height: number;
  fine: Float32Array;
  coarse: Float32Array;
  brightness: Float32Array;
}

function sideMeans(img: GrayImage): SideMeans {
  const { width, height } = img;
  return {
    width,
    height,
    fine: boxMean(fineDetail(img), width, height, 2),
    coarse: boxMean(coarseStructure(img), width, height, 2),
    brightness: boxMean(img.data, width, height, 2),
  };
}

/** +1 when the side at `a` is sharp and the side at `b` blurred, −1 the other way round, 0 when neither. */
function stepAt(m: SideMeans, a: number, b: number): number {
  const fa = m.fine[a];
  const fb = m.fine[b];
  // Most positions differ by less than the ratio: decided without the other two maps.
  if (fa <= FINE_RATIO * fb && fb <= FINE_RATIO * fa) return 0;
  if (Math.abs(m.brightness[a] - m.brightness[b]) >= MAX_BRIGHTNESS_JUMP) return 0;
  const ca = m.coarse[a];
  const cb = m.coarse[b];
  const ra = fa / (ca + COARSE_FLOOR);
  const rb = fb / (cb + COARSE_FLOOR);
  if (fa > FINE_RATIO * fb && fa > MIN_FINE && ra > RATIO_DROP * rb && cb >= COARSE_KEPT * ca && cb >= MIN_COARSE)
    return 1;
  if (fb > FINE_RATIO * fa && fb > MIN_FINE && rb > RATIO_DROP * ra && ca >= COARSE_KEPT * cb && ca >= MIN_COARSE)
    return -1;
  return 0;
}

/**
 * Prefix counts of steps along each boundary line k (between pixel k − 1 and k across the lines): `into[j · lines
 * + k]` counts the sampled positions above sample j where the picture turns blurred going to higher k, `outOf`
 * where it turns sharp; `mostInto[k]` / `mostOutOf[k]` the most of them in any run of RUN pixels along line k.
 */
export interface StepCounts {
  lines: number;
  samples: number;
  into: Uint16Array;
  outOf: Uint16Array;
  mostInto: Uint16Array;
  mostOutOf: Uint16Array;
}

/**
 * Steps across vertical boundaries (`across` = 1: columns, positions along the rows) or horizontal ones
 * (`across` = width: rows). The sharp side's window is centred 4 px before the boundary (pixels k − 6 … k − 2),
 * the blurred side's 3 px after it (k + 1 … k + 5): the pixel next to the boundary on the sharp side is skipped,
 * its Laplacian reaches into the blurred side.
 */
function stepCounts(m: SideMeans, vertical: boolean): StepCounts {
  const lines = vertical ? m.width : m.height;
  const length = vertical ? m.height : m.width;
  const across = vertical ? 1 : m.width;
  const along = vertical ? m.width : 1;
  const samples = Math.ceil(length / SAMPLE);
  const into = new Uint16Array((samples + 1) * lines);
  const outOf = new Uint16Array((samples + 1) * lines);
  const mark = (j: number, k: number) => {
    const base = j * SAMPLE * along;
    const step = stepAt(m, base + (k - 4) * across, base + (k + 3) * across);
    if (step > 0) into[(j + 1) * lines + k] = 1;
    else if (step < 0) outOf[(j + 1) * lines + k] = 1;
  };
  // Pixels are read along the rows in either orientation (row-major), then the marks summed down the samples.
  if (vertical) for (let j = 0; j < samples; j++) for (let k = 6; k + 5 < lines; k++) mark(j, k);
  else for (let k = 6; k + 5 < lines; k++) for (let j = 0; j < samples; j++) mark(j, k);
  for (let i = lines; i < into.length; i++) {
    into[i] += into[i - lines];
    outOf[i] += outOf[i - lines];
  }
  return {
    lines,
    samples,
    into,
    outOf,
    mostInto: runMaxima(lines, samples, into),
    mostOutOf: runMaxima(lines, samples, outOf),
  };
}

/** Share of the sampled positions a … b − 1 along line k that are steps (of `counts`). */
function share(s: StepCounts, counts: Uint16Array, k: number, a: number, b: number): number {
  const from = Math.ceil(a / SAMPLE);
  const to = Math.ceil(b / SAMPLE);
  return (counts[to * s.lines + k] - counts[from * s.lines + k]) / Math.max(1, to - from);
}

/** Per line, the most steps of `counts` in any run of RUN pixels (RUN / SAMPLE samples). */
function runMaxima(lines: number, samples: number, counts: Uint16Array): Uint16Array {
  const run = RUN / SAMPLE;
  const most = new Uint16Array(lines);
  for (let j = 0; j + run <= samples; j++) {
    const start = j * lines;
    const end = (j + run) * lines;
    for (let k = 0; k < lines; k++) most[k] = Math.max(most[k], counts[end + k] - counts[start + k]);
  }
  return most;
}

/** The lines holding a run of RUN pixels that is at least half steps (`most`: run maxima), the strongest CANDIDATES. */
function candidates(most: Uint16Array): number[] {
  return strongestLines(most, RUN / SAMPLE / 2, CANDIDATES);
}

/** The rectangle found, in pixels of the searched picture, and its weakest side's share of sharpness steps. */
export interface BlurRectangle {
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0–1: the weakest of the four sides' shares of sharpness steps facing inwards. */
  score: number;
}

/**
 * The step counts across vertical boundaries (`columns`) and horizontal ones (`rows`): by the kernel of
 * blur-steps-wasm.ts (views on its memory, valid until the next kernel call), or with `reference` by this file's
 * JavaScript (full-size side means).
 */
export function blurStepCounts(
  img: GrayImage,
  options: { reference?: boolean } = {},
): { columns: StepCounts; rows: StepCounts } {
  if (!options.reference) return blurStepCountsWasm(img, SAMPLE, RUN / SAMPLE);
  const means = sideMeans(img);
  return { columns: stepCounts(means, true), rows: stepCounts(means, false) };
}

/** The rectangle whose four sides are the most consistent sharpness steps facing inwards, or null. */
export function searchBlurRectangle(img: GrayImage, options: { reference?: boolean } = {}): BlurRectangle | null {
  if (img.width < BLUR_MIN_SIDE + 12 || img.height < BLUR_MIN_SIDE + 12) return null;
  const { columns, rows } = blurStepCounts(img, options);
  const lefts = candidates(columns.mostInto);
  const rights = candidates(columns.mostOutOf);
  const tops = candidates(rows.mostInto);
  const bottoms = candidates(rows.mostOutOf);
  let best: BlurRectangle | null = null;
  for (const y0 of tops)
    for (const y1 of bottoms) {
      if (y1 - y0 < BLUR_MIN_SIDE) continue;
      for (const x0 of lefts) {
        const left = share(columns, columns.into, x0, y0, y1);
        if (left <= (best?.score ?? 0)) continue;
        for (const x1 of rights) {
          if (x1 - x0 < BLUR_MIN_SIDE) continue;
          const score = Math.min(
            left,
            share(columns, columns.outOf, x1, y0, y1),
            share(rows, rows.into, y0, x0, x1),
            share(rows, rows.outOf, y1, x0, x1),
          );
          if (score > (best?.score ?? 0)) best = { x: x0, y: y0, width: x1 - x0, height: y1 - y0, score };
        }
      }
    }
  return best;
}

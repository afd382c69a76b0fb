/**
 * Cut edges, second test (seams 1.1): a box whose tone was changed within a straight-edged selection. Such a
 * change adds a step one pixel wide along each side whose sign is the same on all four sides (inside brighter,
 * or inside darker), while the picture's texture continues across it. Counting single pixels whose step
 * beats their neighbours' differences (seam-search.ts) misses it across strong texture and over dark areas;
 * here each side is judged by the step residual summed along it with its sign,
 *   r = D(k) − (D(k − 1) + D(k + 1)) / 2,   D(k) = p(k + 1) − p(k),
 * where texture's second derivative averages out and the edit's step does not: a side's score is the
 * t-statistic of r along it (mean over standard error). A camera's straight edges (façades, window frames)
 * are spread over two or more pixels, which the side must not be (its mean r ≥ 0.7 × its mean step), and a
 * tone change moves all four sides by alike relative amounts, which natural frames rarely do.
 */
import type { GrayImage } from "../images/gray";

/** Shortest side of a box (pixels), as for the step-share search. */
const MIN_SIDE = 64;
/** At most this many candidate lines per direction and sign (the most significant). */
const CANDIDATES = 30;
/** A line is a candidate when some run of MIN_SIDE pixels along it reaches this t (either sign). */
const CANDIDATE_T = 2;
/** Runs are tried at every RUN_STEP-th start along the line. */
const RUN_STEP = 2;
/** A side's mean step must be at least this many grey levels… */
const MIN_STEP = 3;
/** …and its mean residual at least this share of it: the step is one pixel wide, not spread. */
const SHARPNESS = 0.7;
/** Offset in ln((inside + K) / (outside + K)): a side's relative tone change, steady over dark pixels. */
const TONE_OFFSET = 20;
/** The smallest side's relative tone change must be at least this share of the largest. */
const ALIKE = 0.5;

/** Prefix sums along one candidate line (a boundary between rows k and k + 1 of the picture searched). */
interface Line {
  k: number;
  /** r, r², D, the row before and the row after, each summed over x < i at index i. */
  r: Float64Array;
  r2: Float64Array;
  step: Float64Array;
  before: Float64Array;
  after: Float64Array;
}

/** r along the boundary between rows k and k + 1 (k ≥ 1, k + 2 < height), into `out`. */
function residualRow(img: GrayImage, k: number, out: Float32Array): void {
  const { width, data } = img;
  const [a, b, c, d] = [(k - 1) * width, k * width, (k + 1) * width, (k + 2) * width];
  for (let x = 0; x < width; x++) {
    const here = data[c + x] - data[b + x];
    out[x] = here - 0.5 * (data[b + x] - data[a + x] + data[d + x] - data[c + x]);
  }
}

/** Per boundary k: the largest and smallest t of r over runs of MIN_SIDE pixels (0 where not computed). */
function runExtremes(img: GrayImage): { most: Float32Array; least: Float32Array } {
  const { width, height } = img;
  const most = new Float32Array(height);
  const least = new Float32Array(height);
  const r = new Float32Array(width);
  const s1 = new Float64Array(width + 1);
  const s2 = new Float64Array(width + 1);
  for (let k = 1; k + 2 < height; k++) {
    residualRow(img, k, r);
    for (let x = 0; x < width; x++) {
      s1[x + 1] = s1[x] + r[x];
      s2[x + 1] = s2[x] + r[x] * r[x];
    }
    let hi = -Infinity;
    let lo = Infinity;
    for (let a = 0; a + MIN_SIDE <= width; a += RUN_STEP) {
      const t = tValue(s1[a + MIN_SIDE] - s1[a], s2[a + MIN_SIDE] - s2[a], MIN_SIDE);
      if (t > hi) hi = t;
      if (t < lo) lo = t;
    }
    most[k] = hi;
    least[k] = lo;
  }
  return { most, least };
}

/** t of a mean from its sum, sum of squares and count (the variance floored so a flat run stays finite). */
function tValue(sum: number, sum2: number, n: number): number {
  const mean = sum / n;
  const variance = Math.max(sum2 / n - mean * mean, 1e-6);
  return mean / Math.sqrt(variance / n);
}

/** The boundaries whose extreme (by `pick`) passes CANDIDATE_T, the CANDIDATES strongest, ascending. */
function strongest(extreme: Float32Array, sign: 1 | -1): number[] {
  const ks: number[] = [];
  for (let k = 0; k < extreme.length; k++) if (sign * extreme[k] > CANDIDATE_T) ks.push(k);
  return ks
    .sort((a, b) => sign * (extreme[b] - extreme[a]) || a - b)
    .slice(0, CANDIDATES)
    .sort((a, b) => a - b);
}

function prefixLine(img: GrayImage, k: number, r: Float32Array): Line {
  const { width, data } = img;
  residualRow(img, k, r);
  const line = {
    k,
    r: new Float64Array(width + 1),
    r2: new Float64Array(width + 1),
    step: new Float64Array(width + 1),
    before: new Float64Array(width + 1),
    after: new Float64Array(width + 1),
  };
  for (let x = 0; x < width; x++) {
    const [p, q] = [data[k * width + x], data[(k + 1) * width + x]];
    line.r[x + 1] = line.r[x] + r[x];
    line.r2[x + 1] = line.r2[x] + r[x] * r[x];
    line.step[x + 1] = line.step[x] + q - p;
    line.before[x + 1] = line.before[x] + p;
    line.after[x + 1] = line.after[x] + q;
  }
  return line;
}

/** Candidate boundaries between rows of `img` (lines along x), by sign of their step (+: the next row brighter). */
function candidateLines(img: GrayImage): { rising: Line[]; falling: Line[] } {
  const { most, least } = runExtremes(img);
  const r = new Float32Array(img.width);
  return {
    rising: strongest(most, 1).map((k) => prefixLine(img, k, r)),
    falling: strongest(least, -1).map((k) => prefixLine(img, k, r)),
  };
}

/** A side along `line` over a … b − 1: its signed t (0 when spread or too small) and relative tone change. */
interface Side {
  t: number;
  tone: number;
}

/** `sign` +1: the box lies after the boundary (left/top side); −1: before it (right/bottom side), for a brighter box. */
function side(line: Line, a: number, b: number, sign: number): Side {
  const n = b - a;
  const t = sign * tValue(line.r[b] - line.r[a], line.r2[b] - line.r2[a], n);
  const step = (sign * (line.step[b] - line.step[a])) / n;
  const residual = (sign * (line.r[b] - line.r[a])) / n;
  const before = (line.before[b] - line.before[a]) / n;
  const after = (line.after[b] - line.after[a]) / n;
  const tone = sign * Math.log((after + TONE_OFFSET) / (before + TONE_OFFSET));
  return { t: step >= MIN_STEP && residual >= SHARPNESS * step ? t : 0, tone };
}

/** A box found, in pixels of the picture searched, with its weakest side's t. */
export interface ToneBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The weakest of the four sides' t-statistics of the step residual. */
  score: number;
  /** +1: inside brighter; −1: inside darker. */
  sign: 1 | -1;
}

/** The picture turned on its diagonal: its columns become rows, so vertical boundaries are searched as rows. */
function transposed(img: GrayImage): GrayImage {
  const { width, height, data } = img;
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[x * height + y] = data[y * width + x];
  return { width: height, height: width, data: out };
}

/** The box whose four sides are the most significant one-pixel tone steps of one sign, or null. */
export function searchToneBox(img: GrayImage): ToneBox | null {
  if (img.width < MIN_SIDE + 4 || img.height < MIN_SIDE + 4) return null;
  const rows = candidateLines(img);
  const columns = candidateLines(transposed(img));
  let best: ToneBox | null = null;
  for (const sign of [1, -1] as const) {
    const [tops, bottoms] = sign > 0 ? [rows.rising, rows.falling] : [rows.falling, rows.rising];
    const [lefts, rights] = sign > 0 ? [columns.rising, columns.falling] : [columns.falling, columns.rising];
    const found = bestBox(tops, bottoms, lefts, rights, sign, best?.score ?? 0);
    if (found) best = found;
  }
  return best;
}

/**
 * The box of the highest weakest-side t above `floor`: sides are measured without the pixels next to the
 * corners (the crossing side's own step), and the four relative tone changes must be alike (ALIKE).
 */
function bestBox(tops: Line[], bottoms: Line[], lefts: Line[], rights: Line[], sign: 1 | -1, floor: number) {
  let best: ToneBox | null = null;
  let bestScore = floor;
  for (const top of tops)
    for (const bottom of bottoms) {
      if (bottom.k - top.k < MIN_SIDE) continue;
      for (const left of lefts) {
        const l = side(left, top.k + 3, bottom.k - 1, sign);
        if (l.t <= bestScore) continue;
        for (const right of rights) {
          if (right.k - left.k < MIN_SIDE) continue;
          const r = side(right, top.k + 3, bottom.k - 1, -sign);
          if (r.t <= bestScore) continue;
          const t = side(top, left.k + 3, right.k - 1, sign);
          if (t.t <= bestScore) continue;
          const b = side(bottom, left.k + 3, right.k - 1, -sign);
          const score = Math.min(l.t, r.t, t.t, b.t);
          if (score <= bestScore) continue;
          const tones = [l.tone, r.tone, t.tone, b.tone];
          if (Math.min(...tones) < ALIKE * Math.max(...tones)) continue;
          bestScore = score;
          best = { x: left.k + 1, y: top.k + 1, width: right.k - left.k, height: bottom.k - top.k, score, sign };
        }
      }
    }
  return best;
}

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
import { SEAM_MIN_SIDE, transposed } from "./seam-search";
import { type RunExtremes, toneLineSumsWasm, toneRunExtremesWasm } from "./seam-steps-wasm";

/** The search's settings (sides are at least SEAM_MIN_SIDE pixels long, as for the step-share search). */
const TONE = {
  /** At most this many candidate lines per direction and sign (the most significant). */
  candidates: 30,
  /** A line is a candidate when some run of SEAM_MIN_SIDE pixels along it reaches this t (either sign). */
  candidateT: 2,
  /** Runs are tried at every runStep-th start along the line, r read at every runStep-th pixel. */
  runStep: 2,
  /** A side's mean step must be at least this many grey levels… */
  minStep: 3,
  /** …and its mean residual at least this share of it: the step is one pixel wide, not spread. */
  sharpness: 0.7,
  /** Offset in ln((inside + offset) / (outside + offset)): a side's relative tone change, steady over dark pixels. */
  offset: 20,
  /** The smallest side's relative tone change must be at least this share of the largest. */
  alike: 0.5,
};

/**
 * Prefix sums along one candidate line (a boundary between rows k and k + 1 of the picture searched), kept at the
 * positions the box search reads (`at`: slot of position i, the sums over x < i; −1 where not kept): at 4 · slot …
 * 4 · slot + 3 of `sums`, r, r², the row before and the row after (the step D is after − before); side by side, so
 * that a side's eight reads share two cache lines.
 */
interface Line {
  k: number;
  at: Int32Array;
  sums: Float64Array;
}

/** The positions along a direction's lines that its sides start or end at (slot per position, −1 elsewhere). */
interface Kept {
  at: Int32Array;
  count: number;
}

/**
 * How a picture's lines are read: pixel x of row k of the picture searched is `data[k · across + x · along]`, x <
 * `length` (rowsOf: the picture's rows, along 1, across its width; the reference reads the columns as the rows of
 * the transposed picture, the kernel of seam-steps-wasm.ts `toneLineSumsWasm` down the columns).
 */
interface LineReader {
  data: Float32Array;
  length: number;
  along: number;
  across: number;
}

const rowsOf = (img: GrayImage): LineReader => ({ data: img.data, length: img.width, along: 1, across: img.width });

/**
 * Per boundary k: the largest and smallest t of r over runs of SEAM_MIN_SIDE pixels (0 where not computed), r read
 * at every TONE.runStep-th pixel (the candidates only: a side is then measured at every pixel). Runs slide by
 * TONE.runStep with running sums and are compared by t · |t| (no square root per run).
 */
export function runExtremes(img: GrayImage): RunExtremes {
  const { width, height, data } = img;
  const most = new Float32Array(height);
  const least = new Float32Array(height);
  const samples = Math.ceil(width / TONE.runStep);
  const run = SEAM_MIN_SIDE / TONE.runStep;
  const r = new Float32Array(samples);
  for (let k = 1; k + 2 < height; k++) {
    const [a, b, c, d] = [(k - 1) * width, k * width, (k + 1) * width, (k + 2) * width];
    for (let i = 0, x = 0; x < width; i++, x += TONE.runStep)
      r[i] = data[c + x] - data[b + x] - 0.5 * (data[b + x] - data[a + x] + data[d + x] - data[c + x]);
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < run; i++) {
      s1 += r[i];
      s2 += r[i] * r[i];
    }
    let hi = -Infinity;
    let lo = Infinity;
    for (let i = 0; ; i++) {
      const mean = s1 / run;
      const q = (mean * Math.abs(mean) * run) / Math.max(s2 / run - mean * mean, 1e-6);
      if (q > hi) hi = q;
      if (q < lo) lo = q;
      if (i + run >= samples) break;
      const out = r[i];
      const into = r[i + run];
      s1 += into - out;
      s2 += into * into - out * out;
    }
    most[k] = Math.sign(hi) * Math.sqrt(Math.abs(hi));
    least[k] = Math.sign(lo) * Math.sqrt(Math.abs(lo));
  }
  return { most, least };
}

/** t of a mean from its sum, sum of squares and count (the variance floored so a flat run stays finite). */
function tValue(sum: number, sum2: number, n: number): number {
  const mean = sum / n;
  const variance = Math.max(sum2 / n - mean * mean, 1e-6);
  return mean / Math.sqrt(variance / n);
}

/** The boundaries whose extreme of this sign passes TONE.candidateT, the TONE.candidates strongest, ascending. */
function strongest(extreme: Float32Array, sign: 1 | -1): number[] {
  // Sorting every passing boundary by strength (ties: lower k first) and keeping the first TONE.candidates: the same
  // as keeping them sorted while they are found, each inserted after the stronger and equal ones before it.
  const before = (a: number, b: number) => sign * (extreme[b] - extreme[a]) || a - b;
  const top: number[] = [];
  for (let k = 0; k < extreme.length; k++) {
    if (!(sign * extreme[k] > TONE.candidateT)) continue;
    if (top.length === TONE.candidates && before(k, top[top.length - 1]) >= 0) continue;
    let at = top.length;
    while (at > 0 && before(k, top[at - 1]) < 0) at--;
    top.splice(at, 0, k);
    if (top.length > TONE.candidates) top.pop();
  }
  return top.sort((a, b) => a - b);
}

/**
 * A candidate line's prefix sums at the positions `kept`: r (rounded to f32, as the run extremes store it) and the
 * pixels either side of the boundary between rows k and k + 1 (k ≥ 1, k + 2 < rows), summed over every pixel in one
 * pass (the same sums in the same order as at every position).
 */
function prefixLine({ data, length, along, across }: LineReader, k: number, kept: Kept): Line {
  const [a, b, c, d] = [(k - 1) * across, k * across, (k + 1) * across, (k + 2) * across];
  const sums = new Float64Array(4 * kept.count);
  // Position 0's sums are all 0, as the array starts.
  let r = 0;
  let r2 = 0;
  let before = 0;
  let after = 0;
  for (let x = 0, i = 0; x < length; x++, i += along) {
    const pb = data[b + i];
    const pc = data[c + i];
    const v = Math.fround(pc - pb - 0.5 * (pb - data[a + i] + data[d + i] - pc));
    r += v;
    r2 += v * v;
    before += pb;
    after += pc;
    const slot = kept.at[x + 1];
    if (slot < 0) continue;
    sums[4 * slot] = r;
    sums[4 * slot + 1] = r2;
    sums[4 * slot + 2] = before;
    sums[4 * slot + 3] = after;
  }
  return { k, at: kept.at, sums };
}

/**
 * Where sides along a direction's lines start and end: bestBox measures a side from the crossing candidate
 * boundary k at k + 3 and to the one at k − 1 (`crossing`: the other direction's candidates, both signs), on lines
 * `length` pixels long.
 */
function keptPositions(crossing: number[], length: number): Kept {
  const at = new Int32Array(length + 1).fill(-1);
  let count = 0;
  for (const k of crossing) for (const position of [k + 3, k - 1]) if (at[position] < 0) at[position] = count++;
  return { at, count };
}

/** The candidate boundaries of both signs of `extremes` (lines along x): +, the next row brighter; −, darker. */
function candidates({ most, least }: RunExtremes): { rising: number[]; falling: number[] } {
  return { rising: strongest(most, 1), falling: strongest(least, -1) };
}

/**
 * Both directions' candidate lines, made by `linesOf` (the boundaries `ks` between rows, or between columns, with the
 * positions the other direction's candidates cross).
 */
function candidateLines(
  rows: RunExtremes,
  columns: RunExtremes,
  size: { width: number; height: number },
  linesOf: (ks: number[], kept: Kept, betweenRows: boolean) => Line[],
): { rows: { rising: Line[]; falling: Line[] }; vertical: { rising: Line[]; falling: Line[] } } {
  const [across, down] = [candidates(rows), candidates(columns)];
  const alongRows = keptPositions([...down.rising, ...down.falling], size.width);
  const alongColumns = keptPositions([...across.rising, ...across.falling], size.height);
  const rowLines = linesOf([...across.rising, ...across.falling], alongRows, true);
  const columnLines = linesOf([...down.rising, ...down.falling], alongColumns, false);
  return {
    rows: { rising: rowLines.slice(0, across.rising.length), falling: rowLines.slice(across.rising.length) },
    vertical: { rising: columnLines.slice(0, down.rising.length), falling: columnLines.slice(down.rising.length) },
  };
}

/**
 * The candidate lines between rows (`rows`) and between columns (`vertical`): run extremes and prefix sums by the
 * kernels (seam-steps-wasm.ts), or with `reference` by runExtremes and prefixLine (of the transposed picture for the
 * columns). Exported for the tests, which compare both.
 */
export function allCandidateLines(img: GrayImage, options: { reference?: boolean }) {
  if (options.reference) {
    const columns = transposed(img);
    return candidateLines(runExtremes(img), runExtremes(columns), img, (ks, kept, betweenRows) =>
      ks.map((k) => prefixLine(rowsOf(betweenRows ? img : columns), k, kept)),
    );
  }
  const extremes = toneRunExtremesWasm(img);
  return candidateLines(extremes.rows, extremes.columns, img, (ks, kept, betweenRows) => {
    const sums = toneLineSumsWasm(img, ks, kept.at, kept.count, betweenRows);
    return ks.map((k, i) => ({ k, at: kept.at, sums: sums[i] }));
  });
}

/**
 * A side along a line whose sums are `sums`, over positions a … b − 1 (`i`, `j`: 4 × their slots; the lines of a
 * direction share their kept positions, so the offsets are worked out once for all of them): its t (0 when spread or
 * too small). `sign` +1: the box lies after the boundary (left/top side); −1: before it (right/bottom side), for a
 * brighter box.
 */
function sideT(sums: Float64Array, i: number, j: number, n: number, sign: number): number {
  const before = sums[j + 2] - sums[i + 2];
  const step = (sign * (sums[j + 3] - sums[i + 3] - before)) / n;
  const residual = (sign * (sums[j] - sums[i])) / n;
  if (step < TONE.minStep || residual < TONE.sharpness * step) return 0;
  return sign * tValue(sums[j] - sums[i], sums[j + 1] - sums[i + 1], n);
}

/** The side's relative tone change, ln((inside + K) / (outside + K)) with K = TONE.offset (arguments as sideT). */
function sideTone(sums: Float64Array, i: number, j: number, n: number, sign: number): number {
  const before = (sums[j + 2] - sums[i + 2]) / n;
  const after = (sums[j + 3] - sums[i + 3]) / n;
  return sign * Math.log((after + TONE.offset) / (before + TONE.offset));
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

/**
 * The box whose four sides are the most significant one-pixel tone steps of one sign, or null. The run extremes
 * come from the kernel (seam-steps-wasm.ts), or with `reference` from runExtremes of the picture and its transposed
 * copy.
 */
export function searchToneBox(img: GrayImage, options: { reference?: boolean } = {}): ToneBox | null {
  if (img.width < SEAM_MIN_SIDE + 4 || img.height < SEAM_MIN_SIDE + 4) return null;
  const { rows, vertical } = allCandidateLines(img, options);
  let best: ToneBox | null = null;
  for (const sign of [1, -1] as const) {
    const [tops, bottoms] = sign > 0 ? [rows.rising, rows.falling] : [rows.falling, rows.rising];
    const [lefts, rights] = sign > 0 ? [vertical.rising, vertical.falling] : [vertical.falling, vertical.rising];
    const found = bestBox(tops, bottoms, lefts, rights, sign, best?.score ?? 0);
    if (found) best = found;
  }
  return best;
}

/**
 * The box of the highest weakest-side t above `floor`: sides are measured without the pixels next to the
 * corners (the crossing side's own step), and the four relative tone changes must be alike (TONE.alike).
 */
function bestBox(tops: Line[], bottoms: Line[], lefts: Line[], rights: Line[], sign: 1 | -1, floor: number) {
  let best: ToneBox | null = null;
  let bestScore = floor;
  if (!lefts.length || !rights.length || !tops.length) return best;
  // Slots of positions along the columns (the vertical sides) and along the rows (the horizontal ones).
  const [down, along] = [lefts[0].at, tops[0].at];
  const right = new Float64Array(rights.length);
  // The rights whose side beats the best score when a pair of rows begins, ascending: the only ones the loops below
  // can take (the best score only grows), so the boxes are met in the same order; none, and no left is measured.
  const strong = new Int32Array(rights.length);
  // Rights closer than SEAM_MIN_SIDE to the first left close no box: their sides are not measured.
  const firstRight = rights.findIndex((r) => r.k - lefts[0].k >= SEAM_MIN_SIDE);
  if (firstRight < 0) return best;
  for (const top of tops)
    for (const bottom of bottoms) {
      if (bottom.k - top.k < SEAM_MIN_SIDE) continue;
      const [y0, y1] = [top.k + 3, bottom.k - 1];
      const [a, b, height] = [4 * down[y0], 4 * down[y1], y1 - y0];
      let count = 0;
      for (let j = firstRight; j < rights.length; j++) {
        right[j] = sideT(rights[j].sums, a, b, height, -sign);
        if (right[j] > bestScore) strong[count++] = j;
      }
      if (!count) continue;
      // The first strong right at least SEAM_MIN_SIDE after the left (lines ascend): only moves on with the left.
      let first = 0;
      const lastRight = rights[strong[count - 1]].k;
      for (const left of lefts) {
        // This left and the ones after it (lines ascend) have no strong right far enough.
        if (lastRight - left.k < SEAM_MIN_SIDE) break;
        const l = sideT(left.sums, a, b, height, sign);
        if (l <= bestScore) continue;
        const x0 = left.k + 3;
        const c = 4 * along[x0];
        while (first < count && rights[strong[first]].k - left.k < SEAM_MIN_SIDE) first++;
        for (let p = first; p < count; p++) {
          const j = strong[p];
          const x1 = rights[j].k;
          if (right[j] <= bestScore) continue;
          const [d, width] = [4 * along[x1 - 1], x1 - 1 - x0];
          const t = sideT(top.sums, c, d, width, sign);
          if (t <= bestScore) continue;
          const score = Math.min(l, right[j], t, sideT(bottom.sums, c, d, width, -sign));
          if (score <= bestScore) continue;
          const tones = [
            sideTone(left.sums, a, b, height, sign),
            sideTone(rights[j].sums, a, b, height, -sign),
            sideTone(top.sums, c, d, width, sign),
            sideTone(bottom.sums, c, d, width, -sign),
          ];
          if (Math.min(...tones) < TONE.alike * Math.max(...tones)) continue;
          bestScore = score;
          best = { x: left.k + 1, y: top.k + 1, width: x1 - left.k, height: bottom.k - top.k, score, sign };
        }
      }
    }
  return best;
}

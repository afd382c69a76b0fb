/**
 * Block-grained evidence of aligned double quantisation (after Bianchi & Piva 2012, "Image forgery
 * localization via block-grained analysis of JPEG artifacts"), measured against the picture's own histograms.
 *
 * Per frequency, "quantised twice" is the picture's own histogram (most of a re-saved picture went through
 * both saves, so its histogram carries the first save's pattern whatever the first step was) and "quantised
 * once" the Laplacian fitted to it (no pattern). A value in a bin the pattern over-fills speaks for the
 * earlier save, a value in a bin it empties against it. No first step is chosen, so a wrongly fitted step
 * (a first save finer than the second, where several steps fit about as well) does not mislead the map.
 *
 * Per area, every judged value's log ratio is centred and scaled by its group of blocks of similar contrast
 * (sharp edges keep the pattern less everywhere) and summed over a window of 9 × 9 blocks: the window's
 * total evidence as a z-score. An edit covers hundreds of blocks with a few values each, so the weak
 * evidence of each block adds up over the window.
 */
import { DQ_MIN_GAIN_PER_1000, type FrequencyFit, singleCompressionPmf } from "./double-quantisation";

/** The map's settings (chosen on the eval's first generated set: docs/forensics.md, "Double quantisation"). */
const EVIDENCE = {
  /** A frequency is read when double quantisation explains it this much better (nats per 1000 values)… */
  minGainPer1000: DQ_MIN_GAIN_PER_1000 / 2,
  /** …and it has this many non-zero values. */
  minFrequencyValues: 500,
  /**
   * Bins with fewer values (observed, or expected once) say nothing: their ratio is noise. A bin the first save
   * left empty would be the strongest evidence, but counted (as one value) it flagged one more generated re-save.
   */
  minBinCount: 20,
  /** Log ratios are clamped to ±this: one odd coefficient must not decide a block. */
  clamp: Math.log(20),
  /** Blocks touching black or white (≤ this or ≥ 255 − this) are not judged: clipping breaks the lattice. */
  clipMargin: 10,
  /** Blocks are compared with blocks of similar contrast (darkest to brightest pixel), in this many groups. */
  contrastGroups: 10,
  /** Window radius in blocks (9 × 9 blocks, 72 × 72 px). */
  radius: 4,
};

/** Log ratio once/twice of each value −range..range of one frequency (0: says nothing). */
export interface FrequencyRatios {
  index: number;
  llr: Float32Array;
}

/** The frequencies whose histograms show double quantisation, with each value's log ratio from the histogram itself. */
export function histogramRatios(
  histograms: Int32Array,
  fits: readonly FrequencyFit[],
  range: number,
): FrequencyRatios[] {
  const bins = 2 * range + 1;
  return fits.flatMap((fit, index) => {
    if (fit.count < EVIDENCE.minFrequencyValues || (fit.gain / fit.count) * 1000 <= EVIDENCE.minGainPer1000) return [];
    const h = histograms.subarray(index * bins, (index + 1) * bins);
    const once = singleCompressionPmf(fit, range);
    const llr = new Float32Array(bins);
    for (let i = 0; i < bins; i++) {
      if (i === range || h[i] < EVIDENCE.minBinCount || once[i] * fit.count < EVIDENCE.minBinCount) continue;
      const ratio = Math.log(once[i]) - Math.log(h[i] / fit.count);
      llr[i] = Math.max(-EVIDENCE.clamp, Math.min(EVIDENCE.clamp, ratio));
    }
    return [{ index, llr }];
  });
}

export interface DqEvidenceInput {
  blocksWide: number;
  blocksHigh: number;
  /** Quantised values, `frequencies` per block (see jpeg-dct-blocks.ts). */
  coefficients: Int16Array;
  frequencies: number;
  range: number;
  low: Uint8Array;
  high: Uint8Array;
}

/** Per block: the summed log ratio of its values, their count and squared sum (unjudged blocks count 0). */
function blockSums(input: DqEvidenceInput, ratios: readonly FrequencyRatios[]) {
  const n = input.blocksWide * input.blocksHigh;
  const sum = new Float32Array(n);
  const squares = new Float32Array(n);
  const values = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (input.low[i] < EVIDENCE.clipMargin || input.high[i] > 255 - EVIDENCE.clipMargin) continue;
    for (const { index, llr } of ratios) {
      const v = input.coefficients[i * input.frequencies + index];
      if (v === 0 || v < -input.range || v > input.range) continue;
      const l = llr[v + input.range];
      sum[i] += l;
      squares[i] += l * l;
      values[i]++;
    }
  }
  return { sum, squares, values };
}

/**
 * Each judged block's sum centred by its contrast group's mean per value (in place) and the variance it
 * carries (values × the group's variance per value). Groups: equal shares of the judged blocks ordered by
 * contrast (a counting sort: contrast is 0–255).
 */
function centreByContrast(input: DqEvidenceInput, sum: Float32Array, squares: Float32Array, values: Uint8Array) {
  const n = sum.length;
  const starts = new Uint32Array(257);
  for (let i = 0; i < n; i++) if (values[i]) starts[input.high[i] - input.low[i] + 1]++;
  for (let c = 1; c <= 256; c++) starts[c] += starts[c - 1];
  const judged = starts[256];
  const order = new Uint32Array(judged);
  for (let i = 0; i < n; i++) if (values[i]) order[starts[input.high[i] - input.low[i]]++] = i;
  const variance = new Float32Array(n);
  const per = Math.max(1, Math.ceil(judged / EVIDENCE.contrastGroups));
  for (let from = 0; from < judged; from += per) {
    const group = order.subarray(from, Math.min(judged, from + per));
    let s = 0;
    let s2 = 0;
    let count = 0;
    for (const i of group) {
      s += sum[i];
      s2 += squares[i];
      count += values[i];
    }
    const mean = s / count;
    const perValue = Math.max(1e-6, s2 / count - mean * mean);
    for (const i of group) {
      sum[i] -= values[i] * mean;
      variance[i] = values[i] * perValue;
    }
  }
  return variance;
}

/**
 * Per-block map: the z-score of the total log ratio (once/twice) of the window around each block, each
 * value centred by blocks of similar contrast. High = this area lacks the double quantisation of the rest.
 * NaN where fewer than a third of the window's blocks are judged.
 */
export function dqEvidenceMap(input: DqEvidenceInput, ratios: readonly FrequencyRatios[]): Float32Array {
  const { blocksWide: w, blocksHigh: h } = input;
  const { sum, squares, values } = blockSums(input, ratios);
  const variance = centreByContrast(input, sum, squares, values);
  // Box sums, rows first then columns (two running sums instead of 81 additions per block).
  const rowSum = new Float64Array(w * h);
  const rowVariance = new Float64Array(w * h);
  const rowJudged = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      let v = 0;
      let j = 0;
      for (let xx = Math.max(0, x - EVIDENCE.radius); xx <= Math.min(w - 1, x + EVIDENCE.radius); xx++) {
        const i = y * w + xx;
        if (!values[i]) continue;
        s += sum[i];
        v += variance[i];
        j++;
      }
      rowSum[y * w + x] = s;
      rowVariance[y * w + x] = v;
      rowJudged[y * w + x] = j;
    }
  const map = new Float32Array(w * h).fill(Number.NaN);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - EVIDENCE.radius);
    const y1 = Math.min(h - 1, y + EVIDENCE.radius);
    for (let x = 0; x < w; x++) {
      let s = 0;
      let v = 0;
      let j = 0;
      for (let yy = y0; yy <= y1; yy++) {
        s += rowSum[yy * w + x];
        v += rowVariance[yy * w + x];
        j += rowJudged[yy * w + x];
      }
      const all = (y1 - y0 + 1) * (Math.min(w - 1, x + EVIDENCE.radius) - Math.max(0, x - EVIDENCE.radius) + 1);
      if (3 * j >= all && v > 0) map[y * w + x] = s / Math.sqrt(v);
    }
  }
  return map;
}

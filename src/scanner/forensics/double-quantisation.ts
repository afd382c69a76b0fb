/**
 * The aligned double-quantisation model (after Bianchi & Piva 2012, "Image forgery localization via
 * block-grained analysis of JPEG artifacts"). A coefficient quantised first with step q1 and, after
 * decoding, again with step q2 lands on the q2 grid in a pattern: some values collect several q1 steps,
 * others none. Its histogram is the single-compression histogram times that periodic multiplicity.
 * Per frequency we fit (q1, share α of double-quantised blocks) to the histogram: the fit says whether the
 * picture was saved as JPEG before (the per-block map is dq-evidence.ts).
 */
import { mixtureSharesWasm } from "./dq-fit-wasm";
import { binEdges, type CountedBins, FLOOR, fitLambda, singleLogLikelihood } from "./dq-rate-search";

/**
 * Error (coefficient units) between the two compressions: mostly rounding to 8 bits (narrow), but at
 * sharp edges the RGB clipping of upsampled chroma moves values further (wide). A single wide error made
 * small steps (2, 3) unreadable; a single narrow one made high-contrast edges of untouched re-saves
 * stand out (scripts/eval/image.eval.ts).
 */
const NARROW_SIGMA = 0.6;
const WIDE_SIGMA = 2.5;
const WIDE_SHARE = 0.2;
/** First step tried up to this multiple of q2 (and absolutely). */
const MAX_Q1_FACTOR = 3;
const MAX_Q1 = 48;
/** A first step must explain at least this share of a frequency's values. */
const MIN_ALPHA = 0.5;

/** A fitted frequency: the first step, the share fitting it, the evidence and the per-value log ratio. */
export interface FrequencyFit {
  q2: number;
  q1: number;
  alpha: number;
  /** Log-likelihood gain of the double-quantisation mixture over single quantisation (nats). */
  gain: number;
  /** Counted coefficients (non-zero values in range). */
  count: number;
  /** The Laplacian rate fitted to the non-zero values under single quantisation (NaN when there are none). */
  lambda: number;
}

function erf(x: number): number {
  // Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7).
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}
const normalCdf = (z: number) => 0.5 * (1 + erf(z / Math.SQRT2));

/** laplaceEdges' arrays, grown to the largest n asked (the fits are synchronous: one uses them at a time). */
let edgesBelow = new Float64Array(0);
let edgesAbove = new Float64Array(0);

/**
 * The Laplacian CDF (rate lambda) at the bin edges ±step·(k + ½), k = 0 … n − 1, from one exp per |edge|:
 * `below[k]` at −step·(k + ½) (0.5·e^(λy)), `above[k]` at +step·(k + ½) (1 − 0.5·e^(−λy)). λ·(−a) = −(λ·a)
 * exactly, so both come from the same exp and equal the CDF evaluated at each edge on its own. The arrays are
 * reused by the next call (no allocation per likelihood of the rate's search).
 */
function laplaceEdges(step: number, lambda: number, n: number): { below: Float64Array; above: Float64Array } {
  if (edgesBelow.length < n) {
    edgesBelow = new Float64Array(n);
    edgesAbove = new Float64Array(n);
  }
  const below = edgesBelow;
  const above = edgesAbove;
  for (let k = 0; k < n; k++) {
    const e = Math.exp(-lambda * (step * (k + 0.5)));
    below[k] = 0.5 * e;
    above[k] = 1 - 0.5 * e;
  }
  return { below, above };
}

/**
 * Probability of each quantised value −n … n (step `step`) under the Laplacian: CDF(step·(v + ½)) −
 * CDF(step·(v − ½)), written into `p` at offset `at` (p[at + v]).
 */
function quantisedLaplace(step: number, lambda: number, n: number, p: Float64Array, at: number): void {
  const { below, above } = laplaceEdges(step, lambda, n + 1);
  // Edge v + ½ is above[v] for v ≥ 0, below[−v − 1] for v < 0 (and edge v − ½ likewise, at v − 1).
  for (let v = -n; v < 0; v++) p[at + v] = below[-v - 1] - below[-v];
  p[at] = above[0] - below[0];
  for (let v = 1; v <= n; v++) p[at + v] = above[v] - above[v - 1];
}

/** Smallest mass a lattice point must have to count in doublePmf. */
const MIN_MASS = 1e-12;
/**
 * From this |v| on every lattice point's mass (step q1) is below MIN_MASS, so doublePmf need not work it out:
 * the mass beyond the edge q1·(V − ½) is 0.5·e^(−λ·q1·(V − ½)) ≤ 0.5·e^(−30) ≈ 5·10⁻¹⁴, and rounding adds at
 * most 2.3·10⁻¹⁶ to a difference of CDF values — far below MIN_MASS, so the points skipped are exactly those
 * whose computed mass doublePmf skipped before.
 */
function negligibleFrom(q1: number, lambda: number): number {
  const v = Math.ceil(30 / (lambda * q1) + 0.5);
  return Number.isFinite(v) ? v : Number.MAX_SAFE_INTEGER;
}

/** Single quantisation with step q2 of a Laplacian: probability of each value −range..range. */
function singlePmf(q2: number, lambda: number, range: number): Float64Array {
  const p = new Float64Array(2 * range + 1);
  quantisedLaplace(q2, lambda, range, p, range);
  return p;
}

/**
 * P(decoding error ≤ d), the mixture of both widths, at every d = k/2 the model asks for: bin edges
 * q2·(x ± ½) and lattice points q1·v are multiples of ½, so a table per q2 replaces ≈ 10⁵ erf calls per
 * frequency (the fit's fixed cost, whatever the picture's size). Kept for the next fits with the same q2 (a file's
 * frequencies often share one: leuvenA's 20 all have 1), up to ERROR_CDFS_KEPT tables of 8-bit steps.
 */
function errorCdf(q2: number): ErrorCdf {
  const kept = errorCdfs.get(q2);
  if (kept) return kept;
  const half = Math.ceil(2 * (4 * WIDE_SIGMA + 2.5 * q2 + 1));
  const table = new Float64Array(2 * half + 1);
  for (let k = -half; k <= half; k++)
    table[k + half] = (1 - WIDE_SHARE) * normalCdf(k / 2 / NARROW_SIGMA) + WIDE_SHARE * normalCdf(k / 2 / WIDE_SIGMA);
  const cdf = { table, half };
  if (q2 > 255) return cdf;
  if (errorCdfs.size >= ERROR_CDFS_KEPT) errorCdfs.clear();
  errorCdfs.set(q2, cdf);
  return cdf;
}

/** errorCdf's tables by q2 (≤ 21 KB each for q2 ≤ 255: 660 KB at most), emptied when this many are kept. */
const ERROR_CDFS_KEPT = 32;
const errorCdfs = new Map<number, ErrorCdf>();

/** errorCdf's table: P(error ≤ k/2) at table[k + half], the ends holding for every k beyond them. */
interface ErrorCdf {
  table: Float64Array;
  half: number;
}
/** doublePmf's lattice masses, grown to the largest asked (the fits are synchronous: one uses them at a time). */
let latticeMasses = new Float64Array(0);

/**
 * Quantisation with q1, decoding (rounding noise) and quantisation with q2: probability of each value, into `p`
 * (2 · range + 1 values, zeroed here: the fit's candidates reuse one array instead of two new ones each).
 */
function doublePmf(
  q1: number,
  q2: number,
  lambda: number,
  range: number,
  cdf: ErrorCdf,
  p: Float64Array,
): Float64Array {
  p.fill(0);
  const vMax = Math.min(Math.ceil((q2 * (range + 1) + 4 * WIDE_SIGMA) / q1), negligibleFrom(q1, lambda));
  if (latticeMasses.length < 2 * vMax + 1) latticeMasses = new Float64Array(2 * vMax + 1);
  const masses = latticeMasses;
  quantisedLaplace(q1, lambda, vMax, masses, vMax);
  for (let v = -vMax; v <= vMax; v++) {
    const mass = masses[v + vMax];
    if (mass < MIN_MASS) continue;
    const y = q1 * v;
    const lo = Math.max(-range, Math.floor((y - 4 * WIDE_SIGMA) / q2 - 0.5));
    const hi = Math.min(range, Math.ceil((y + 4 * WIDE_SIGMA) / q2 + 0.5));
    // Twice the distance from y to the bin edges q2·(x ± ½): whole numbers; bin x's upper edge is bin x + 1's lower.
    const { table, half } = cdf;
    const last = 2 * half;
    let k = q2 * (2 * lo - 1) - 2 * y + half;
    let lower = table[Math.min(Math.max(k, 0), last)];
    for (let x = lo; x <= hi; x++) {
      k += 2 * q2;
      const upper = table[Math.min(Math.max(k, 0), last)];
      p[x + range] += mass * (upper - lower);
      lower = upper;
    }
  }
  return p;
}

/** Renormalised over the non-zero values (zero says least and fits the Laplacian worst). */
function nonZero(p: Float64Array, range: number): Float64Array {
  let s = 0;
  for (let i = 0; i < p.length; i++) if (i !== range) s += p[i];
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = i === range || s <= 0 ? 0 : Math.max(FLOOR, p[i] / s);
  return out;
}

/**
 * The single-compression probability of each non-zero value −range..range: the Laplacian fitted to the histogram
 * (the fit's rate), quantised with q2.
 */
export function singleCompressionPmf(fit: FrequencyFit, range: number): Float64Array {
  return nonZero(singlePmf(fit.q2, fit.lambda, range), range);
}

/** The histogram's counted values: indices of the non-zero values with a count, ascending, and their counts. */
function countedBins(h: ArrayLike<number>, range: number): CountedBins {
  let total = 0;
  let n = 0;
  for (let i = 0; i < h.length; i++) if (i !== range && h[i] > 0) n++;
  const index = new Int32Array(n);
  const count = new Float64Array(n);
  for (let i = 0, j = 0; i < h.length; i++)
    if (i !== range) {
      total += h[i];
      if (h[i] > 0) {
        index[j] = i;
        count[j++] = h[i];
      }
    }
  return { index, count, total };
}

/** Where emShare starts. */
const EM_START = 0.5;

/**
 * Mixture share of double-quantised values (EM) over the counted bins only (`pd` and `ps` hold their probabilities in
 * the same order): the sums of the full loop, which skipped the other bins. The reference of the kernel of
 * dq-fit-wasm.ts (which runs two candidates at once).
 */
function emShare(bins: { count: Float64Array; total: number }, pd: Float64Array, ps: Float64Array): number {
  const { count, total } = bins;
  let alpha = EM_START;
  for (let iter = 0; iter < 30; iter++) {
    let r = 0;
    for (let j = 0; j < count.length; j++) {
      const a = alpha * pd[j];
      r += (count[j] * a) / (a + (1 - alpha) * ps[j]);
    }
    alpha = Math.min(1, Math.max(0, r / total));
  }
  return alpha;
}

/**
 * Whether emShare can end at a share ≥ MIN_ALPHA. Its step α ↦ M(α) = Σ count · αpd / (αpd + (1 − α)ps) / total
 * (clamped) is increasing in α, and computed within (n + 8)·2⁻⁵³ of its exact value for n bins. So when the first
 * step lands below min(EM_START, MIN_ALPHA) by more than twice that (1e-9 is ample), every later share stays below:
 * a computed share α < EM_START gives M(α) ≤ M(EM_START), within the rounding of the first step (or NaN, which is not
 * ≥ MIN_ALPHA either). Such a candidate cannot win: its 30 steps are not needed.
 */
function canReachMinShare(bins: { count: Float64Array; total: number }, pd: Float64Array, ps: Float64Array): boolean {
  const { count, total } = bins;
  let r = 0;
  for (let j = 0; j < count.length; j++) {
    const a = EM_START * pd[j];
    r += (count[j] * a) / (a + (1 - EM_START) * ps[j]);
  }
  return !(Math.min(1, Math.max(0, r / total)) < Math.min(EM_START, MIN_ALPHA) - 1e-9);
}

/** The mixture's log-likelihood at share `alpha` over the counted bins. */
function mixtureLogLikelihood(count: Float64Array, alpha: number, pd: Float64Array, ps: Float64Array): number {
  let ll = 0;
  for (let j = 0; j < count.length; j++) ll += count[j] * Math.log(alpha * pd[j] + (1 - alpha) * ps[j]);
  return ll;
}

/** nonZero(p) at the counted bins only (the sum over every non-zero value as there), into `out`. */
function nonZeroAt(
  p: Float64Array,
  range: number,
  index: Int32Array,
  out = new Float64Array(index.length),
): Float64Array {
  let s = 0;
  for (let i = 0; i < range; i++) s += p[i];
  for (let i = range + 1; i < p.length; i++) s += p[i];
  if (s <= 0) out.fill(0);
  else for (let j = 0; j < index.length; j++) out[j] = Math.max(FLOOR, p[index[j]] / s);
  return out;
}

/**
 * Fits the first quantisation step of one frequency to its histogram (values −range..range).
 * Returns q1 = q2 with gain 0 when no double quantisation explains the histogram better than one. The EM shares of
 * the candidates that can reach MIN_ALPHA come from the kernel (dq-fit-wasm.ts); with `reference`, every candidate's
 * from emShare and the rate from the search that works out every likelihood (dq-rate-search.ts).
 */
export function fitFrequency(
  h: ArrayLike<number>,
  q2: number,
  range: number,
  options: { reference?: boolean } = {},
): FrequencyFit {
  const bins = countedBins(h, range);
  const count = bins.total;
  if (count === 0) return { q2, q1: q2, alpha: 0, gain: 0, count, lambda: Number.NaN };
  const edges = binEdges(q2, range);
  const lambda = fitLambda(bins, q2, edges, range, options);
  const psAt = new Float64Array(bins.index.length);
  const base = singleLogLikelihood(lambda, edges, range, bins, psAt);
  let best = { q1: q2, alpha: 0, ll: base };
  const cdf = errorCdf(q2);
  const steps: number[] = [];
  for (let q1 = 1; q1 <= Math.min(MAX_Q1, MAX_Q1_FACTOR * q2 + 2); q1++) if (q1 !== q2) steps.push(q1);
  // The probabilities at the counted bins of every candidate that can reach MIN_ALPHA, one after the other (with
  // `reference`, of every candidate).
  const n = bins.index.length;
  const p = new Float64Array(2 * range + 1);
  const pds = new Float64Array(steps.length * n);
  const pdOf = (c: number) => pds.subarray(c * n, (c + 1) * n);
  const viable: number[] = [];
  for (const q1 of steps) {
    const pd = nonZeroAt(doublePmf(q1, q2, lambda, range, cdf, p), range, bins.index, pdOf(viable.length));
    if (options.reference || canReachMinShare(bins, pd, psAt)) viable.push(q1);
  }
  const shares = options.reference
    ? viable.map((_, c) => emShare(bins, pdOf(c), psAt))
    : viable.length > 0
      ? mixtureSharesWasm(bins.count, psAt, pds, viable.length, count)
      : [];
  viable.forEach((q1, c) => {
    const alpha = shares[c];
    // Most of a double-saved picture went through both saves: a step that explains only a minority is
    // a sub- or super-lattice of the real one, whose per-block ratios would be wrong (nor is its likelihood needed).
    if (!(alpha >= MIN_ALPHA)) return;
    const ll = mixtureLogLikelihood(bins.count, alpha, pdOf(c), psAt);
    if (ll > best.ll) best = { q1, alpha, ll };
  });
  return { q2, q1: best.q1, alpha: best.alpha, gain: best.ll - base, count, lambda };
}

/** A frequency counts when double quantisation explains it this much better (nats per 1000 coefficients)… */
export const DQ_MIN_GAIN_PER_1000 = 8;

/** Frequencies whose histograms show double quantisation (the others say nothing per block). */
export function informativeFits(fits: readonly FrequencyFit[]): { index: number; fit: FrequencyFit }[] {
  return fits.flatMap((fit, index) =>
    fit.count > 0 && (fit.gain / fit.count) * 1000 > DQ_MIN_GAIN_PER_1000 && fit.alpha >= MIN_ALPHA
      ? [{ index, fit }]
      : [],
  );
}

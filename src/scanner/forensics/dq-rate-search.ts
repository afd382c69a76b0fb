/**
 * The Laplacian rate of double-quantisation.ts's single-compression model: the golden-section search of log λ whose
 * every step is the likelihood Σ count · log p over a frequency's counted bins (65 `exp` and ≈ 125 `log` each, 42
 * per frequency: most of jpeg-dq's cost on small photos). The search's result depends only on which of two
 * likelihoods is larger, so a comparison whose answer a closed form of the likelihood (a handful of `exp`/`log`)
 * already settles within its proven error needs neither exact likelihood: the rate is the same double as with every
 * likelihood worked out (`fitLambda(…, { reference: true })`; test/forensics/image/dq-rate-search.test.ts). The
 * early, wide steps are settled so; the last ≈ 15, whose likelihoods differ in their last digits, are worked out.
 */

/** Probability floor (a value the model says cannot occur still can: clipping, rounding). */
export const FLOOR = 1e-4;
/** Math.log(FLOOR): the log of every floored probability, looked up instead of worked out each time (the same double). */
const LOG_FLOOR = Math.log(FLOOR);
/** |log p| of every floored probability p ≤ 1 is at most this (−LOG_FLOOR, rounded up). */
const MAX_LOG = 9.22;
/** Unit roundoff of doubles. */
const U = Number.EPSILON / 2;

/** A histogram's counted values: indices of the non-zero values with a count, ascending, their counts and the total. */
export interface CountedBins {
  index: Int32Array;
  count: Float64Array;
  total: number;
}

/** The bin edges q2 · (k + ½), k = 0 … range, as the quantised Laplacian multiplies them out. */
export function binEdges(q2: number, range: number): Float64Array {
  const edges = new Float64Array(range + 1);
  for (let k = 0; k <= range; k++) edges[k] = q2 * (k + 0.5);
  return edges;
}

/** singleLogLikelihood's scratch arrays, grown to the largest range asked (the fits are synchronous). */
let edgeExps = new Float64Array(0);
let singleValues = new Float64Array(0);

/**
 * Σ count · log p over the counted bins, p the single-quantisation probability with step q2 (`edges[k]` = q2 · (k + ½),
 * k = 0 … range) of a Laplacian of rate `lambda`, renormalised over the non-zero values and floored; p at the counted
 * bins into `at`. The CDF at −edge is ½e^(−λ·edge), at +edge 1 − ½e^(−λ·edge), one exp per |edge| (λ·(−a) = −(λ·a)
 * exactly); the values summed from −range up, value 0 left out; the log of the floor looked up.
 */
export function singleLogLikelihood(
  lambda: number,
  edges: Float64Array,
  range: number,
  bins: CountedBins,
  at: Float64Array,
): number {
  const n = range + 1;
  if (edgeExps.length < n) {
    edgeExps = new Float64Array(n);
    singleValues = new Float64Array(2 * range + 1);
  }
  const e = edgeExps;
  const p = singleValues;
  for (let k = 0; k < n; k++) e[k] = Math.exp(-lambda * edges[k]);
  let s = 0;
  // Value −k lies between the CDF at −edge k and at −edge k − 1.
  let outer = 0.5 * e[range];
  for (let k = range; k > 0; k--) {
    const inner = 0.5 * e[k - 1];
    const pv = inner - outer;
    p[range - k] = pv;
    s += pv;
    outer = inner;
  }
  let lower = 1 - 0.5 * e[0];
  for (let v = 1; v <= range; v++) {
    const upper = 1 - 0.5 * e[v];
    const pv = upper - lower;
    p[v + range] = pv;
    s += pv;
    lower = upper;
  }
  const { index, count } = bins;
  let ll = 0;
  for (let j = 0; j < index.length; j++) {
    const pj = s <= 0 ? 0 : Math.max(FLOOR, p[index[j]] / s);
    at[j] = pj;
    ll += count[j] * (pj === FLOOR ? LOG_FLOOR : Math.log(pj));
  }
  return ll;
}

/** γ_n of floating-point error analysis: the relative error bound of n roundings in a row. */
const gamma = (n: number) => (n * U) / (1 - n * U);

/**
 * The counted values by their distance from ±1 (|v| − 1 = 0 … range − 1): `counts[g]` the counted values at distance ≤ g,
 * `moments[g]` Σ count · distance over them (integers, exact), `total` all counted values.
 */
export interface BinDistances {
  counts: Float64Array;
  moments: Float64Array;
  total: number;
}

export function binDistances(bins: CountedBins, range: number): BinDistances {
  const counts = new Float64Array(range);
  const moments = new Float64Array(range);
  for (let j = 0; j < bins.index.length; j++) {
    const g = Math.abs(bins.index[j] - range) - 1;
    counts[g] += bins.count[j];
    moments[g] += bins.count[j] * g;
  }
  for (let g = 1; g < range; g++) {
    counts[g] += counts[g - 1];
    moments[g] += moments[g - 1];
  }
  return { counts, moments, total: range > 0 ? counts[range - 1] : 0 };
}

/** The closed form of a likelihood and its bound (Infinity: not proven there, work the likelihood out). */
export interface ClosedForm {
  value: number;
  bound: number;
}

const UNBOUNDED: ClosedForm = { value: Number.NaN, bound: Number.POSITIVE_INFINITY };

/**
 * The closed form of singleLogLikelihood and a bound on how far singleLogLikelihood's double lies from it. With
 * μ = λ·q2 and R = e^(−μ), value v ≠ 0 has probability ½·e^(−μ/2)·R^(|v|−1)·(1 − R) and the non-zero values together
 * e^(−μ/2)·(1 − R^range), so log p = B − μ·(|v| − 1), B = log(½(1 − R)) − log(1 − R^range) ∈ [−14.6, −log 2], down to
 * the floor: Σ count · log p = B·C − μ·M + log(FLOOR)·(total − C) over the C values above the floor (M their
 * distances). Five transcendentals instead of ≈ 190.
 * The bound adds (a) how far singleLogLikelihood's rounding moves its sum from the exact one: each e_k within
 * (μ·(range + ½) + 2) ulps (the argument's rounding; V8's exp within one ulp), 1 − ½e_k and each quotient within half
 * an ulp, the differences of the upper edges exact (Sterbenz), the sums within γ of their terms; so each probability
 * r within a relative ρ and an absolute τ (1 − ½e_k's rounding, the largest part), at most 2ρ + 2τ/max(2·FLOOR, r) in
 * its floored log, whose log is within one ulp of |log p| ≤ MAX_LOG; and (b) the closed form's own rounding (≤ 410 half-ulps per
 * value with |B| ≤ 14.6 and μ·(|v| − 1) ≤ 34 above the floor, counted as 1000). `fine`: τ's share per distance from
 * zero (≈ 20× smaller; a loop over the distances), else as if every probability were at the floor.
 */
export function closedFormLogLikelihood(
  lambda: number,
  q2: number,
  range: number,
  distances: BinDistances,
  fine = false,
): ClosedForm {
  const mu = lambda * q2;
  // e_k ≥ e^(−600): no subnormal probabilities; μ ≥ 1e-6 keeps 1 − R and the bounds of B in range.
  if (!(mu * (range + 1) <= 600 && mu >= 1e-6 && range >= 1)) return UNBOUNDED;
  const oneMinusR = -Math.expm1(-mu);
  const massBeyondZero = -Math.expm1(-mu * range);
  const base = Math.log(0.5 * oneMinusR) - Math.log(massBeyondZero);
  const { counts, moments, total } = distances;
  // The last distance above the floor (−1: none).
  const last = base < LOG_FLOOR ? -1 : Math.min(range - 1, Math.floor((base - LOG_FLOOR) / mu));
  const above = last < 0 ? 0 : counts[last];
  const value = base * above - mu * (last < 0 ? 0 : moments[last]) + LOG_FLOOR * (total - above);
  // (a) Lower bounds of 1 − R and of the non-zero mass s (each computed within a few ulps: 1e-10 is ample).
  const low = 1 - 1e-10;
  const gap = oneMinusR * low;
  const s = Math.exp(-mu / 2) * massBeyondZero * low;
  const eta = (mu * (range + 0.5) + 2) * U * 1.01;
  const sumGamma = gamma(2 * range);
  const epsilon = (1 + sumGamma) * ((2 * (eta + U)) / gap + (2 * U * range) / s) + sumGamma;
  if (!(epsilon < 0.1)) return UNBOUNDED;
  const rho = ((epsilon + U) * (1 + U)) / (1 - epsilon);
  const tau = (((eta + 3 * U) / s) * (1 + U)) / (1 - epsilon);
  if (!(rho <= 0.25 && tau <= FLOOR / 2)) return UNBOUNDED;
  // τ moves the log of a probability r > 2·FLOOR by at most 2τ/r, of a smaller one by τ/FLOOR.
  const spread = fine ? countsOverProbabilities(base, mu, range, distances) : total / (2 * FLOOR);
  const exact = total * (2 * rho + 3.1 * U * MAX_LOG + sumGamma * MAX_LOG * 1.01) + 2.02 * tau * spread;
  // (b) The closed form's own rounding.
  return { value, bound: exact + total * 1000 * U };
}

/**
 * Σ count / max(2·FLOOR, r) over the counted values, r = e^B·R^g the probability at distance g taken from below (e^B
 * and R shrunk by more than their rounding, so every rounded product stays below the exact one).
 */
function countsOverProbabilities(base: number, mu: number, range: number, distances: BinDistances): number {
  const { counts, total } = distances;
  const cut = 2 * FLOOR;
  const shrink = Math.exp(-mu) * (1 - 1e-12);
  let r = Math.exp(base) * (1 - 1e-9);
  let sum = 0;
  let g = 0;
  for (; g < range && r > cut; g++, r *= shrink) sum += (counts[g] - (g > 0 ? counts[g - 1] : 0)) / r;
  return sum + (total - (g > 0 ? counts[g - 1] : 0)) / cut;
}

/** One step of the search: log λ, the closed form with its bound, and singleLogLikelihood once it was needed. */
class SearchPoint {
  readonly logLambda: number;
  readonly lambda: number;
  readonly approximate: number;
  bound: number;
  /** Whether `bound` is the fine one. */
  fine = false;
  /** singleLogLikelihood at λ once `worked` (NaN and −Infinity are likelihoods too). */
  likelihood = 0;
  worked = false;

  constructor(logLambda: number, lambda: number, closed: ClosedForm) {
    this.logLambda = logLambda;
    this.lambda = lambda;
    this.approximate = closed.value;
    this.bound = closed.bound;
  }
}

/** What the search's steps of one histogram read: its counted values, their distances and the bin edges. */
class RateSearch {
  private readonly bins: CountedBins;
  private readonly q2: number;
  private readonly edges: Float64Array;
  private readonly range: number;
  private readonly reference: boolean;
  private readonly distances: BinDistances;
  private readonly at: Float64Array;

  constructor(bins: CountedBins, q2: number, edges: Float64Array, range: number, reference: boolean) {
    this.bins = bins;
    this.q2 = q2;
    this.edges = edges;
    this.range = range;
    this.reference = reference;
    this.distances = binDistances(bins, range);
    this.at = new Float64Array(bins.index.length);
  }

  point(logLambda: number): SearchPoint {
    const lambda = Math.exp(logLambda);
    const closed = this.reference ? UNBOUNDED : closedFormLogLikelihood(lambda, this.q2, this.range, this.distances);
    return new SearchPoint(logLambda, lambda, closed);
  }

  /** Whether c's likelihood exceeds d's: settled by the coarse bounds, else by the fine ones, else worked out. */
  greater(c: SearchPoint, d: SearchPoint): boolean {
    let answer = settled(c, d);
    if (answer === OPEN && !(c.fine && d.fine)) {
      this.refine(c);
      this.refine(d);
      answer = settled(c, d);
    }
    return answer === OPEN ? this.exact(c) > this.exact(d) : answer === GREATER;
  }

  private exact(point: SearchPoint): number {
    if (!point.worked) {
      point.likelihood = singleLogLikelihood(point.lambda, this.edges, this.range, this.bins, this.at);
      point.worked = true;
    }
    return point.likelihood;
  }

  private refine(point: SearchPoint): void {
    if (!point.fine && Number.isFinite(point.bound))
      point.bound = closedFormLogLikelihood(point.lambda, this.q2, this.range, this.distances, true).bound;
    point.fine = true;
  }
}

const GREATER = 1;
const NOT_GREATER = 0;
const OPEN = -1;

/**
 * Whether c's likelihood exceeds d's when their closed forms' difference exceeds both bounds (twice over, plus the
 * rounding of the difference; a worked-out likelihood counts with bound 0); OPEN when it does not.
 */
function settled(c: SearchPoint, d: SearchPoint): number {
  const vc = c.worked ? c.likelihood : c.approximate;
  const vd = d.worked ? d.likelihood : d.approximate;
  const margin = 2 * ((c.worked ? 0 : c.bound) + (d.worked ? 0 : d.bound));
  const within = margin + 4 * U * (Math.abs(vc) + Math.abs(vd));
  if (vc - vd > within) return GREATER;
  if (vd - vc > within) return NOT_GREATER;
  return OPEN;
}

/**
 * Laplacian rate that best explains the non-zero values under single quantisation: golden-section search of log λ
 * over [log 1e-4, log 5], 40 steps. `reference`: every likelihood worked out (the search as it was written first).
 */
export function fitLambda(
  bins: CountedBins,
  q2: number,
  edges: Float64Array,
  range: number,
  options: { reference?: boolean } = {},
): number {
  const search = new RateSearch(bins, q2, edges, range, options.reference === true);
  let a = Math.log(1e-4);
  let b = Math.log(5);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = search.point(b - g * (b - a));
  let d = search.point(a + g * (b - a));
  for (let i = 0; i < 40; i++) {
    if (search.greater(c, d)) {
      b = d.logLambda;
      d = c;
      c = search.point(b - g * (b - a));
    } else {
      a = c.logLambda;
      c = d;
      d = search.point(a + g * (b - a));
    }
  }
  return Math.exp((a + b) / 2);
}

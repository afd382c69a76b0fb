// The double-quantisation fits (src/scanner/forensics/double-quantisation.ts) against the model written out
// the direct way, as it was before its fixed per-file cost was cut (every bin edge's CDF on its own, every
// lattice point's mass, EM over all 129 bins): the same first step, share, gain and count, bit for bit, with the EM
// shares of the kernel (wasm/assembly/dq-fit.ts, two candidates at a time: even and odd candidate counts) and of
// the JavaScript reference.
import { describe, expect, it } from "vitest";
import { fitFrequency } from "../../../src/scanner/forensics/double-quantisation";
import { DQ_RANGE } from "../../../src/scanner/forensics/jpeg-dct-blocks";
import { photoHistograms } from "./dq-histograms";

const NARROW = 0.6;
const WIDE = 2.5;
const WIDE_SHARE = 0.2;

/** Abramowitz & Stegun 7.1.26, as the module computes it. */
function erfAs(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  const y = 1 - poly * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}

const laplace = (y: number, lambda: number) => (y < 0 ? 0.5 * Math.exp(lambda * y) : 1 - 0.5 * Math.exp(-lambda * y));

function direct(h: ArrayLike<number>, q2: number, range: number) {
  const n = 2 * range + 1;
  const normalise = (p: Float64Array) => {
    let s = 0;
    for (let i = 0; i < n; i++) if (i !== range) s += p[i];
    return p.map((v, i) => (i === range || s <= 0 ? 0 : Math.max(1e-4, v / s)));
  };
  const single = (lambda: number) =>
    normalise(
      Float64Array.from(
        { length: n },
        (_, i) => laplace(q2 * (i - range + 0.5), lambda) - laplace(q2 * (i - range - 0.5), lambda),
      ),
    );
  const ll = (p: Float64Array) => {
    let s = 0;
    for (let i = 0; i < n; i++) if (i !== range && h[i] > 0) s += h[i] * Math.log(p[i]);
    return s;
  };
  let count = 0;
  for (let i = 0; i < n; i++) if (i !== range) count += h[i];
  if (count === 0) return { q2, q1: q2, alpha: 0, gain: 0, count };
  // Golden-section search of log λ.
  let [a, b] = [Math.log(1e-4), Math.log(5)];
  const g = (Math.sqrt(5) - 1) / 2;
  let [c, d] = [b - g * (b - a), a + g * (b - a)];
  let [fc, fd] = [ll(single(Math.exp(c))), ll(single(Math.exp(d)))];
  for (let i = 0; i < 40; i++)
    if (fc > fd) {
      [b, d, fd] = [d, c, fc];
      c = b - g * (b - a);
      fc = ll(single(Math.exp(c)));
    } else {
      [a, c, fc] = [c, d, fd];
      d = a + g * (b - a);
      fd = ll(single(Math.exp(d)));
    }
  const lambda = Math.exp((a + b) / 2);
  const ps = single(lambda);
  const base = ll(ps);
  const normal = (z: number) => 0.5 * (1 + erfAs(z / Math.SQRT2));
  const half = Math.ceil(2 * (4 * WIDE + 2.5 * q2 + 1));
  const cdf = (k: number) => {
    const c = Math.min(half, Math.max(-half, k)) / 2;
    return (1 - WIDE_SHARE) * normal(c / NARROW) + WIDE_SHARE * normal(c / WIDE);
  };
  let best = { q1: q2, alpha: 0, ll: base };
  for (let q1 = 1; q1 <= Math.min(48, 3 * q2 + 2); q1++) {
    if (q1 === q2) continue;
    const p = new Float64Array(n);
    const vMax = Math.ceil((q2 * (range + 1) + 4 * WIDE) / q1);
    for (let v = -vMax; v <= vMax; v++) {
      const mass = laplace(q1 * (v + 0.5), lambda) - laplace(q1 * (v - 0.5), lambda);
      if (mass < 1e-12) continue;
      const y = q1 * v;
      const lo = Math.max(-range, Math.floor((y - 4 * WIDE) / q2 - 0.5));
      const hi = Math.min(range, Math.ceil((y + 4 * WIDE) / q2 + 0.5));
      for (let x = lo; x <= hi; x++)
        p[x + range] += mass * (cdf(q2 * (2 * x + 1) - 2 * y) - cdf(q2 * (2 * x - 1) - 2 * y));
    }
    const pd = normalise(p);
    let alpha = 0.5;
    for (let iter = 0; iter < 30; iter++) {
      let r = 0;
      for (let i = 0; i < n; i++) {
        if (i === range || !h[i]) continue;
        const w = alpha * pd[i];
        r += (h[i] * w) / (w + (1 - alpha) * ps[i]);
      }
      alpha = Math.min(1, Math.max(0, r / count));
    }
    let mix = 0;
    for (let i = 0; i < n; i++)
      if (i !== range && h[i] > 0) mix += h[i] * Math.log(alpha * pd[i] + (1 - alpha) * ps[i]);
    if (alpha >= 0.5 && mix > best.ll) best = { q1, alpha, ll: mix };
  }
  return { q2, q1: best.q1, alpha: best.alpha, gain: best.ll - base, count };
}

/** Deterministic uniform numbers in (0, 1). */
function uniforms(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
}

/** Histogram of `n` Laplacian values (rate λ), quantised with q1 (0: not), decoded with noise, quantised with q2. */
function histogram(n: number, lambda: number, q1: number, q2: number, seed: number): Int32Array {
  const next = uniforms(seed);
  const h = new Int32Array(2 * DQ_RANGE + 1);
  for (let i = 0; i < n; i++) {
    const u = next() - 0.5;
    let x = (-Math.sign(u) * Math.log(1 - 2 * Math.abs(u))) / lambda;
    if (q1) x = Math.round(x / q1) * q1 + (next() - 0.5);
    const v = Math.round(x / q2);
    if (Math.abs(v) <= DQ_RANGE) h[v + DQ_RANGE]++;
  }
  return h;
}

/** The fit with the EM shares of the kernel (wasm/assembly/dq-fit.ts) and of the JavaScript reference, against the direct model. */
function expectSameFit(h: ArrayLike<number>, q2: number, label: string): void {
  const want = direct(h, q2, DQ_RANGE);
  for (const [path, fit] of [
    ["kernel", fitFrequency(h, q2, DQ_RANGE)],
    ["reference", fitFrequency(h, q2, DQ_RANGE, { reference: true })],
  ] as const)
    for (const key of ["q1", "alpha", "gain", "count"] as const)
      expect(Object.is(fit[key], want[key]), `${label} (${path}): ${key} ${fit[key]} against ${want[key]}`).toBe(true);
}

describe("double-quantisation fits: the same values as the model computed directly", () => {
  it("on double- and single-quantised Laplacians from sharp to nearly flat, with small and large steps", () => {
    let seed = 1;
    for (const [lambda, q1, q2] of [
      [0.1, 5, 3],
      [0.05, 7, 2],
      [0.02, 0, 4],
      [0.5, 3, 1],
      [0.003, 11, 40],
      [1e-4, 0, 1],
      [3, 2, 5],
      [0.01, 16, 12],
    ]) {
      expectSameFit(histogram(20_000, lambda, q1, q2, seed++), q2, `λ ${lambda}, q1 ${q1}, q2 ${q2}`);
    }
  });

  it("on a photo's 20 frequencies (leuvenA at quality 100, a camera's own tables) and degenerate histograms", async () => {
    for (const { h, q2, label } of await photoHistograms([
      "photos/opencv-doc/leuvenA.jpg",
      "exif-samples/jpg/Nikon_COOLPIX_P1.jpg",
    ]))
      expectSameFit(h, q2, label);
    const empty = new Int32Array(2 * DQ_RANGE + 1);
    expectSameFit(empty, 3, "empty");
    const zerosOnly = empty.slice();
    zerosOnly[DQ_RANGE] = 500;
    expectSameFit(zerosOnly, 3, "only zeros");
    const ends = empty.slice();
    ends[0] = 7;
    ends[2 * DQ_RANGE] = 1;
    expectSameFit(ends, 2, "only the outermost values");
    const flat = empty.map(() => 1000);
    expectSameFit(flat, 6, "flat");
    const single = empty.slice();
    single[DQ_RANGE + 1] = 3;
    for (const q2 of [1, 2, 7, 48]) expectSameFit(single, q2, `one value, q2 ${q2}`);
  });
});

/**
 * anomaly.ts `relativeToPeers` and `smoothGrid` with their loops in wasm (wasm/assembly/peer-bins.ts): the
 * same Float32Array values (anomaly.ts stays the reference; test/forensics/image/wasm-peer-kernels.test.ts
 * compares them). The bins' members and middle values come from the kernels; the log2 ratios are taken here,
 * by the reference's expression, so that the runtime's Math.log2 gives every value (V8s differ in its last bits).
 */
import { relativeToPeers, smoothGrid } from "./anomaly";
import { kernels, scratchRegions } from "./wasm-kernels";

/** peerRuns' counting buckets (wasm/assembly/peer-bins.ts PEER_BUCKETS + 1 u32). */
const BUCKET_BYTES = (65536 + 1) * 4;

/** Runs are numbered in a byte (0: not reliable); more bins than that take the reference. */
const MAX_BINS = 255;

/** Arrays of one grid: otherwise the reference, which reads past the shorter ones as it does. */
const sameLength = (values: Float32Array, covariate: Float32Array, reliable: Uint8Array) =>
  covariate.length === values.length && reliable.length === values.length;

/** anomaly.ts `relativeToPeers`, its values (defaults included). */
export function relativeToPeersWasm(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
  bins = 12,
  floor = 0.05,
): Float32Array {
  const ratios = peerRatios(values, covariate, reliable, bins, floor);
  if (!ratios) return relativeToPeers(values, covariate, reliable, bins, floor);
  return new Float32Array(ratios.buffer, ratios.at, values.length).slice();
}

/**
 * smoothGrid(relativeToPeers(…), w, h, radius) of anomaly.ts, its values (what ELA and noise score blocks by),
 * the ratios smoothed where the kernels left them: one copy out of wasm memory instead of three copies and a
 * grid in JavaScript.
 */
export function smoothedPeerRatios(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
  w: number,
  h: number,
  radius: number,
  bins = 12,
  floor = 0.05,
): Float32Array {
  const n = values.length;
  const ratios = n === w * h ? peerRatios(values, covariate, reliable, bins, floor) : null;
  if (!ratios) return smoothGridWasm(relativeToPeersWasm(values, covariate, reliable, bins, floor), w, h, radius);
  kernels().smoothGrid(ratios.at, w, h, radius, Math.max(1, Math.floor((2 * radius + 1) ** 2 / 3)), ratios.free);
  return new Float32Array(ratios.buffer, ratios.free, n).slice();
}

/**
 * relativeToPeers' ratios left in the kernels' memory (at `at`, f32 per block), with `free`: room for as many
 * f32 behind them; null where the reference must run (more bins than a byte numbers, arrays of other lengths,
 * too few reliable blocks: all NaN, which the reference returns at once).
 */
function peerRatios(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
  bins: number,
  floor: number,
): { buffer: ArrayBuffer; at: number; free: number } | null {
  if (bins > MAX_BINS || !sameLength(values, covariate, reliable)) return null;
  let count = 0;
  for (let i = 0; i < reliable.length; i++) if (reliable[i]) count++;
  if (count < bins * 4) return null;
  const per = Math.ceil(count / bins);
  const n = values.length;
  const k = kernels();
  // Once the runs are found, the covariate's place takes the values (then their ratios), the reliable bytes each
  // block's run, and the keys' place the smoothed ratios (≈ 13 bytes per block in all, and 256 KB of buckets).
  const s = scratchRegions(
    {
      covariate: n * 4,
      runOf: n,
      keys: Math.max(count * 8, n * 4),
      scratch: per * 4,
      middles: bins * 8,
      buckets: BUCKET_BYTES,
    },
    k,
  );
  new Float32Array(s.buffer, s.at.covariate, n).set(covariate);
  s.bytes.set(reliable, s.at.runOf);
  k.peerRuns(s.at.covariate, s.at.runOf, n, count, per, s.at.keys, s.at.buckets);
  new Float32Array(s.buffer, s.at.covariate, n).set(values);
  k.peerMiddles(s.at.covariate, s.at.keys, count, per, bins, s.at.scratch, s.at.middles, s.at.runOf);
  const middles = new Float64Array(s.buffer, s.at.middles, bins);
  // medians[run + 1]: the reference's median of each run.
  const medians = new Float64Array(bins + 1);
  for (let b = 0; b < bins; b++) medians[b + 1] = Math.max(floor, middles[b]);
  // In block order (≈ 3× faster than in the runs' order), the reference's expression, over the values' place.
  const runOf = s.bytes.subarray(s.at.runOf, s.at.runOf + n);
  const ratios = new Float32Array(s.buffer, s.at.covariate, n);
  for (let i = 0; i < n; i++) {
    const run = runOf[i];
    ratios[i] = run ? Math.log2(Math.max(floor, values[i]) / medians[run]) : Number.NaN;
  }
  return { buffer: s.buffer, at: s.at.covariate, free: s.at.keys };
}

/** anomaly.ts `smoothGrid`, its values. */
export function smoothGridWasm(values: Float32Array, w: number, h: number, radius: number): Float32Array {
  // A grid of another size than its values: the reference's reading past the end, as it does.
  if (values.length !== w * h) return smoothGrid(values, w, h, radius);
  const n = w * h;
  const k = kernels();
  const s = scratchRegions({ values: n * 4, out: n * 4 }, k);
  new Float32Array(s.buffer, s.at.values, n).set(values.subarray(0, n));
  k.smoothGrid(s.at.values, w, h, radius, Math.max(1, Math.floor((2 * radius + 1) ** 2 / 3)), s.at.out);
  return new Float32Array(s.buffer, s.at.out, n).slice();
}

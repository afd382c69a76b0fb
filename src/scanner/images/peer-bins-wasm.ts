/**
 * anomaly.ts `relativeToPeers` and `smoothGrid` with their loops in wasm (wasm/assembly/peer-bins.ts): the
 * same Float32Array values (anomaly.ts stays the reference; test/forensics/image/wasm-peer-kernels.test.ts
 * compares them). The bins' members and middle values come from the kernels; the log2 ratios are taken here,
 * by the reference's expression, so that V8's Math.log2 gives every value.
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
  if (bins > MAX_BINS || !sameLength(values, covariate, reliable))
    return relativeToPeers(values, covariate, reliable, bins, floor);
  let count = 0;
  for (let i = 0; i < reliable.length; i++) if (reliable[i]) count++;
  const out = new Float32Array(values.length).fill(Number.NaN);
  if (count < bins * 4) return out;
  const per = Math.ceil(count / bins);
  const n = values.length;
  const k = kernels();
  // Once the runs are found, the covariate's place takes the values and the reliable bytes each block's run
  // (≈ 13 bytes per block in all, and 256 KB of buckets).
  const s = scratchRegions(
    { covariate: n * 4, runOf: n, keys: count * 8, scratch: per * 4, middles: bins * 8, buckets: BUCKET_BYTES },
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
  // In block order (≈ 3× faster than in the runs' order), the reference's expression.
  const runOf = s.bytes.subarray(s.at.runOf, s.at.runOf + n);
  for (let i = 0; i < n; i++) {
    const run = runOf[i];
    if (run) out[i] = Math.log2(Math.max(floor, values[i]) / medians[run]);
  }
  return out;
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

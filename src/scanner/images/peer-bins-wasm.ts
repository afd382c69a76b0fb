/**
 * anomaly.ts `relativeToPeers` and `smoothGrid` with their loops in wasm (wasm/assembly/peer-bins.ts): the
 * same Float32Array values (anomaly.ts stays the reference; test/forensics/image/wasm-peer-kernels.test.ts
 * compares them). The bins' members and middle values come from the kernels; the log2 ratios are taken here,
 * by the reference's expression, so that V8's Math.log2 gives every value.
 */
import { smoothGrid } from "./anomaly";
import { kernels, scratchRegions } from "./wasm-kernels";

/** anomaly.ts `relativeToPeers`, its values (defaults included). */
export function relativeToPeersWasm(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
  bins = 12,
  floor = 0.05,
): Float32Array {
  let count = 0;
  for (let i = 0; i < reliable.length; i++) if (reliable[i]) count++;
  const out = new Float32Array(values.length).fill(Number.NaN);
  if (count < bins * 4) return out;
  const per = Math.ceil(count / bins);
  const n = values.length;
  const k = kernels();
  // The covariate's place takes the values once the runs are found (≈ 13 bytes per block in all).
  const s = scratchRegions({ covariate: n * 4, reliable: n, keys: count * 8, scratch: per * 4, middles: bins * 8 }, k);
  new Float32Array(s.buffer, s.at.covariate, n).set(covariate);
  s.bytes.set(reliable, s.at.reliable);
  k.peerRuns(s.at.covariate, s.at.reliable, n, count, per, s.at.keys);
  new Float32Array(s.buffer, s.at.covariate, n).set(values);
  k.peerMiddles(s.at.covariate, s.at.keys, count, per, bins, s.at.scratch, s.at.middles);
  const runs = new Uint32Array(s.buffer, s.at.keys, count);
  const middles = new Float64Array(s.buffer, s.at.middles, bins);
  for (let b = 0; b < bins; b++) {
    const end = Math.min(count, (b + 1) * per);
    if (b * per >= end) continue;
    const median = Math.max(floor, middles[b]);
    for (let j = b * per; j < end; j++) {
      const i = runs[j];
      out[i] = Math.log2(Math.max(floor, values[i]) / median);
    }
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

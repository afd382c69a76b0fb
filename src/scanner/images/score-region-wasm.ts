/**
 * The top region of a per-block score map (region-map.ts `judgeRegions`) by the kernel of
 * wasm/assembly/score-region.ts: the same region and count of judged blocks as anomaly.ts `topAnomalyRegion`
 * (the reference; test/forensics/image/wasm-region-kernels.test.ts compares them), without the JavaScript
 * search, its list of every region and its arrays per call (≈ 375 000 blocks per map at 24 MP).
 */
import { type AnomalyRegion, type TopAnomalyRegion, topAnomalyRegion } from "./anomaly";
import { kernels, scratchRegions } from "./wasm-kernels";

/** anomaly.ts `topAnomalyRegion`, its values. */
export function topAnomalyRegionWasm(
  scores: Float32Array,
  w: number,
  h: number,
  threshold: number,
  maxShare: number,
): TopAnomalyRegion {
  // A grid of another size than its scores: the reference's reading of it, as it does.
  if (scores.length !== w * h) return topAnomalyRegion(scores, w, h, threshold, maxShare);
  const n = scores.length;
  const { at, buffer } = scratchRegions({ scores: n * 4, flags: n, stack: n * 4, out: 32 });
  new Float32Array(buffer, at.scores, n).set(scores);
  const count = kernels().scoreTopRegion(at.scores, w, h, threshold, maxShare, at.flags, at.stack, at.out);
  const judged = new Int32Array(buffer, at.out + 24, 1)[0];
  return { judged, region: kernelRegion(buffer, at.out, count, judged) };
}

/**
 * The region a region kernel (score-region.ts, ghost-region.ts) wrote at `out` (x0, y0, x1, y1 as i32, the score
 * sum as an f64 at `out` + 16) as anomalyRegions gives it; null when it found none (`count` 0).
 */
export function kernelRegion(buffer: ArrayBuffer, out: number, count: number, judged: number): AnomalyRegion | null {
  if (!count) return null;
  const [x0, y0, x1, y1] = new Int32Array(buffer, out, 4);
  const sum = new Float64Array(buffer, out + 16, 1)[0];
  return {
    blocks: count,
    share: count / judged,
    meanScore: sum / count,
    x: x0,
    y: y0,
    width: x1 - x0 + 1,
    height: y1 - y0 + 1,
  };
}

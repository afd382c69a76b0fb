/**
 * The top region of a per-block score map (region-map.ts `judgeRegions`) by the kernel of
 * wasm/assembly/score-region.ts: the same region and count of judged blocks as anomaly.ts `topAnomalyRegion`
 * (the reference; test/forensics/image/wasm-region-kernels.test.ts compares them), without the JavaScript
 * search, its list of every region and its arrays per call (≈ 375 000 blocks per map at 24 MP).
 */
import { type TopAnomalyRegion, topAnomalyRegion } from "./anomaly";
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
  const [x0, y0, x1, y1, , , judged] = new Int32Array(buffer, at.out, 7);
  if (!count) return { judged, region: null };
  const sum = new Float64Array(buffer, at.out + 16, 1)[0];
  const region = {
    blocks: count,
    share: count / judged,
    meanScore: sum / count,
    x: x0,
    y: y0,
    width: x1 - x0 + 1,
    height: y1 - y0 + 1,
  };
  return { judged, region };
}

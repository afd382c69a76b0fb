/**
 * The JavaScript reference of ghost-map.ts, kept as it was written first (one window average per position
 * and quality, a z-score map and a region search per quality and direction): the tests compare the
 * faster ghostVerdict with it value by value (test/forensics/image/ghost-map.test.ts).
 */
import { anomalyRegions } from "../images/anomaly";
import {
  FLAT,
  type GhostInput,
  type GhostVerdict,
  MIN_SPREAD,
  madOfCounts,
  NORMALISED_MAX,
  quantileOfCounts,
  RADIUS,
} from "./ghost-map";

/** Window-averaged errors normalised to 0–1 per position across the qualities (ghost-map.ts `normalisedGhosts`). */
export function referenceNormalisedGhosts(input: GhostInput): Uint8Array[] {
  const { blocksWide: w, blocksHigh: h, errors, qualities, scale } = input;
  const nq = qualities.length;
  const n = w * h;
  const maps = qualities.map(() => new Uint8Array(n));
  const local = new Float64Array(nq);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      local.fill(0);
      let count = 0;
      for (let yy = Math.max(0, y - RADIUS); yy <= Math.min(h - 1, y + RADIUS); yy++)
        for (let xx = Math.max(0, x - RADIUS); xx <= Math.min(w - 1, x + RADIUS); xx++) {
          const at = (yy * w + xx) * nq;
          for (let q = 0; q < nq; q++) local[q] += errors[at + q] / scale;
          count++;
        }
      let lo = Infinity;
      let hi = -Infinity;
      for (let q = 0; q < nq; q++) {
        local[q] /= count;
        lo = Math.min(lo, local[q]);
        hi = Math.max(hi, local[q]);
      }
      const i = y * w + x;
      for (let q = 0; q < nq; q++)
        maps[q][i] = hi < MIN_SPREAD ? FLAT : Math.round((NORMALISED_MAX * (local[q] - lo)) / (hi - lo));
    }
  return maps;
}

/** Each quality's normalised map as robust z-scores against the picture's median at that quality (NaN = flat). */
function standardised(map: Uint8Array, direction: 1 | -1): Float32Array {
  const counts = new Float64Array(FLAT);
  let judged = 0;
  for (const v of map)
    if (v !== FLAT) {
      counts[v]++;
      judged++;
    }
  const out = new Float32Array(map.length).fill(Number.NaN);
  if (judged < 16) return out;
  const median = quantileOfCounts(counts, judged / 2);
  const mad = madOfCounts(counts, judged, median);
  for (let i = 0; i < map.length; i++)
    if (map[i] !== FLAT) out[i] = (direction * (map[i] - median)) / NORMALISED_MAX / mad;
  return out;
}

/** ghost-map.ts `ghostVerdict`, one float map and one anomalyRegions search per quality and direction. */
export function referenceGhostVerdict(input: GhostInput, blockScore: number, maxShare: number): GhostVerdict {
  const maps = referenceNormalisedGhosts(input);
  let best: GhostVerdict = {
    quality: input.qualities[0],
    direction: 1,
    map: new Float32Array(maps[0].length).fill(Number.NaN),
    region: null,
  };
  let bestWeight = 0;
  maps.forEach((normalised, q) => {
    for (const direction of [1, -1] as const) {
      const signed = standardised(normalised, direction);
      const top = anomalyRegions(signed, input.blocksWide, input.blocksHigh, blockScore).find(
        (r) => r.share <= maxShare,
      );
      const weight = top ? top.blocks * top.meanScore : 0;
      if (top && weight > bestWeight) {
        bestWeight = weight;
        best = { quality: input.qualities[q], direction, map: signed, region: top };
      }
    }
  });
  return best;
}

/**
 * JPEG ghosts (Farid 2009, "Exposing digital forgeries from JPEG ghosts"): re-compress the picture at a
 * range of qualities and measure each area's difference. Content compressed before at quality Q shows a
 * dip (a "ghost") at Q; an area pasted from another picture, or edited after the first save, has its
 * dip elsewhere or none. Here the re-compression is done per 8×8 block on the decoded coefficients
 * (jpeg-dct-blocks.ts), the differences are averaged over a small window and normalised per position
 * across the qualities (Farid's normalisation, so that busy and calm areas compare), and every quality's
 * map is compared with the picture's own typical value at that quality.
 */
import { anomalyRegions, type AnomalyRegion } from "../images/anomaly";

/** Window radius (blocks) of the averaging. */
const RADIUS = 1;
/** Positions whose largest difference is below this (squared grey levels) are flat: not judged. */
const MIN_SPREAD = 2;
/** Robust spread floor of a normalised map. */
const MIN_MAD = 0.02;

export interface GhostInput {
  blocksWide: number;
  blocksHigh: number;
  /** Per block and quality, the re-compression error (see jpeg-dct-blocks.ts `ghost`). */
  errors: ArrayLike<number>;
  qualities: readonly number[];
  /** Converts a stored error into squared grey levels. */
  value: (stored: number) => number;
}

/** The quality whose ghost map has the most prominent region, that map and the region. */
export interface GhostVerdict {
  quality: number;
  /** +1: the area lacks the dip the rest of the picture has at `quality`; −1: only the area has it. */
  direction: 1 | -1;
  map: Float32Array;
  region: AnomalyRegion | null;
}

/** Stored value of a flat position (not judged); others are 0–NORMALISED_MAX. */
const FLAT = 255;
const NORMALISED_MAX = 254;

/**
 * Window-averaged errors normalised to 0–1 per position across the qualities, one byte per position
 * and quality (0–NORMALISED_MAX; FLAT = not judged): 13 float maps of a 24 MP photo would take 20 MB.
 */
export function normalisedGhosts(input: GhostInput): Uint8Array[] {
  const { blocksWide: w, blocksHigh: h, errors, qualities } = input;
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
          for (let q = 0; q < nq; q++) local[q] += input.value(errors[at + q]);
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
  const deviations = new Float64Array(FLAT);
  for (let v = 0; v < FLAT; v++) deviations[Math.abs(v - median)] += counts[v];
  const mad = Math.max(MIN_MAD, (1.4826 * quantileOfCounts(deviations, judged / 2)) / NORMALISED_MAX);
  for (let i = 0; i < map.length; i++)
    if (map[i] !== FLAT) out[i] = (direction * (map[i] - median)) / NORMALISED_MAX / mad;
  return out;
}

/** The value below which `rank` of the counted values lie (values are the indices of `counts`). */
function quantileOfCounts(counts: Float64Array, rank: number): number {
  let seen = 0;
  for (let v = 0; v < counts.length; v++) {
    seen += counts[v];
    if (seen > rank) return v;
  }
  return counts.length - 1;
}

/**
 * The most prominent ghost region over all qualities and both directions (regions over `maxShare` of
 * the judged blocks are global, not local, and are skipped).
 */
export function ghostVerdict(input: GhostInput, blockScore: number, maxShare: number): GhostVerdict {
  const maps = normalisedGhosts(input);
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

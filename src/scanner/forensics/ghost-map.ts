/**
 * JPEG ghosts (Farid 2009, "Exposing digital forgeries from JPEG ghosts"): re-compress the picture at a
 * range of qualities and measure each area's difference. Content compressed before at quality Q shows a
 * dip (a "ghost") at Q; an area pasted from another picture, or edited after the first save, has its
 * dip elsewhere or none. Here the re-compression is done per 8×8 block on the decoded coefficients
 * (jpeg-dct-blocks.ts), the differences are averaged over a small window and normalised per position
 * across the qualities (Farid's normalisation, so that busy and calm areas compare), and every quality's
 * map is compared with the picture's own typical value at that quality.
 *
 * Computed without a float map per quality: the window averages in wasm from integer sums of the stored
 * errors (exact, so the same averages as summing the errors one by one: ghost-map-reference.ts, the
 * reference), and a normalised map holds bytes 0–254, so its z-scores are a table of 255 values and its
 * regions are searched on the bytes (in wasm too: wasm/assembly/ghost-region.ts).
 */
import type { AnomalyRegion } from "../images/anomaly";
import { kernelRegion } from "../images/score-region-wasm";
import { kernels, scratchRegions } from "../images/wasm-kernels";

/** Window radius (blocks) of the averaging. */
export const RADIUS = 1;
/** Positions whose largest difference is below this (squared grey levels) are flat: not judged. */
export const MIN_SPREAD = 2;
export interface GhostInput {
  blocksWide: number;
  blocksHigh: number;
  /** Per block and quality, the stored re-compression error (see jpeg-dct-blocks.ts `ghost`). */
  errors: Uint16Array;
  qualities: readonly number[];
  /** Stored errors are in 1/scale squared grey levels; a power of two, so that sums of them stay exact. */
  scale: number;
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
export const FLAT = 255;
export const NORMALISED_MAX = 254;

/** The normalised maps and, per quality, how many positions hold each value (FLAT included). */
export interface NormalisedGhosts {
  maps: Uint8Array[];
  counts: Float64Array[];
}

/** Block rows of bytes gathered per quality in wasm memory before they are copied out. */
const BAND = 16;

/**
 * Window-averaged errors normalised to 0–1 per position across the qualities, one byte per position
 * and quality (0–NORMALISED_MAX; FLAT = not judged): 13 float maps of a 24 MP photo would take 20 MB.
 * One wasm call per block row (wasm/assembly/ghost-map.ts; its window is RADIUS 1) on a ring of three rows of
 * errors in wasm memory, each row copied in once (the next row over the one that left the window, zeros past
 * the last); its rows of bytes gather in a band of BAND rows per quality, copied out once per band (one copy
 * per quality and row cost more than the copying itself); it also counts the values, in wasm memory over all
 * rows (the counts lie first in the scratch area).
 */
export function normalisedGhosts(input: GhostInput): NormalisedGhosts {
  const { blocksWide: w, blocksHigh: h, errors, qualities, scale } = input;
  const nq = qualities.length;
  const maps = qualities.map(() => new Uint8Array(w * h));
  const rowLength = w * nq;
  const counts = qualities.map(() => new Float64Array(FLAT + 1));
  const slots = 2 * RADIUS + 1;
  const s = scratchRegions({
    counts: nq * 1024,
    ring: slots * rowLength * 2,
    sums: rowLength * 4,
    window: rowLength * 4 + 16,
    out: BAND * rowLength,
  });
  const ring = new Uint16Array(s.buffer, s.at.ring, slots * rowLength);
  ring.fill(0);
  // Row r lives in slot r mod 3: rows 0 … RADIUS − 1 first, then each step brings in the window's last row.
  for (let r = 0; r < Math.min(h, RADIUS); r++)
    ring.set(errors.subarray(r * rowLength, (r + 1) * rowLength), (r % slots) * rowLength);
  const plane = BAND * w;
  for (let y = 0; y < h; y++) {
    const next = y + RADIUS;
    const slot = ring.subarray((next % slots) * rowLength, ((next % slots) + 1) * rowLength);
    if (next < h) slot.set(errors.subarray(next * rowLength, (next + 1) * rowLength));
    else slot.fill(0);
    const rows = Math.min(h - 1, y + RADIUS) - Math.max(0, y - RADIUS) + 1;
    const inBand = y % BAND;
    kernels().ghostNormalisedRow(
      s.at.ring,
      slots,
      rows,
      w,
      nq,
      scale,
      s.at.sums,
      s.at.window,
      s.at.out + inBand * w,
      plane,
      s.at.counts,
      y === 0,
    );
    if (inBand === BAND - 1 || y === h - 1) {
      const first = y - inBand;
      for (let q = 0; q < nq; q++) {
        const at = s.at.out + q * plane;
        maps[q].set(s.bytes.subarray(at, at + (inBand + 1) * w), first * w);
      }
    }
  }
  // The kernel cleared the counts on the first row (none: no row, no count).
  const all = new Int32Array(s.buffer, s.at.counts, nq * 256);
  if (h > 0) for (let q = 0; q < nq; q++) counts[q].set(all.subarray(q * 256, q * 256 + FLAT + 1));
  return { maps, counts };
}

/** The value below which `rank` of the counted values lie (values are the indices of `counts`). */
export function quantileOfCounts(counts: Float64Array, rank: number): number {
  let seen = 0;
  for (let v = 0; v < counts.length; v++) {
    seen += counts[v];
    if (seen > rank) return v;
  }
  return counts.length - 1;
}

/** Robust spread floor of a normalised map. */
const MIN_MAD = 0.02;

/** The robust spread (scaled median absolute deviation, floored) of counted values around `median`. */
export function madOfCounts(counts: Float64Array, judged: number, median: number): number {
  const deviations = new Float64Array(FLAT);
  for (let v = 0; v < FLAT; v++) deviations[Math.abs(v - median)] += counts[v];
  return Math.max(MIN_MAD, (1.4826 * quantileOfCounts(deviations, judged / 2)) / NORMALISED_MAX);
}

/**
 * The robust z-score of every byte value (f32, as a map of them stores it; NaN for FLAT) in one direction, from the
 * counted values' median and robust spread (the same for both directions: worked out once per quality).
 */
function zScoreTable(median: number, mad: number, direction: 1 | -1): Float32Array {
  const table = new Float32Array(FLAT + 1);
  for (let v = 0; v < FLAT; v++) table[v] = (direction * (v - median)) / NORMALISED_MAX / mad;
  table[FLAT] = Number.NaN;
  return table;
}

/**
 * The z-score of every position: its byte through the table. A function of its own, so that V8 optimises the
 * loop on its own (inside ghostVerdict, called once per file, it ran unoptimised: ≈ 10 ms at 24 MP).
 */
function zScoreMap(bytes: Uint8Array, table: Float32Array): Float32Array {
  const map = new Float32Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) map[i] = table[bytes[i]];
  return map;
}

/** The region search's scratch regions (one picture's size) in the isolate's kernels. */
type SearchSpace = ReturnType<typeof searchSpace>;

function searchSpace(n: number) {
  return scratchRegions({ map: n, above: 256, table: 256 * 4, seen: n, stack: n * 4, out: 24 });
}

/**
 * The largest connected (4-neighbour) region of positions whose z-score exceeds `threshold` among those
 * covering at most `maxShare` of the `judged` positions (the first found on equal size): anomalyRegions'
 * search and its sums in its order, on the bytes through the table, in wasm (wasm/assembly/ghost-region.ts;
 * the map's bytes are in the search space already).
 */
function topRegion(
  table: Float32Array,
  w: number,
  h: number,
  judged: number,
  threshold: number,
  maxShare: number,
  space: SearchSpace,
): AnomalyRegion | null {
  const { at, bytes, buffer } = space;
  for (let v = 0; v < 256; v++) bytes[at.above + v] = table[v] > threshold ? 1 : 0;
  new Float32Array(buffer, at.table, 256).set(table);
  const count = kernels().ghostTopRegion(at.map, at.above, at.table, w, h, judged, maxShare, at.seen, at.stack, at.out);
  return kernelRegion(buffer, at.out, count, judged);
}

/** Whether any judged position reaches the threshold (most maps of one direction have none). */
function anyAbove(counts: Float64Array, table: Float32Array, threshold: number): boolean {
  for (let v = 0; v < FLAT; v++) if (counts[v] > 0 && table[v] > threshold) return true;
  return false;
}

/**
 * The most prominent ghost region over all qualities and both directions (regions over `maxShare` of
 * the judged blocks are global, not local, and are skipped).
 */
export function ghostVerdict(input: GhostInput, blockScore: number, maxShare: number): GhostVerdict {
  const { blocksWide: w, blocksHigh: h } = input;
  const { maps, counts: valueCounts } = normalisedGhosts(input);
  // After normalisedGhosts' calls: no kernel call grows the memory while the space's views are in use.
  const space = searchSpace(w * h);
  let best: { q: number; direction: 1 | -1; table: Float32Array; region: AnomalyRegion } | null = null;
  let bestWeight = 0;
  for (let q = 0; q < maps.length; q++) {
    const counts = valueCounts[q].subarray(0, FLAT);
    const judged = maps[q].length - valueCounts[q][FLAT];
    // Fewer judged positions: the reference's map is all NaN, no region.
    if (judged < 16) continue;
    let copied = false;
    const median = quantileOfCounts(counts, judged / 2);
    const mad = madOfCounts(counts, judged, median);
    for (const direction of [1, -1] as const) {
      const table = zScoreTable(median, mad, direction);
      if (!anyAbove(counts, table, blockScore)) continue;
      if (!copied) space.bytes.set(maps[q], space.at.map);
      copied = true;
      const top = topRegion(table, w, h, judged, blockScore, maxShare, space);
      const weight = top ? top.blocks * top.meanScore : 0;
      if (top && weight > bestWeight) {
        bestWeight = weight;
        best = { q, direction, table, region: top };
      }
    }
  }
  if (!best)
    return { quality: input.qualities[0], direction: 1, map: new Float32Array(w * h).fill(Number.NaN), region: null };
  const { q, direction, table, region } = best;
  return { quality: input.qualities[q], direction, map: zScoreMap(maps[q], table), region };
}

/**
 * Copy-move search by block matching (Fridrich et al. 2003 style): every overlapping 8×8 block of
 * a reduced greyscale picture is described by its low-frequency DCT coefficients (robust to JPEG
 * re-compression and slight noise), blocks are sorted by that description, near-identical
 * neighbours in the sorted list are paired, and pairs are grouped by their shift vector. A
 * copied area yields many pairs with the same shift; natural repetition rarely does.
 */
import { ELA_TABLE } from "./block-analysis";
import { COS, forwardDct } from "./dct";
import type { GrayImage } from "./gray";
import { ZIGZAG } from "./jpeg-markers";
import { align16, ensureBlockConstants, kernels, scratch } from "./wasm-kernels";

const FEATURES = 16;
/** Blocks flatter than this (standard deviation) match anything and are skipped. */
export const MIN_BLOCK_STD = 10;
/** Feature distance below which two blocks count as copies. */
export const MATCH_DISTANCE = 6;
/** Shifts shorter than this (in reduced pixels) are neighbours, not copies. */
const MIN_SHIFT = 12;
const COMPARE_AHEAD = 6;
/** Largest mean pixel difference of a copied block pair (JPEG re-compression noise). */
const MAX_PAIR_MAD = 5;

/** One group of block pairs sharing a shift vector. */
export interface CopyMoveCluster {
  dx: number;
  dy: number;
  pairs: { sx: number; sy: number; tx: number; ty: number }[];
}

/** Result of a search on a reduced picture (coordinates in that picture). */
export interface CopyMoveSearch {
  width: number;
  height: number;
  blocksCompared: number;
  /** Mask of blocks that could be judged (not flat), per block position (stride grid). */
  judged: Uint8Array;
  stride: number;
  clusters: CopyMoveCluster[];
}

interface BlockFeatures {
  pos: Int32Array;
  feat: Float32Array;
  /** The sort keys, Math.round(feature / 4) (the wasm kernel writes them with the features). */
  keys: Int32Array;
  judged: Uint8Array;
  gw: number;
  gh: number;
}

/** The same features from the wasm kernel (wasm/assembly/copy-move.ts), one grid row per call; bit-identical. */
function featuresWasm(img: GrayImage, stride: number): BlockFeatures {
  const gw = Math.floor((img.width - 8) / stride) + 1;
  const gh = Math.floor((img.height - 8) / stride) + 1;
  const capacity = Math.max(0, gw * gh);
  const pos = new Int32Array(capacity * 2);
  const feat = new Float32Array(capacity * FEATURES);
  const keys = new Int32Array(capacity * FEATURES);
  const judged = new Uint8Array(capacity);
  if (capacity === 0) return { pos, feat, keys, judged, gw, gh };
  ensureBlockConstants(COS, ELA_TABLE);
  // The whole picture copied in once (≤ 1.2 MB at 640 × 480): each grid row's call reads its 8 lines there.
  const pictureBytes = align16(img.width * img.height * 4);
  const featureBytes = align16(gw * FEATURES * 4);
  const judgedBytes = align16(gw);
  const s = scratch(pictureBytes + 2 * featureBytes + judgedBytes);
  new Float32Array(s.buffer, s.base, img.width * img.height).set(img.data);
  const rowFeatures = new Float32Array(s.buffer, s.base + pictureBytes, gw * FEATURES);
  const rowJudged = new Uint8Array(s.buffer, s.base + pictureBytes + featureBytes, gw);
  const rowKeys = new Int32Array(s.buffer, s.base + pictureBytes + featureBytes + judgedBytes, gw * FEATURES);
  let n = 0;
  for (let gy = 0; gy < gh; gy++) {
    const y0 = gy * stride;
    const m = kernels().copyMoveRow(
      s.base + y0 * img.width * 4,
      img.width,
      gw,
      stride,
      MIN_BLOCK_STD,
      s.base + pictureBytes,
      s.base + pictureBytes + featureBytes,
      s.base + pictureBytes + featureBytes + judgedBytes,
    );
    feat.set(rowFeatures.subarray(0, m * FEATURES), n * FEATURES);
    keys.set(rowKeys.subarray(0, m * FEATURES), n * FEATURES);
    judged.set(rowJudged, gy * gw);
    for (let gx = 0; gx < gw; gx++)
      if (rowJudged[gx]) {
        pos[n * 2] = gx * stride;
        pos[n * 2 + 1] = y0;
        n++;
      }
  }
  return {
    pos: pos.subarray(0, n * 2),
    feat: feat.subarray(0, n * FEATURES),
    keys: keys.subarray(0, n * FEATURES),
    judged,
    gw,
    gh,
  };
}

/** The JavaScript reference of the block features (low-frequency DCT terms of every non-flat block). */
function features(img: GrayImage, stride: number): BlockFeatures {
  const gw = Math.floor((img.width - 8) / stride) + 1;
  const gh = Math.floor((img.height - 8) / stride) + 1;
  const capacity = Math.max(0, gw * gh);
  const pos = new Int32Array(capacity * 2);
  const feat = new Float32Array(capacity * FEATURES);
  let n = 0;
  const judged = new Uint8Array(capacity);
  const block = new Float64Array(64);
  const coef = new Float64Array(64);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      const x0 = gx * stride;
      const y0 = gy * stride;
      let sum = 0;
      let sq = 0;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          const v = img.data[(y0 + y) * img.width + x0 + x];
          block[y * 8 + x] = v - 128;
          sum += v;
          sq += v * v;
        }
      const std = Math.sqrt(Math.max(0, sq / 64 - (sum / 64) ** 2));
      if (std < MIN_BLOCK_STD) continue;
      judged[gy * gw + gx] = 1;
      forwardDct(block, coef);
      pos[n * 2] = x0;
      pos[n * 2 + 1] = y0;
      for (let k = 0; k < FEATURES; k++) feat[n * FEATURES + k] = coef[ZIGZAG[k]] / 2;
      n++;
    }
  const keys = new Int32Array(n * FEATURES);
  for (let i = 0; i < keys.length; i++) keys[i] = Math.round(feat[i] / 4);
  return { pos: pos.subarray(0, n * 2), feat: feat.subarray(0, n * FEATURES), keys, judged, gw, gh };
}

/** Mean absolute difference of the 8×8 blocks at (ax, ay) and (bx, by); Infinity if out of bounds. */
function blockMad(img: GrayImage, ax: number, ay: number, bx: number, by: number): number {
  if (bx < 0 || by < 0 || bx + 8 > img.width || by + 8 > img.height) return Infinity;
  let s = 0;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++)
      s += Math.abs(img.data[(ay + y) * img.width + ax + x] - img.data[(by + y) * img.width + bx + x]);
  return s / 64;
}

/** Pixel check of a candidate pair: the copy must be close, and the block must not simply repeat along the shift (edges, gradients). */
function isGenuinePair(img: GrayImage, sx: number, sy: number, tx: number, ty: number): boolean {
  const pair = blockMad(img, sx, sy, tx, ty);
  if (pair > MAX_PAIR_MAD) return false;
  const len = Math.hypot(tx - sx, ty - sy);
  const ux = Math.round(((tx - sx) / len) * 3);
  const uy = Math.round(((ty - sy) / len) * 3);
  const along = Math.min(blockMad(img, sx, sy, sx + ux, sy + uy), blockMad(img, sx, sy, sx - ux, sy - uy));
  return along > 2 * pair + 2;
}

/** Block indices in the lexicographic order of their keys, ties in index order (a stable sort). */
function comparedOrder(keys: Int32Array, n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort(byKeysFrom(keys, 0));
}

/** Compares two blocks by their keys from position `first` on. */
function byKeysFrom(keys: Int32Array, first: number): (a: number, b: number) => number {
  return (a, b) => {
    for (let k = first; k < FEATURES; k++) {
      const d = keys[a * FEATURES + k] - keys[b * FEATURES + k];
      if (d) return d;
    }
    return 0;
  };
}

/**
 * The same order as `comparedOrder` without a comparator call per comparison (most of copy-move's fixed
 * cost on a small picture): the leading keys and the index are packed into one exact integer (≤ 2^53)
 * per block and sorted natively; only runs with equal leading keys are finished by the comparator on
 * the remaining keys (a run is already in index order, and that sort is stable).
 */
function packedOrder(keys: Int32Array, n: number): Uint32Array {
  let max = 0;
  for (let i = 0; i < keys.length; i++) max = Math.max(max, Math.abs(keys[i]));
  const radix = 2 * max + 1;
  const slots = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  let lead = 0;
  let span = 1;
  while (lead < FEATURES && span * radix * slots <= Number.MAX_SAFE_INTEGER) {
    span *= radix;
    lead++;
  }
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let k = 0; k < lead; k++) v = v * radix + keys[i * FEATURES + k] + max;
    packed[i] = v * slots + i;
  }
  packed.sort();
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = packed[i] % slots;
  if (lead === FEATURES) return order;
  const rest = byKeysFrom(keys, lead);
  for (let start = 0, i = 1; i <= n; i++) {
    if (i < n && Math.floor(packed[i] / slots) === Math.floor(packed[start] / slots)) continue;
    if (i - start > 1) order.subarray(start, i).sort(rest);
    start = i;
  }
  return order;
}

const MATCH_LIMIT = MATCH_DISTANCE * MATCH_DISTANCE;

/**
 * Candidate pairs (a, b), a < b ≤ a + COMPARE_AHEAD, of blocks in sorted order whose features are
 * within MATCH_DISTANCE; the sum stops once over the limit (its terms are never negative).
 */
function closePairs(feat: Float32Array, n: number): Int32Array {
  const pairs: number[] = [];
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < Math.min(n, a + 1 + COMPARE_AHEAD); b++) {
      let d2 = 0;
      for (let k = 0; k < FEATURES && d2 <= MATCH_LIMIT; k++) {
        const d = feat[a * FEATURES + k] - feat[b * FEATURES + k];
        d2 += d * d;
      }
      if (d2 <= MATCH_LIMIT) pairs.push(a, b);
    }
  return Int32Array.from(pairs);
}

/** Blocks per call of the wasm kernel (its scratch: ≈ 0.5 MB). */
const PAIR_CHUNK = 4096;

/** The same pairs from the wasm kernel (wasm/assembly/copy-move.ts closeFeaturePairs), chunk by chunk. */
function closePairsWasm(feat: Float32Array, n: number): Int32Array {
  const out: Int32Array[] = [];
  const featureBytes = align16((PAIR_CHUNK + COMPARE_AHEAD) * FEATURES * 4);
  const s = scratch(featureBytes + PAIR_CHUNK * COMPARE_AHEAD * 8);
  for (let start = 0; start < n; start += PAIR_CHUNK) {
    const first = Math.min(PAIR_CHUNK, n - start);
    const count = Math.min(n - start, first + COMPARE_AHEAD);
    new Float32Array(s.buffer, s.base, count * FEATURES).set(
      feat.subarray(start * FEATURES, (start + count) * FEATURES),
    );
    const found = kernels().closeFeaturePairs(s.base, count, first, COMPARE_AHEAD, MATCH_LIMIT, s.base + featureBytes);
    const pairs = new Int32Array(s.buffer, s.base + featureBytes, found * 2).slice();
    for (let i = 0; i < pairs.length; i++) pairs[i] += start;
    out.push(pairs);
  }
  const all = new Int32Array(out.reduce((total, p) => total + p.length, 0));
  let at = 0;
  for (const p of out) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/**
 * Searches `img` for copied areas. `{ reference: true }` computes the block features with the
 * JavaScript reference instead of the wasm kernel and sorts with the plain comparator instead of the
 * packed keys (same values, same order; the tests compare both).
 */
export function searchCopyMove(img: GrayImage, stride: number, options: { reference?: boolean } = {}): CopyMoveSearch {
  const { pos, feat, keys, judged } = options.reference ? features(img, stride) : featuresWasm(img, stride);
  const n = pos.length / 2;
  const order = options.reference ? comparedOrder(keys, n) : packedOrder(keys, n);
  // Features and positions in the sorted order (the pairs compare each block with the next few).
  const sortedFeat = new Float32Array(n * FEATURES);
  const sortedPos = new Int32Array(n * 2);
  for (let oi = 0; oi < n; oi++) {
    const i = order[oi];
    for (let k = 0; k < FEATURES; k++) sortedFeat[oi * FEATURES + k] = feat[i * FEATURES + k];
    sortedPos[oi * 2] = pos[i * 2];
    sortedPos[oi * 2 + 1] = pos[i * 2 + 1];
  }
  const candidates = options.reference ? closePairs(sortedFeat, n) : closePairsWasm(sortedFeat, n);
  const clusters = new Map<string, CopyMoveCluster>();
  for (let c = 0; c < candidates.length; c += 2) {
    let [s, t] = [candidates[c], candidates[c + 1]];
    let dx = sortedPos[t * 2] - sortedPos[s * 2];
    let dy = sortedPos[t * 2 + 1] - sortedPos[s * 2 + 1];
    if (Math.hypot(dx, dy) < MIN_SHIFT) continue;
    if (dx < 0 || (dx === 0 && dy < 0)) {
      [s, t] = [t, s];
      dx = -dx;
      dy = -dy;
    }
    const [sx, sy, tx, ty] = [sortedPos[s * 2], sortedPos[s * 2 + 1], sortedPos[t * 2], sortedPos[t * 2 + 1]];
    if (!isGenuinePair(img, sx, sy, tx, ty)) continue;
    // Quantise the shift so JPEG jitter of a pixel or two still lands in one group.
    const k = `${Math.round(dx / 2)},${Math.round(dy / 2)}`;
    let group = clusters.get(k);
    if (!group) clusters.set(k, (group = { dx, dy, pairs: [] }));
    group.pairs.push({ sx, sy, tx, ty });
  }
  return {
    width: img.width,
    height: img.height,
    blocksCompared: n,
    judged,
    stride,
    clusters: [...clusters.values()].sort((x, y) => y.pairs.length - x.pairs.length),
  };
}

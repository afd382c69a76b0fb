// Block hashes of the copy-move search: src/scanner/images/block-matching.ts `blockHashes` is the
// JavaScript reference. For each 16×16 block position of some rows: its 16 cell means (4×4 cells,
// 4 px apart in the cell-mean array), their unevenness (sums, squares and ramp moments in f64, in the
// reference's order, two positions per f64x2) and, for blocks with detail, a hash of the cell means
// quantised by 8 (Σ q·multiplier in wrapping i32, then mixed). Bit-identical to the reference.

/** Odd multipliers of the 16 quantised cells (block-matching.ts HASH_MULTIPLIERS). */
const MULTIPLIERS: StaticArray<i32> = [
  0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646d, 0xfd7046c5, 0xb55a4f09, 0x1b873593,
  0xcc9e2d51, 0xe6546b65, 0x7feb352d, 0x846ca68b, 0x2c1b3c6d, 0x297a2d39, 0x5bd1e995,
];

@inline function mix(h: i32): u32 {
  h ^= <i32>(<u32>h >> 16);
  h = h * 0x45d9f3b;
  h ^= <i32>(<u32>h >> 16);
  return <u32>h == 0 ? 1 : <u32>h;
}

/** The f32 samples at `a` and `b` as the two lanes of an f64x2. */
@inline function twoSamples(a: usize, b: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load32_lane(b, v128.load32_zero(a), 1));
}

/**
 * Means of every 4×4 cell at every pixel position (block-matching.ts `cellMeans` is the reference, its f64
 * operations in its order): `luma` holds `height` rows of `width` f32 samples; `ring` (4·(width − 3) f64)
 * and `columns` (width − 3 f64) are zeros; out gets (height − 3) rows of width − 3 f32 means. Two rows at a time:
 * their running sums along the row are the lanes of one f64x2 (each lane the reference's sum of its row), and each
 * column's sum takes the upper row's change, then the lower's (the reference's order down the column). The running
 * sum's chain of an add and a subtraction per pixel bound the time with one row at a time.
 */
export function copyMoveCellMeans(luma: usize, width: i32, height: i32, ring: usize, columns: usize, out: usize): void {
  const cw = width - 3;
  const stride = <usize>width << 2;
  let y = 0;
  for (; y + 1 < height; y += 2) {
    const line = luma + <usize>y * stride;
    const upper = ring + (<usize>((y & 3) * cw) << 3);
    const lower = ring + (<usize>(((y + 1) & 3) * cw) << 3);
    let s = f64x2.splat(0);
    for (let x = 0; x < 3; x++) s = f64x2.add(s, twoSamples(line + (<usize>x << 2), line + stride + (<usize>x << 2)));
    const to = out + (<usize>((y - 3) * cw) << 2);
    const next = to + (<usize>cw << 2);
    for (let x = 0; x < cw; x++) {
      const at = line + (<usize>x << 2);
      s = f64x2.add(s, twoSamples(at + 12, at + stride + 12));
      const r0 = upper + (<usize>x << 3);
      const r1 = lower + (<usize>x << 3);
      const c = columns + (<usize>x << 3);
      const s0 = f64x2.extract_lane(s, 0);
      const s1 = f64x2.extract_lane(s, 1);
      const column0 = load<f64>(c) + (s0 - load<f64>(r0));
      const column1 = column0 + (s1 - load<f64>(r1));
      store<f64>(r0, s0);
      store<f64>(r1, s1);
      store<f64>(c, column1);
      if (y >= 3) store<f32>(to + (<usize>x << 2), <f32>(column0 / 16));
      if (y >= 2) store<f32>(next + (<usize>x << 2), <f32>(column1 / 16));
      s = f64x2.sub(s, twoSamples(at, at + stride));
    }
  }
  for (; y < height; y++) {
    const line = luma + <usize>y * stride;
    const row = ring + (<usize>((y & 3) * cw) << 3);
    let s: f64 = 0;
    for (let x = 0; x < 3; x++) s += <f64>load<f32>(line + (<usize>x << 2));
    const to = out + (<usize>((y - 3) * cw) << 2);
    for (let x = 0; x < cw; x++) {
      const at = line + (<usize>x << 2);
      s += <f64>load<f32>(at, 12);
      const r = row + (<usize>x << 3);
      const c = columns + (<usize>x << 3);
      const column = load<f64>(c) + (s - load<f64>(r));
      store<f64>(c, column);
      store<f64>(r, s);
      s -= <f64>load<f32>(at);
      if (y >= 3) store<f32>(to + (<usize>x << 2), <f32>(column / 16));
    }
  }
}

/**
 * Each cell mean quantised as the hash takes it (floor(v / 8) in f64, as an i32): `count` f32 at `cells`
 * into `out` (i32 each; 16 readable bytes after the cells), once per cell instead of once for each of the
 * 16 block positions that read it.
 */
export function copyMoveQuantise(cells: usize, count: i32, out: usize): void {
  const step = f64x2.splat(0.125);
  for (let i = 0; i < count; i += 4) {
    const four = v128.load(cells + (<usize>i << 2));
    const q0 = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.mul(f64x2.promote_low_f32x4(four), step)));
    const q2 = i32x4.trunc_sat_f64x2_s_zero(
      f64x2.floor(f64x2.mul(f64x2.promote_low_f32x4(i32x4.shuffle(four, four, 2, 3, 0, 1)), step)),
    );
    v128.store(out + (<usize>i << 2), i32x4.shuffle(q0, q2, 0, 1, 4, 5));
  }
}

/** Residual sum of squares of a block's cell means around their best plane (the reference's f64 operations). */
@inline function residual(sum: v128, sq: v128, sx: v128, sy: v128): v128 {
  return f64x2.sub(
    f64x2.sub(sq, f64x2.mul(f64x2.mul(sum, sum), f64x2.splat(0.0625))), // ÷ 16, exactly
    f64x2.div(f64x2.add(f64x2.mul(sx, sx), f64x2.mul(sy, sy)), f64x2.splat(20)),
  );
}

/** Stores lane `lane`'s hash (0 without detail) when the lane is one of the row's `lanes` left; 1 when it had detail. */
@inline function storeHash(o: usize, lane: i32, lanes: i32, r: f64, h: i32, minResidual: f64): i32 {
  if (lane >= lanes) return 0;
  const hash: u32 = r >= minResidual ? mix(h) : 0;
  store<u32>(o + (<usize>lane << 2), hash);
  return hash != 0 ? 1 : 0;
}

/**
 * Hashes of `rows` rows of `count` block positions, four positions per step. `cells` holds rows + 12
 * rows of `cw` f32 cell means (and 16 readable bytes after them), `quantised` the same cells as
 * copyMoveQuantise gives them (also 16 readable bytes after); out[y·count + x] (u32) is 0 when the
 * block's unevenness²·16 (the residual sum of squares around the best plane) is below `minResidual`.
 * Returns how many blocks had detail.
 */
/**
 * Per cell i of a block (i = 4·row + column): its ramp coordinates as f64x2 splats (x at +0, y at +16), its
 * hash multiplier as an i32x4 splat (+32), 48 bytes each; then its byte offset from the block's corner (i32).
 */
const CELL_TABLE = memory.data(16 * 48 + 16 * 4, 16);
const CELL_OFFSETS = CELL_TABLE + 16 * 48;

/** Fills CELL_TABLE for cell-mean rows of `row` bytes. */
function prepareCells(row: usize): void {
  for (let i = 0; i < 16; i++) {
    const at = CELL_TABLE + <usize>(i * 48);
    v128.store(at, f64x2.splat(<f64>(i & 3) - 1.5));
    v128.store(at, f64x2.splat(<f64>(i >> 2) - 1.5), 16);
    v128.store(at, i32x4.splat(unchecked(MULTIPLIERS[i])), 32);
    store<i32>(CELL_OFFSETS + (<usize>i << 2), <i32>(<usize>((i >> 2) * 4) * row + (<usize>((i & 3) * 4) << 2)));
  }
}

export function copyMoveHashRows(
  cells: usize,
  quantised: usize,
  cw: i32,
  count: i32,
  rows: i32,
  minResidual: f64,
  out: usize,
): i32 {
  let judged = 0;
  const row = <usize>cw << 2;
  prepareCells(row);
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < count; x += 4) {
      const corner = <usize>y * row + (<usize>x << 2);
      // Lanes 0–1 in the …0 accumulators, 2–3 in the …2 ones.
      let sum0 = f64x2.splat(0);
      let sum2 = f64x2.splat(0);
      let sq0 = f64x2.splat(0);
      let sq2 = f64x2.splat(0);
      let sx0 = f64x2.splat(0);
      let sx2 = f64x2.splat(0);
      let sy0 = f64x2.splat(0);
      let sy2 = f64x2.splat(0);
      let h = i32x4.splat(0);
      for (let i = 0; i < 16; i++) {
        const cell = CELL_TABLE + <usize>(i * 48);
        const at = corner + <usize>load<i32>(CELL_OFFSETS + (<usize>i << 2));
        const four = v128.load(cells + at);
        const v0 = f64x2.promote_low_f32x4(four);
        const v2 = f64x2.promote_low_f32x4(i32x4.shuffle(four, four, 2, 3, 0, 1));
        const cx = v128.load(cell);
        const cy = v128.load(cell, 16);
        sum0 = f64x2.add(sum0, v0);
        sum2 = f64x2.add(sum2, v2);
        sq0 = f64x2.add(sq0, f64x2.mul(v0, v0));
        sq2 = f64x2.add(sq2, f64x2.mul(v2, v2));
        sx0 = f64x2.add(sx0, f64x2.mul(v0, cx));
        sx2 = f64x2.add(sx2, f64x2.mul(v2, cx));
        sy0 = f64x2.add(sy0, f64x2.mul(v0, cy));
        sy2 = f64x2.add(sy2, f64x2.mul(v2, cy));
        // floor(v / 8) of the four cells (copyMoveQuantise).
        h = i32x4.add(h, i32x4.mul(v128.load(quantised + at), v128.load(cell, 32)));
      }
      const r0 = residual(sum0, sq0, sx0, sy0);
      const r2 = residual(sum2, sq2, sx2, sy2);
      const o = out + (<usize>(y * count + x) << 2);
      const lanes = count - x;
      judged += storeHash(o, 0, lanes, f64x2.extract_lane(r0, 0), i32x4.extract_lane(h, 0), minResidual);
      judged += storeHash(o, 1, lanes, f64x2.extract_lane(r0, 1), i32x4.extract_lane(h, 1), minResidual);
      judged += storeHash(o, 2, lanes, f64x2.extract_lane(r2, 0), i32x4.extract_lane(h, 2), minResidual);
      judged += storeHash(o, 3, lanes, f64x2.extract_lane(r2, 1), i32x4.extract_lane(h, 3), minResidual);
    }
  return judged;
}

// Grouping and candidate pairs: block-matching.ts `hashGroups` and `candidatePairs` are the JavaScript
// reference; the same groups, the same pairs in the same order, the same twin counts.

/** Later blocks of the same hash compared with each block (block-matching.ts CHAIN_STEPS). */
const CHAIN_STEPS: i32 = 8;
/** Squared shortest shift of a copy (block-matching.ts MIN_SHIFT = 16). */
const MIN_SHIFT_SQ: i32 = 256;
/** Mean absolute difference of the cell means below which two blocks count as copies (block-matching.ts). */
const MATCH_TOLERANCE: f64 = 1.5;

/**
 * Counting sort of the `count` positions' hashes (u32 at `hashes`, 0 = no detail) by their top
 * 32 − `shift` bits into `entries` (8 bytes each: the hash, then the position), scan order within a group: one
 * cache line written per entry where two arrays took two. `ends` (2^(32 − shift) i32) receives each group's end:
 * group g is [ends[g − 1] (0 for g = 0), ends[g]). `judged` (u8 per position) gets 1 where the hash is not 0.
 */
export function copyMoveGroups(hashes: usize, count: i32, shift: i32, ends: usize, entries: usize, judged: usize): void {
  const groups = 1 << (32 - shift);
  memory.fill(ends, 0, <usize>groups << 2);
  // The judged flags 16 positions per step (a hash ≠ 0 as 0xFFFFFFFF, narrowed to bytes and masked to 1).
  let i = 0;
  for (; i + 16 <= count; i += 16) {
    const h = hashes + (<usize>i << 2);
    const zero = i32x4.splat(0);
    const low = i16x8.narrow_i32x4_s(i32x4.ne(v128.load(h), zero), i32x4.ne(v128.load(h, 16), zero));
    const high = i16x8.narrow_i32x4_s(i32x4.ne(v128.load(h, 32), zero), i32x4.ne(v128.load(h, 48), zero));
    v128.store(judged + <usize>i, v128.and(i8x16.narrow_i16x8_s(low, high), i8x16.splat(1)));
  }
  for (; i < count; i++) store<u8>(judged + <usize>i, load<u32>(hashes + (<usize>i << 2)) != 0 ? 1 : 0);
  for (let i = 0; i < count; i++) {
    const h = load<u32>(hashes + (<usize>i << 2));
    if (h == 0) continue;
    const g = h >>> shift;
    // Counted one group up: after the running sum, ends[g] is where group g starts.
    if (g + 1 < <u32>groups) {
      const at = ends + (<usize>(g + 1) << 2);
      store<i32>(at, load<i32>(at) + 1);
    }
  }
  for (let g = 1; g < groups; g++) {
    const at = ends + (<usize>g << 2);
    store<i32>(at, load<i32>(at) + load<i32>(at - 4));
  }
  for (let i = 0; i < count; i++) {
    const h = load<u32>(hashes + (<usize>i << 2));
    if (h == 0) continue;
    const slot = ends + (<usize>(h >>> shift) << 2);
    const at = load<i32>(slot);
    store<i32>(slot, at + 1);
    store<u64>(entries + (<usize>at << 3), (<u64>i << 32) | <u64>h);
  }
}

/**
 * Mean absolute difference of the cell means of the blocks at cell indices a and b (cells (i >> 2)·4 rows
 * and (i & 3)·4 columns from the block's corner), in f64 in the reference's order.
 */
@inline function blockDistance(cells: usize, row: usize, a: usize, b: usize): f64 {
  let s: f64 = 0;
  for (let i = 0; i < 16; i++) {
    const off = ((<usize>(i >> 2) * 4 * row + (<usize>(i & 3) << 2)) << 2);
    s += Math.abs(<f64>load<f32>(cells + (a << 2) + off) - <f64>load<f32>(cells + (b << 2) + off));
  }
  return s / 16;
}

/** Later entries of a position's group whose hashes are compared at once, before the position is walked. */
const LOOKAHEAD: i32 = 4;

/**
 * Whether entry i (8 bytes each at `entries`, its hash `h`) may have a partner: one of the next LOOKAHEAD entries
 * has its hash (entries of other groups have other top bits, so no group test is needed; the entries are followed
 * by 8·LOOKAHEAD readable bytes), or its group goes on past them (`end`).
 */
@inline function mayHavePartner(entries: usize, i: i32, h: u32, end: i32): bool {
  const at = entries + (<usize>(i + 1) << 3);
  const next = i32x4.shuffle(v128.load(at), v128.load(at, 16), 0, 2, 4, 6);
  return v128.any_true(i32x4.eq(next, i32x4.splat(h))) || end - i > LOOKAHEAD + 1;
}

/**
 * Candidate pairs of the grouped positions (copyMoveGroups, hashes grouped by their top 32 − `shift` bits), from
 * the entry index in `state` (i32; 0 at the start) on: each position with the later ones of its group that have
 * its hash (at most CHAIN_STEPS), kept when at least 16 px apart and their cell means (f32, `cw` per row) match;
 * `twins` (u8 per position) counts such far partners up to 255. Writes up to `capacity` (≥ CHAIN_STEPS) pairs to
 * `first` (the earlier position) and `shifts` (dy·65536 + dx + 32768), stops before a position whose pairs might
 * not fit and saves its entry index in `state` (`count` when done). Returns the number of pairs written.
 * The entries are walked one by one rather than group by group: most positions' hashes are unique (≈ 96 % on a
 * photo) and are passed by one SIMD compare with a well-predicted branch, where the group walk's loop exits
 * (groups of ≈ 2 positions, random sizes) mispredicted about once per position.
 */
export function copyMovePairs(
  cells: usize,
  cw: i32,
  gw: i32,
  shift: i32,
  count: i32,
  ends: usize,
  entries: usize,
  twins: usize,
  state: usize,
  capacity: i32,
  first: usize,
  shifts: usize,
): i32 {
  let pairs = 0;
  const row = <usize>cw;
  let i = load<i32>(state);
  for (; i < count; i++) {
    const h = load<u32>(entries + (<usize>i << 3));
    const end = load<i32>(ends + (<usize>(h >>> shift) << 2));
    if (!mayHavePartner(entries, i, h, end)) continue;
    if (pairs + CHAIN_STEPS > capacity) break;
    const p = load<i32>(entries + (<usize>i << 3), 4);
    const px = p % gw;
    const py = p / gw;
    for (let j = i + 1, partners = 0; j < end && partners < CHAIN_STEPS; j++) {
      if (load<u32>(entries + (<usize>j << 3)) != h) continue;
      partners++;
      const q = load<i32>(entries + (<usize>j << 3), 4);
      const qx = q % gw;
      const qy = q / gw;
      const dx = qx - px;
      const dy = qy - py;
      if (dx * dx + dy * dy < MIN_SHIFT_SQ) continue;
      const tp = twins + <usize>p;
      if (load<u8>(tp) < 255) store<u8>(tp, load<u8>(tp) + 1);
      const tq = twins + <usize>q;
      if (load<u8>(tq) < 255) store<u8>(tq, load<u8>(tq) + 1);
      const a = <usize>(py * cw + px);
      const b = <usize>(qy * cw + qx);
      if (blockDistance(cells, row, a, b) > MATCH_TOLERANCE) continue;
      store<i32>(first + (<usize>pairs << 2), p);
      store<i32>(shifts + (<usize>pairs << 2), dy * 65536 + dx + 32768);
      pairs++;
    }
  }
  store<i32>(state, i);
  return pairs;
}

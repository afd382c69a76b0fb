// Block hashes of the copy-move search: src/scanner/images/block-matching.ts `blockHashes` is the
// JavaScript reference. For each 16×16 block position: its 16 cell means (4×4 cells, 4 px apart in the
// cell-mean array), their unevenness (sums, squares and ramp moments per row of cells, summed per block,
// in f32, four positions per f32x4; near the threshold in f64 in the reference's order) and, for blocks
// with detail, a hash of the cell means quantised by 8 (Σ q·multiplier in wrapping i32, then mixed).
// Bit-identical to the reference.

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
  for (; y + 3 < height; y += 4) fourCellRows(luma, width, y, ring, columns, out);
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
 * copyMoveCellMeans' rows y … y + 3 (y a multiple of 4: each row's ring row is its own): two running sums along the
 * rows (rows y, y + 1 and y + 2, y + 3 as the lanes of two f64x2), two chains that run side by side where one
 * bound the time; each column's sum takes the four rows' changes in the reference's order.
 */
function fourCellRows(luma: usize, width: i32, y: i32, ring: usize, columns: usize, out: usize): void {
  const cw = width - 3;
  const stride = <usize>width << 2;
  const line = luma + <usize>y * stride;
  const third = line + (stride << 1);
  const rows = <usize>cw << 3;
  let s = f64x2.splat(0);
  let t = f64x2.splat(0);
  for (let x = 0; x < 3; x++) {
    const at = <usize>x << 2;
    s = f64x2.add(s, twoSamples(line + at, line + stride + at));
    t = f64x2.add(t, twoSamples(third + at, third + stride + at));
  }
  const to = out + (<usize>((y - 3) * cw) << 2);
  const plane = <usize>cw << 2;
  for (let x = 0; x < cw; x++) {
    const at = <usize>x << 2;
    s = f64x2.add(s, twoSamples(line + at + 12, line + stride + at + 12));
    t = f64x2.add(t, twoSamples(third + at + 12, third + stride + at + 12));
    const r = ring + (<usize>x << 3);
    const c = columns + (<usize>x << 3);
    const s0 = f64x2.extract_lane(s, 0);
    const s1 = f64x2.extract_lane(s, 1);
    const s2 = f64x2.extract_lane(t, 0);
    const s3 = f64x2.extract_lane(t, 1);
    const column0 = load<f64>(c) + (s0 - load<f64>(r));
    const column1 = column0 + (s1 - load<f64>(r + rows));
    const column2 = column1 + (s2 - load<f64>(r + 2 * rows));
    const column3 = column2 + (s3 - load<f64>(r + 3 * rows));
    store<f64>(r, s0);
    store<f64>(r + rows, s1);
    store<f64>(r + 2 * rows, s2);
    store<f64>(r + 3 * rows, s3);
    store<f64>(c, column3);
    // Row y + k − 3's means, from y + k = 3 on.
    if (y > 0) {
      store<f32>(to + at, <f32>(column0 / 16));
      store<f32>(to + plane + at, <f32>(column1 / 16));
      store<f32>(to + 2 * plane + at, <f32>(column2 / 16));
    }
    store<f32>(to + 3 * plane + at, <f32>(column3 / 16));
    s = f64x2.sub(s, twoSamples(line + at, line + stride + at));
    t = f64x2.sub(t, twoSamples(third + at, third + stride + at));
  }
}

/**
 * floor(v / 8) as the reference's Math.imul takes it (ToInt32: modulo 2³², 0 for ±∞ and NaN); the SIMD
 * quantiser's conversion saturates instead where the quotient does not fit an i32 (|v| ≥ 2³⁴).
 */
function wrappedQuotient(v: f32): i32 {
  const x = Math.floor(<f64>v * 0.125);
  if (!isFinite(x)) return 0;
  // Exact in f64: x and its multiple of 2³² below it have the same exponent or x is a multiple of 2³².
  return <i32>(<u32>(x - 4294967296 * Math.floor(x / 4294967296)));
}

/**
 * Each cell mean quantised as the hash takes it (floor(v / 8) as an i32; saturated beyond an i32, see
 * wrappedQuotient): `count` f32 at `cells` into `out` (i32 each; 16 readable bytes after the cells), once per cell
 * instead of once for each of the 16 block positions that read it. Four per f32x4 as floor(floor(v) · 0.125): the
 * reference's floor(v / 8) in f64 (its product exact) for every f32 v, as floor(x / 8) = floor(floor(x) / 8) and an
 * integer's f32 product by 0.125 is exact (v · 0.125 itself would round tiny negative v to −0: 0, not −1).
 */
export function copyMoveQuantise(cells: usize, count: i32, out: usize): void {
  const step = f32x4.splat(0.125);
  for (let i = 0; i < count; i += 4) {
    const at = <usize>i << 2;
    v128.store(out + at, i32x4.trunc_sat_f32x4_s(f32x4.floor(f32x4.mul(f32x4.floor(v128.load(cells + at)), step))));
  }
}

/**
 * Per cell i of a block (i = 4·row + column): its hash multiplier as an i32x4 splat (16 bytes each), then its
 * byte offset from the block's corner (i32).
 */
const CELL_TABLE = memory.data(16 * 16 + 16 * 4, 16);
const CELL_OFFSETS = CELL_TABLE + 16 * 16;

/** Fills CELL_TABLE for cell-mean rows of `row` bytes. */
function prepareCells(row: usize): void {
  for (let i = 0; i < 16; i++) {
    v128.store(CELL_TABLE + <usize>(i * 16), i32x4.splat(unchecked(MULTIPLIERS[i])));
    store<i32>(CELL_OFFSETS + (<usize>i << 2), <i32>(<usize>((i >> 2) * 4) * row + (<usize>((i & 3) * 4) << 2)));
  }
}

/**
 * The reference's residual sum of squares of the block at `corner` (bytes into `cells`): its 16 cell means'
 * departure from their best plane, every f64 operation of block-matching.ts `blockHashes` in its order.
 */
function referenceResidual(cells: usize, corner: usize): f64 {
  let sum: f64 = 0;
  let sq: f64 = 0;
  let sx: f64 = 0;
  let sy: f64 = 0;
  for (let i = 0; i < 16; i++) {
    const v = <f64>load<f32>(cells + corner + <usize>load<i32>(CELL_OFFSETS + (<usize>i << 2)));
    sum += v;
    sq += v * v;
    sx += v * (<f64>(i & 3) - 1.5);
    sy += v * (<f64>(i >> 2) - 1.5);
  }
  return sq - (sum * sum) / 16 - (sx * sx + sy * sy) / 20;
}

/** The reference's hash of the block at `corner` (bytes into `cells`): its quantised cells as Math.imul takes them. */
function referenceHash(cells: usize, corner: usize): u32 {
  let h = 0;
  for (let i = 0; i < 16; i++) {
    const v = load<f32>(cells + corner + <usize>load<i32>(CELL_OFFSETS + (<usize>i << 2)));
    h += wrappedQuotient(v) * unchecked(MULTIPLIERS[i]);
  }
  return mix(h);
}

/**
 * Σ quantised cell · multiplier over one row of a block's cells (four blocks side by side: `q` their first cell's
 * quantised values, the next cells 16, 32 and 48 bytes on), the four cells' multipliers at `multipliers`.
 */
@inline function cellRowHash(q: usize, multipliers: usize): v128 {
  return i32x4.add(
    i32x4.add(i32x4.mul(v128.load(q), v128.load(multipliers)), i32x4.mul(v128.load(q, 16), v128.load(multipliers, 16))),
    i32x4.add(
      i32x4.mul(v128.load(q, 32), v128.load(multipliers, 32)),
      i32x4.mul(v128.load(q, 48), v128.load(multipliers, 48)),
    ),
  );
}

/** Bytes of one cell row's sums in the ring of copyMoveHashRows: 48 per four block positions. */
@inline function ringRowBytes(count: i32): usize {
  return <usize>((count + 3) >> 2) * 48;
}

/**
 * One cell row's sums over the four cells of a block row (cell columns x, x + 4, x + 8, x + 12) for every block
 * position x, four per step, in f32 into the ring's row: per four positions the sums S, the squares Q and the
 * ramp moments X (−1.5, −0.5, 0.5, 1.5 across), one f32x4 each.
 */
function cellRowSums(line: usize, count: i32, to: usize): void {
  const half = f32x4.splat(0.5);
  const oneHalf = f32x4.splat(1.5);
  for (let x = 0; x < count; x += 4) {
    const at = line + (<usize>x << 2);
    const a = v128.load(at);
    const b = v128.load(at, 16);
    const c = v128.load(at, 32);
    const d = v128.load(at, 48);
    const o = to + <usize>(x >> 2) * 48;
    v128.store(o, f32x4.add(f32x4.add(a, b), f32x4.add(c, d)));
    const ab = f32x4.add(f32x4.mul(a, a), f32x4.mul(b, b));
    v128.store(o, f32x4.add(ab, f32x4.add(f32x4.mul(c, c), f32x4.mul(d, d))), 16);
    v128.store(o, f32x4.add(f32x4.mul(f32x4.sub(d, a), oneHalf), f32x4.mul(f32x4.sub(c, b), half)), 32);
  }
}

/**
 * Residual sums of squares of four block positions from their four cell rows' sums (ring rows r0…r3 at the
 * positions' byte: S at +0, X at +32) and their squares' sum `sq`, in f32 and another order than the reference
 * (see copyMoveHashRows).
 */
@inline function ringResidual(r0: usize, r1: usize, r2: usize, r3: usize, sq: v128): v128 {
  const s0 = v128.load(r0);
  const s1 = v128.load(r1);
  const s2 = v128.load(r2);
  const s3 = v128.load(r3);
  const sum = f32x4.add(f32x4.add(s0, s1), f32x4.add(s2, s3));
  const sx = f32x4.add(f32x4.add(v128.load(r0, 32), v128.load(r1, 32)), f32x4.add(v128.load(r2, 32), v128.load(r3, 32)));
  const sy = f32x4.add(
    f32x4.mul(f32x4.sub(s3, s0), f32x4.splat(1.5)),
    f32x4.mul(f32x4.sub(s2, s1), f32x4.splat(0.5)),
  );
  const plane = f32x4.mul(f32x4.add(f32x4.mul(sx, sx), f32x4.mul(sy, sy)), f32x4.splat(0.05));
  return f32x4.sub(f32x4.sub(sq, f32x4.mul(f32x4.mul(sum, sum), f32x4.splat(0.0625))), plane);
}

/**
 * Hashes of `rows` rows of `count` block positions, four positions per step. `cells` holds rows + 12 rows of `cw`
 * f32 cell means (and 16 readable bytes after them), `quantised` the same cells as copyMoveQuantise gives them
 * (also 16 readable bytes after); out[y·count + x] (u32; 16 writable bytes after the last) is 0 when the block's
 * unevenness²·16 (the residual sum of squares around the best plane) is below `minResidual`, else the hash of
 * its quantised cells, and judgedOut[y·count + x] (u8; 4 writable bytes after the last) 0 or 1 alike (four smooth
 * blocks side by side take no hash). `ring` holds 16 cell rows' sums (cellRowSums, ringRowBytes each): every cell
 * row's sums are taken once and read by the four block rows that have it, where the reference sums 16 cells per
 * block.
 * Returns how many blocks had detail.
 *
 * Exactness: the residual R = Q − S²/16 − (X² + Y²)/20 is the same real number whatever the order. The
 * reference's f64 operations (its products exact: an f32 squared, or times ±0.5 or ±1.5) stay within ≈ 2⁻⁴⁵·Q of
 * R; these f32 ones within 67·2⁻²⁴·Q < 2⁻¹⁷·Q (S² ≤ 16·Q and X², Y² ≤ 20·Q by Cauchy–Schwarz; at most 5 roundings
 * per sum, the squares' 1, the products' 2), plus at most ≈ 2⁻¹⁴⁰ where f32 underflows. So where this residual lies
 * further than `slack`·Q from `minResidual` (an f32; the caller's slack is 2⁻¹⁵) and Q < 2⁶⁸ (no f32 overflow in
 * any term), the reference's falls on the same side; elsewhere (≈ 0.4 % of a photo's blocks; also NaN or ±∞
 * anywhere) the block's residual and hash are computed again by the reference's operations in its order.
 */
export function copyMoveHashRows(
  cells: usize,
  quantised: usize,
  cw: i32,
  count: i32,
  rows: i32,
  minResidual: f64,
  slack: f64,
  out: usize,
  judgedOut: usize,
  ring: usize,
): i32 {
  let judged = 0;
  const row = <usize>cw << 2;
  const ringRow = ringRowBytes(count);
  prepareCells(row);
  // Bytes from a block's first cell row to its second (4 pixel rows down).
  const cellRows = row << 2;
  const m = f32x4.splat(<f32>minResidual);
  const near = f32x4.splat(<f32>slack);
  for (let y = 0; y < 12; y++) cellRowSums(cells + <usize>y * row, count, ring + <usize>y * ringRow);
  for (let y = 0; y < rows; y++) {
    cellRowSums(cells + <usize>(y + 12) * row, count, ring + <usize>((y + 12) & 15) * ringRow);
    const r0 = ring + <usize>(y & 15) * ringRow;
    const r1 = ring + <usize>((y + 4) & 15) * ringRow;
    const r2 = ring + <usize>((y + 8) & 15) * ringRow;
    const r3 = ring + <usize>((y + 12) & 15) * ringRow;
    for (let x = 0; x < count; x += 4) {
      const corner = <usize>y * row + (<usize>x << 2);
      const o = <usize>(x >> 2) * 48;
      const sq = f32x4.add(
        f32x4.add(v128.load(r0 + o, 16), v128.load(r1 + o, 16)),
        f32x4.add(v128.load(r2 + o, 16), v128.load(r3 + o, 16)),
      );
      const residual = ringResidual(r0 + o, r1 + o, r2 + o, r3 + o, sq);
      const inRow = i32x4.lt_s(i32x4(0, 1, 2, 3), i32x4.splat(count - x));
      let detail = v128.and(f32x4.ge(residual, m), inRow);
      // Its side of the threshold sure: far enough from it, and no cell of 2³⁴ or more (squares ≥ 2⁶⁸: no term near
      // f32's overflow, no quotient beyond an i32; NaN fails both). Else the reference's operations decide.
      const sure = v128.and(
        f32x4.gt(f32x4.abs(f32x4.sub(residual, m)), f32x4.mul(sq, near)),
        f32x4.lt(sq, f32x4.splat(2.9514790517935283e20)), // 2⁶⁸
      );
      const unsure = i32x4.bitmask(v128.andnot(inRow, sure));
      if (unsure) {
        let bits = i32x4.bitmask(detail) & ~unsure;
        for (let lane = 0; lane < 4; lane++)
          // As the reference tests it: a NaN residual (a NaN or ±∞ cell) counts as detail.
          if (unsure & (1 << lane) && !(referenceResidual(cells, corner + (<usize>lane << 2)) < minResidual))
            bits |= 1 << lane;
        detail = i32x4.ne(v128.and(i32x4.splat(bits), i32x4(1, 2, 4, 8)), i32x4.splat(0));
      }
      const at = y * count + x;
      // The four judged flags (1 where a block has detail) as bytes.
      const half = i16x8.narrow_i32x4_s(detail, detail);
      const flags = i8x16.narrow_i16x8_s(half, half);
      v128.store32_lane(judgedOut + <usize>at, v128.and(flags, i8x16.splat(1)), 0);
      if (!v128.any_true(detail)) {
        // Four smooth blocks (a sky, a wall: whole runs of them): no hash to take.
        v128.store(out + (<usize>at << 2), i32x4.splat(0));
        continue;
      }
      // floor(v / 8) of the four blocks' cells (copyMoveQuantise) times the cells' multipliers, summed per cell row
      // (wrapping i32: any order gives the same sum).
      const q = quantised + corner;
      let h = i32x4.add(
        i32x4.add(cellRowHash(q, CELL_TABLE), cellRowHash(q + cellRows, CELL_TABLE + 64)),
        i32x4.add(cellRowHash(q + 2 * cellRows, CELL_TABLE + 128), cellRowHash(q + 3 * cellRows, CELL_TABLE + 192)),
      );
      // The reference's mix of the hash, four lanes at once; 0 becomes 1 (0 means no detail).
      h = v128.xor(h, i32x4.shr_u(h, 16));
      h = i32x4.mul(h, i32x4.splat(0x45d9f3b));
      h = v128.xor(h, i32x4.shr_u(h, 16));
      h = v128.or(h, v128.and(i32x4.eq(h, i32x4.splat(0)), i32x4.splat(1)));
      v128.store(out + (<usize>at << 2), v128.and(h, detail));
      judged += <i32>popcnt(i32x4.bitmask(detail));
      // The blocks decided by the reference's operations take its hash too (a cell's quotient may be beyond an i32).
      const exact = unsure & i32x4.bitmask(detail);
      if (exact)
        for (let lane = 0; lane < 4; lane++)
          if (exact & (1 << lane))
            store<u32>(out + (<usize>(at + lane) << 2), referenceHash(cells, corner + (<usize>lane << 2)));
    }
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
 * group g is [ends[g − 1] (0 for g = 0), ends[g]).
 */
export function copyMoveGroups(hashes: usize, count: i32, shift: i32, ends: usize, entries: usize): void {
  const groups = 1 << (32 - shift);
  memory.fill(ends, 0, <usize>groups << 2);
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
  // The running sum kept in a register: reading the previous group's stored sum waited for its store each step.
  let sum = 0;
  for (let g = 1; g < groups; g++) {
    const at = ends + (<usize>g << 2);
    sum += load<i32>(at);
    store<i32>(at, sum);
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

/** The hashes of the four entries (8 bytes each, the hash first) from `at` on, as an i32x4. */
@inline function fourHashes(at: usize): v128 {
  return i32x4.shuffle(v128.load(at), v128.load(at, 16), 0, 2, 4, 6);
}

/**
 * Of four entries (lane k: entry i + k; hashes `a`, the next four's `b`, the four after those `c`), a bit for each
 * that may have a partner: one of the next four entries has its hash (entries of other groups have other top bits:
 * no group test is needed), or the fifth next is still in its group.
 */
@inline function mayHavePartners(a: v128, b: v128, c: v128, shift: i32): i32 {
  const same = v128.or(
    v128.or(i32x4.eq(a, i32x4.shuffle(a, b, 1, 2, 3, 4)), i32x4.eq(a, i32x4.shuffle(a, b, 2, 3, 4, 5))),
    v128.or(i32x4.eq(a, i32x4.shuffle(a, b, 3, 4, 5, 6)), i32x4.eq(a, b)),
  );
  const longGroup = i32x4.eq(i32x4.shr_u(a, shift), i32x4.shr_u(i32x4.shuffle(b, c, 1, 2, 3, 4), shift));
  return i32x4.bitmask(v128.or(same, longGroup));
}

/**
 * Candidate pairs of the grouped positions (copyMoveGroups, hashes grouped by their top 32 − `shift` bits), from
 * the entry index in `state` (i32; 0 at the start) on: each position with the later ones of its group that have
 * its hash (at most CHAIN_STEPS), kept when at least 16 px apart and their cell means (f32, `cw` per row) match;
 * `twins` (u8 per position) counts such far partners up to 255. Writes up to `capacity` (≥ CHAIN_STEPS) pairs to
 * `first` (the earlier position) and `shifts` (dy·65536 + dx + 32768), stops before a position whose pairs might
 * not fit and saves its entry index in `state` (`count` when done). Returns the number of pairs written.
 * The entries are tested four at a time rather than walked group by group: most positions' hashes are unique
 * (≈ 96 % on a photo) and are passed by a few SIMD compares, where the group walk's loop exits (groups of ≈ 2
 * positions, random sizes) mispredicted about once per position.
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
  // The hashes of entries i … i + 11, four per vector, each loaded once (96 readable bytes after the last entry).
  let a = fourHashes(entries + (<usize>i << 3));
  let b = fourHashes(entries + (<usize>i << 3) + 32);
  for (; i < count; i += 4) {
    const c = fourHashes(entries + (<usize>i << 3) + 64);
    // Lanes past the last entry are left out.
    let walk = mayHavePartners(a, b, c, shift) & ((1 << min(4, count - i)) - 1);
    a = b;
    b = c;
    while (walk) {
      const k = i + ctz(walk);
      walk &= walk - 1;
      if (pairs + CHAIN_STEPS > capacity) {
        store<i32>(state, k);
        return pairs;
      }
      pairs = partnersOf(cells, row, cw, gw, shift, ends, entries, k, twins, pairs, first, shifts);
    }
  }
  store<i32>(state, count);
  return pairs;
}

/**
 * Entry k's pairs with the later entries of its group that have its hash (at most CHAIN_STEPS), as copyMovePairs
 * describes, written from pair index `pairs` on; returns the pairs written so far.
 */
function partnersOf(
  cells: usize,
  row: usize,
  cw: i32,
  gw: i32,
  shift: i32,
  ends: usize,
  entries: usize,
  k: i32,
  twins: usize,
  pairs: i32,
  first: usize,
  shifts: usize,
): i32 {
  const h = load<u32>(entries + (<usize>k << 3));
  const end = load<i32>(ends + (<usize>(h >>> shift) << 2));
  const p = load<i32>(entries + (<usize>k << 3), 4);
  const px = p % gw;
  const py = p / gw;
  for (let j = k + 1, partners = 0; j < end && partners < CHAIN_STEPS; j++) {
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
  return pairs;
}

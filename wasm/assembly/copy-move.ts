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

/**
 * Hashes of `rows` rows of `count` block positions. `cells` holds rows + 12 rows of `cw` f32 cell
 * means (and 8 readable bytes after them); out[y·count + x] (u32) is 0 when the block's unevenness²·16
 * (the residual sum of squares around the best plane) is below `minResidual`. Returns how many blocks had detail.
 */
export function copyMoveHashRows(cells: usize, cw: i32, count: i32, rows: i32, minResidual: f64, out: usize): i32 {
  let judged = 0;
  const row = <usize>cw << 2;
  const step = f64x2.splat(0.125);
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < count; x += 2) {
      let sum = f64x2.splat(0);
      let sq = f64x2.splat(0);
      let sx = f64x2.splat(0);
      let sy = f64x2.splat(0);
      let h = i32x4.splat(0);
      for (let i = 0; i < 16; i++) {
        const at = cells + <usize>(y + (i >> 2) * 4) * row + (<usize>(x + (i & 3) * 4) << 2);
        const v = f64x2.promote_low_f32x4(v128.load64_zero(at));
        sum = f64x2.add(sum, v);
        sq = f64x2.add(sq, f64x2.mul(v, v));
        sx = f64x2.add(sx, f64x2.mul(v, f64x2.splat(<f64>(i & 3) - 1.5)));
        sy = f64x2.add(sy, f64x2.mul(v, f64x2.splat(<f64>(i >> 2) - 1.5)));
        const q = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.mul(v, step)));
        h = i32x4.add(h, i32x4.mul(q, i32x4.splat(unchecked(MULTIPLIERS[i]))));
      }
      const residual = f64x2.sub(
        f64x2.sub(sq, f64x2.div(f64x2.mul(sum, sum), f64x2.splat(16))),
        f64x2.div(f64x2.add(f64x2.mul(sx, sx), f64x2.mul(sy, sy)), f64x2.splat(20)),
      );
      const o = out + (<usize>(y * count + x) << 2);
      const r0 = f64x2.extract_lane(residual, 0);
      const h0: u32 = r0 >= minResidual ? mix(i32x4.extract_lane(h, 0)) : 0;
      store<u32>(o, h0);
      if (h0) judged++;
      if (x + 1 < count) {
        const h1: u32 = f64x2.extract_lane(residual, 1) >= minResidual ? mix(i32x4.extract_lane(h, 1)) : 0;
        store<u32>(o + 4, h1);
        if (h1) judged++;
      }
    }
  return judged;
}

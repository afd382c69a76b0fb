// Grey-picture helpers of src/scanner/images/gray.ts, value for value: `lumaFromRgba` (BT.601 in f64,
// stored as f32) and `downscale` (each output pixel the f64 sum of its source rectangle's f32 values,
// rows then columns, divided by the rectangle's pixel count, stored as f32).

const R = f64x2.splat(0.299);
const G = f64x2.splat(0.587);
const B = f64x2.splat(0.114);

/** Bytes 0–7 of a shuffle's result as two i32 lanes (zero-extended bytes), converted to f64. */
@inline function lanes(v: v128): v128 {
  return f64x2.convert_low_i32x4_u(v);
}

/**
 * Luma of `count` RGBA pixels at `rgba` into `out` (f32 each): 0.299·R + 0.587·G + 0.114·B in f64, in
 * that order (wasm has no fused multiply-add, so each lane's value is the scalar one), rounded to f32.
 */
export function lumaRows(rgba: usize, count: i32, out: usize): void {
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const v = v128.load(rgba + (<usize>i << 2));
    const z = i8x16.splat(0);
    // Each channel of pixels 0 and 1 (then 2 and 3) as two zero-extended i32 lanes (index 16 = a zero byte).
    const r01 = lanes(i8x16.shuffle(v, z, 0, 16, 16, 16, 4, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16));
    const g01 = lanes(i8x16.shuffle(v, z, 1, 16, 16, 16, 5, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16));
    const b01 = lanes(i8x16.shuffle(v, z, 2, 16, 16, 16, 6, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16));
    const r23 = lanes(i8x16.shuffle(v, z, 8, 16, 16, 16, 12, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16));
    const g23 = lanes(i8x16.shuffle(v, z, 9, 16, 16, 16, 13, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16));
    const b23 = lanes(i8x16.shuffle(v, z, 10, 16, 16, 16, 14, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16));
    const low = f64x2.add(f64x2.add(f64x2.mul(R, r01), f64x2.mul(G, g01)), f64x2.mul(B, b01));
    const high = f64x2.add(f64x2.add(f64x2.mul(R, r23), f64x2.mul(G, g23)), f64x2.mul(B, b23));
    v128.store(out + (<usize>i << 2), i32x4.shuffle(f32x4.demote_f64x2_zero(low), f32x4.demote_f64x2_zero(high), 0, 1, 4, 5));
  }
  for (; i < count; i++) {
    const p = rgba + (<usize>i << 2);
    const luma: f64 = 0.299 * <f64>load<u8>(p) + 0.587 * <f64>load<u8>(p + 1) + 0.114 * <f64>load<u8>(p + 2);
    store<f32>(out + (<usize>i << 2), <f32>luma);
  }
}

/**
 * `rows` output rows of downscale: output row r covers source rows [firstRow[r], endRow[r]) and column x
 * source columns [firstColumn[x], endColumn[x]) (i32 tables; rows counted from the `source` rows given,
 * `width` f32 each). Writes `rows` × `outWidth` f32 to `out`.
 */
export function grayDownscaleRows(
  source: usize,
  width: i32,
  rows: i32,
  outWidth: i32,
  firstRow: usize,
  endRow: usize,
  firstColumn: usize,
  endColumn: usize,
  out: usize,
): void {
  for (let r = 0; r < rows; r++) {
    const y0 = load<i32>(firstRow + (<usize>r << 2));
    const y1 = load<i32>(endRow + (<usize>r << 2));
    for (let x = 0; x < outWidth; x++) {
      const x0 = load<i32>(firstColumn + (<usize>x << 2));
      const x1 = load<i32>(endColumn + (<usize>x << 2));
      // Two neighbouring cells two columns wide (a halving's common case): one per lane of an f64x2, each lane's sum
      // in the scalar order (row by row, left pixel then right).
      if (
        x1 == x0 + 2 &&
        x + 1 < outWidth &&
        load<i32>(firstColumn + (<usize>x << 2), 4) == x1 &&
        load<i32>(endColumn + (<usize>x << 2), 4) == x1 + 2
      ) {
        let pair = f64x2.splat(0);
        for (let yy = y0; yy < y1; yy++) {
          const v = v128.load(source + (<usize>(yy * width + x0) << 2));
          pair = f64x2.add(pair, f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 0, 2, 0, 2)));
          pair = f64x2.add(pair, f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 1, 3, 1, 3)));
        }
        const means = f32x4.demote_f64x2_zero(f64x2.div(pair, f64x2.splat(<f64>((y1 - y0) * 2))));
        v128.store64_lane(out + (<usize>(r * outWidth + x) << 2), means, 0);
        x++;
        continue;
      }
      let s: f64 = 0;
      for (let yy = y0; yy < y1; yy++) {
        const line = source + (<usize>(yy * width) << 2);
        for (let xx = x0; xx < x1; xx++) s += <f64>load<f32>(line + (<usize>xx << 2));
      }
      store<f32>(out + (<usize>(r * outWidth + x) << 2), <f32>(s / <f64>((y1 - y0) * (x1 - x0))));
    }
  }
}

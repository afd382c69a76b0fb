// Area-average downscale of one band of RGBA rows: src/scanner/images/area-downscale.ts
// `AreaDownscaler.add`/`flush` is the JavaScript reference, value for value. A row's pixels are summed
// per output column with i32x4 (one pixel's R, G, B, A per vector: exact integers), added to the
// output row's f64 sums as the reference adds them, and an output row is written when the source
// rows move on to the next one: round(sum / count), Math.round's halves up (floor(x + 0.5); sums and
// counts are integers, so x is never within an ulp of a half without being one).

/**
 * Adds `rows` rows of `width` RGBA pixels at `rgba` (picture rows y, y + 1, …; picture `height`).
 * `firstColumn` (u32, outWidth + 1): source columns of output column ox = [firstColumn[ox],
 * firstColumn[ox + 1]). `sums` (f64, 3 per output column), `counts` (u32 per output column) and
 * `state` (i32: the output row being summed) carry over between calls. Every output row finished
 * on the way is written to `out` (outWidth RGBA pixels each, in order, starting with the row that
 * was being summed at the call); returns how many.
 */
export function areaDownscaleBand(
  rgba: usize,
  width: i32,
  rows: i32,
  y: i32,
  height: i32,
  outWidth: i32,
  outHeight: i32,
  firstColumn: usize,
  sums: usize,
  counts: usize,
  state: usize,
  out: usize,
): i32 {
  let outRow = load<i32>(state);
  let written = 0;
  for (let r = 0; r < rows; r++) {
    const target = <i32>((<i64>(y + r) * <i64>outHeight) / <i64>height);
    if (target !== outRow) {
      flushRow(outWidth, sums, counts, out + <usize>written * <usize>outWidth * 4);
      written++;
      outRow = target;
    }
    const row = rgba + <usize>r * <usize>width * 4;
    for (let ox = 0; ox < outWidth; ox++) {
      const start = load<u32>(firstColumn + (<usize>ox << 2));
      const end = load<u32>(firstColumn + (<usize>(ox + 1) << 2));
      let sum = i32x4.splat(0);
      for (let x = start; x < end; x++)
        sum = i32x4.add(sum, i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(row + (<usize>x << 2)))));
      const s = sums + <usize>ox * 24;
      store<f64>(s, load<f64>(s) + <f64>i32x4.extract_lane(sum, 0));
      store<f64>(s + 8, load<f64>(s + 8) + <f64>i32x4.extract_lane(sum, 1));
      store<f64>(s + 16, load<f64>(s + 16) + <f64>i32x4.extract_lane(sum, 2));
      const c = counts + (<usize>ox << 2);
      store<u32>(c, load<u32>(c) + end - start);
    }
  }
  store<i32>(state, outRow);
  return written;
}

/** One output row from the sums (then cleared), alpha 255. */
function flushRow(outWidth: i32, sums: usize, counts: usize, out: usize): void {
  for (let ox = 0; ox < outWidth; ox++) {
    const counted = load<u32>(counts + (<usize>ox << 2));
    const n = <f64>(counted ? counted : 1);
    const s = sums + <usize>ox * 24;
    const o = out + (<usize>ox << 2);
    store<u8>(o, <u8>Math.floor(load<f64>(s) / n + 0.5));
    store<u8>(o + 1, <u8>Math.floor(load<f64>(s + 8) / n + 0.5));
    store<u8>(o + 2, <u8>Math.floor(load<f64>(s + 16) / n + 0.5));
    store<u8>(o + 3, 255);
  }
  memory.fill(sums, 0, <usize>outWidth * 24);
  memory.fill(counts, 0, <usize>outWidth * 4);
}

// Heatmap overlay rows, written straight into a PNG's scanlines: src/scanner/images/heatmap.ts
// (renderPixels) is the JavaScript reference, step for step in f64: the base sample (f32) × 0.55,
// blended with its cell's colour, or the grey hatching where the cell is not judged; each byte as
// JavaScript stores a number into a Uint8Array (truncated, modulo 256). The per-cell colours come
// from the reference's own ramp, so the pixels are the same.

/** JavaScript's ToUint8 for the values drawn here (finite or NaN, far below 2^31): NaN → 0. */
@inline function toUint8(v: f64): u8 {
  return <u8>(<i32>v & 255); // i32.trunc_sat_f64_s: NaN → 0
}

/**
 * Output row `y` of a heatmap, `width` RGB pixels at `out`. `src`: the base picture's source row (f32);
 * `srcX`, `cellX`: per output column its source column and grid cell (i32); `cells`: per cell of the
 * row's grid row 4 f64: 1 − opacity (negative: not judged, hatched), then R, G, B × opacity.
 */
export function heatmapRow(
  src: usize,
  srcX: usize,
  cellX: usize,
  cells: usize,
  y: i32,
  width: i32,
  out: usize,
): void {
  for (let x = 0; x < width; x++) {
    const column = <usize>x << 2;
    const g = <f64>load<f32>(src + (<usize>load<i32>(srcX + column) << 2)) * 0.55;
    const cell = cells + (<usize>load<i32>(cellX + column) << 5);
    const keep = load<f64>(cell);
    const p = out + <usize>(x * 3);
    if (keep < 0) {
      const v: u8 = ((x + y) & 7) < 3 ? 170 : toUint8(g * 0.6 + 60);
      store<u8>(p, v);
      store<u8>(p, v, 1);
      store<u8>(p, v, 2);
    } else {
      const k = g * keep;
      store<u8>(p, toUint8(k + load<f64>(cell, 8)));
      store<u8>(p, toUint8(k + load<f64>(cell, 16)), 1);
      store<u8>(p, toUint8(k + load<f64>(cell, 24)), 2);
    }
  }
}

// Heatmap overlay rows, written straight into a PNG's scanlines: src/scanner/images/heatmap.ts
// (renderPixels) is the JavaScript reference, step for step in f64: the base sample (f32) × 0.55,
// blended with its cell's colour, or the grey hatching where the cell is not judged; each byte as
// JavaScript stores a number into a Uint8Array (truncated, modulo 256). The per-cell colours are the
// reference's ramp (heatmap.ts `ramp`) with Math.round's rounding, so the pixels are the same.

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

/** JavaScript's Math.round (half-way up; NaN stays NaN) for the finite values of the ramp. */
@inline function jsRound(v: f64): f64 {
  const down = Math.floor(v);
  return v - down >= 0.5 ? down + 1 : down;
}

/**
 * The colours of `count` cells of one grid row into `cells` (heatmapRow's layout): from each cell's score
 * (f32) and whether it is judged (u8): 1 − opacity, then R, G, B × opacity; −1 for a cell not judged.
 */
export function heatmapCells(scores: usize, reliable: usize, count: i32, cells: usize): void {
  for (let i = 0; i < count; i++) {
    const cell = cells + (<usize>i << 5);
    if (!load<u8>(reliable + <usize>i)) {
      store<f64>(cell, -1);
      continue;
    }
    const score = <f64>load<f32>(scores + (<usize>i << 2));
    const s = min(1.0, max(0.0, score));
    let r: f64;
    let g: f64;
    let b: f64;
    if (s < 0.5) {
      const u = s / 0.5;
      r = jsRound(40 + 215 * u);
      g = jsRound(80 + 175 * u);
      b = jsRound(220 * (1 - u));
    } else {
      const u = (s - 0.5) / 0.5;
      r = 255;
      g = jsRound(255 * (1 - u));
      b = 0;
    }
    const a = 0.2 + 0.6 * min(1.0, score);
    store<f64>(cell, 1 - a);
    store<f64>(cell, r * a, 8);
    store<f64>(cell, g * a, 16);
    store<f64>(cell, b * a, 24);
  }
}

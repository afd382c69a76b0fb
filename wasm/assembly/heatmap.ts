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

const ONE = f64x2.splat(1);
const HALF = f64x2.splat(0.5);

/** JavaScript's Math.round (half-way up; NaN stays NaN) of two finite or NaN values. */
@inline function jsRound2(v: v128): v128 {
  const down = f64x2.floor(v);
  return v128.bitselect(f64x2.add(down, ONE), down, f64x2.ge(f64x2.sub(v, down), HALF));
}

/**
 * heatmapCells' values of two cells: scores `v` (f64 lanes), judged where `judged`'s lane is all ones; stored
 * as the layout's (1 − opacity or −1, R × opacity) and (G × opacity, B × opacity) pairs of lane 0 at `cell`
 * and, when `both`, of lane 1 at `cell` + 32.
 */
@inline function twoCells(v: v128, judged: v128, cell: usize, both: bool): void {
  const nan = f64x2.ne(v, v);
  // Math.min(1, score), then Math.max(0, ·) below: NaN stays NaN, −0 becomes +0 as Math.max(0, −0) does.
  const atMostOne = v128.bitselect(v, ONE, v128.or(f64x2.lt(v, ONE), nan));
  const s = v128.bitselect(atMostOne, v128.bitselect(v, f64x2.splat(0), nan), f64x2.gt(v, f64x2.splat(0)));
  const low = f64x2.lt(s, HALF);
  const uLow = f64x2.mul(s, f64x2.splat(2)); // s / 0.5, the same double
  const uHigh = f64x2.mul(f64x2.sub(s, HALF), f64x2.splat(2));
  const r = v128.bitselect(
    jsRound2(f64x2.add(f64x2.splat(40), f64x2.mul(f64x2.splat(215), uLow))),
    f64x2.splat(255),
    low,
  );
  const g = v128.bitselect(
    jsRound2(f64x2.add(f64x2.splat(80), f64x2.mul(f64x2.splat(175), uLow))),
    jsRound2(f64x2.mul(f64x2.splat(255), f64x2.sub(ONE, uHigh))),
    low,
  );
  const b = v128.bitselect(jsRound2(f64x2.mul(f64x2.splat(220), f64x2.sub(ONE, uLow))), f64x2.splat(0), low);
  const a = f64x2.add(f64x2.splat(0.2), f64x2.mul(f64x2.splat(0.6), atMostOne));
  const keep = v128.bitselect(f64x2.sub(ONE, a), f64x2.splat(-1), judged);
  const ra = f64x2.mul(r, a);
  const ga = f64x2.mul(g, a);
  const ba = f64x2.mul(b, a);
  v128.store(cell, i64x2.shuffle(keep, ra, 0, 2));
  v128.store(cell, i64x2.shuffle(ga, ba, 0, 2), 16);
  if (both) {
    v128.store(cell, i64x2.shuffle(keep, ra, 1, 3), 32);
    v128.store(cell, i64x2.shuffle(ga, ba, 1, 3), 48);
  }
}

/**
 * The colours of `count` cells of one grid row into `cells` (heatmapRow's layout): from each cell's score
 * (f32) and whether it is judged (u8): 1 − opacity, then R, G, B × opacity; −1 for a cell not judged.
 * The reference's ramp (heatmap.ts `ramp`) and opacity, two cells per step and without branches: both
 * halves of the ramp are worked out and one is selected per lane (scores on both sides of 0.5 made the
 * branches mispredict, and V8 turns a scalar f64 select into a branch); ÷ 0.5 is × 2, the same double.
 */
export function heatmapCells(scores: usize, reliable: usize, count: i32, cells: usize): void {
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    const v = f64x2.promote_low_f32x4(v128.load64_zero(scores + (<usize>i << 2)));
    const flags = i64x2.extend_low_i32x4_u(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load16_splat(reliable + <usize>i))));
    twoCells(v, i64x2.ne(flags, i64x2.splat(0)), cells + (<usize>i << 5), true);
  }
  if (i < count) {
    const v = f64x2.promote_low_f32x4(v128.load32_zero(scores + (<usize>i << 2)));
    const judged = load<u8>(reliable + <usize>i) ? i64x2.splat(-1) : i64x2.splat(0);
    twoCells(v, judged, cells + (<usize>i << 5), false);
  }
}

/**
 * heatmapCells of a row of log-ratio scores (f32, NaN = not judged), each taken to 0–1 first as anomaly.ts
 * `toUnit` does: Math.min(1, Math.max(0, score / full)) stored as an f32 (NaN: 0, not judged). `pmax` with 0
 * gives +0 for −0 as Math.max(0, −0) does; a NaN lane (not judged) is set to 0 as toUnit leaves it.
 */
export function heatmapRatioCells(ratios: usize, count: i32, full: f64, cells: usize): void {
  const divisor = f64x2.splat(full);
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    const v = f64x2.promote_low_f32x4(v128.load64_zero(ratios + (<usize>i << 2)));
    const judged = f64x2.eq(v, v);
    twoCells(unitOf(v, divisor, judged), judged, cells + (<usize>i << 5), true);
  }
  if (i < count) {
    const v = f64x2.promote_low_f32x4(v128.load32_zero(ratios + (<usize>i << 2)));
    const judged = f64x2.eq(v, v);
    twoCells(unitOf(v, divisor, judged), judged, cells + (<usize>i << 5), false);
  }
}

/** toUnit's value of two judged ratios (0 in lanes not judged), rounded to f32 as its Float32Array stores it. */
@inline function unitOf(v: v128, divisor: v128, judged: v128): v128 {
  const u = f64x2.pmin(ONE, f64x2.pmax(f64x2.splat(0), f64x2.div(v, divisor)));
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(v128.and(u, judged)));
}

// Heatmap overlay rows, written straight into a PNG's scanlines: src/scanner/images/heatmap.ts
// (renderPixels) is the JavaScript reference, step for step in f64: the base sample (f32) × 0.55,
// blended with its cell's colour, or the grey hatching where the cell is not judged; each byte as
// JavaScript stores a number into a Uint8Array (truncated, modulo 256). The per-cell colours are the
// reference's ramp (heatmap.ts `ramp`) with Math.round's integers, so the pixels are the same.

/**
 * JavaScript's ToUint8 of a double that is NaN, ±∞ or below 2^51 in magnitude (all drawn here): truncated,
 * modulo 256; NaN and ±∞ → 0.
 */
@inline function toUint8(v: f64): u8 {
  return <u8>i32x4.extract_lane(toUint8Lanes(f64x2.splat(v)), 0);
}

/**
 * ToUint8 of two such doubles, in i32 lanes 0 and 2 (the low halves of the lanes): truncated (one instruction),
 * then + 1.5 · 2^52 leaves the integer t as 2^51 + t in the mantissa (|t| < 2^51: exact, the exponent fixed), so
 * t modulo 2^32 in the lane's low 32 bits; NaN lanes become −∞ first (`pmax` with −∞, one instruction:
 * −∞ < NaN is false), and ±∞ stays ±∞, whose low bits are 0. (trunc_sat is a long sequence in V8, and
 * saturates where ToUint8 wraps.)
 */
@inline function toUint8Lanes(v: v128): v128 {
  const t = f64x2.trunc(f64x2.pmax(f64x2.splat(-Infinity), v));
  return v128.and(f64x2.add(t, f64x2.splat(6755399441055744)), i64x2.splat(255));
}

/** 170 where a hatched pixel is drawn light ((x + y) mod 8 < 3), for x + y mod 8 = 0 … 7 and again (lanes of 2). */
const ALL: u64 = 0xffffffffffffffff;
const HATCH_LIGHT = memory.data<u64>([ALL, ALL, ALL, 0, 0, 0, 0, 0, ALL, ALL, ALL, 0, 0, 0, 0, 0]);

/** Bytes of four pixels' R (lanes 0–3), G (4–7) and B (8–11) to R G B R G B …: 12 bytes. */
@inline function interleave(bytes: v128): v128 {
  return i8x16.shuffle(bytes, bytes, 0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 12, 13, 14, 15);
}

/** The first two of interleave's pixels, each twice (R0 G0 B0 R0 G0 B0 R1 …: 12 bytes, then pixel 2's first 4). */
@inline function interleaveFirstTwice(bytes: v128): v128 {
  return i8x16.shuffle(bytes, bytes, 0, 4, 8, 0, 4, 8, 1, 5, 9, 1, 5, 9, 2, 6, 10, 2);
}

/** The last two of interleave's pixels, each twice: 12 bytes (and 4 more, written over by the next step). */
@inline function interleaveLastTwice(bytes: v128): v128 {
  return i8x16.shuffle(bytes, bytes, 2, 6, 10, 2, 6, 10, 3, 7, 11, 3, 7, 11, 12, 13, 14, 15);
}

/** Two pixels' channel: blended (`keep` ≥ 0) or the hatching's grey, as lanes of ToUint8 (heatmapRow's values). */
@inline function hatchedChannel(k: v128, colour: v128, hatched: v128, grey: v128): v128 {
  return toUint8Lanes(v128.bitselect(grey, f64x2.add(k, colour), hatched));
}

/** Two pixels' blended channel as lanes of ToUint8, in a row whose cells are all judged. */
@inline function blendedChannel(k: v128, colour: v128): v128 {
  return toUint8Lanes(f64x2.add(k, colour));
}

/**
 * The nearest-neighbour resample of one source row (f32 at `src`) to a heatmap's `width`: per output column the
 * sample its source column (`srcX`, i32) names, to `out`. Once per source row, which heatmapRow then reads four
 * samples at a time (at leuvenA's size a source row serves two output rows). `doubled`: the output is twice the
 * source's width, so srcX[x] = x >> 1 (⌊x · w / 2w⌋): four samples stored as eight by two shuffles (the hatched rows
 * of the block heatmaps of small photos), the rest through srcX.
 */
export function heatmapSourceRow(src: usize, srcX: usize, width: i32, out: usize, doubled: bool): void {
  let x = 0;
  if (doubled)
    for (; x + 8 <= width; x += 8) {
      const samples = v128.load(src + (<usize>x << 1));
      v128.store(out + (<usize>x << 2), i32x4.shuffle(samples, samples, 0, 0, 1, 1));
      v128.store(out + (<usize>x << 2), i32x4.shuffle(samples, samples, 2, 2, 3, 3), 16);
    }
  for (; x < width; x++) {
    const at = <usize>x << 2;
    store<f32>(out + at, load<f32>(src + (<usize>load<i32>(srcX + at) << 2)));
  }
}

/** The four i32 ToUint8 values (lanes 0 and 2 of `a` and of `b`) of one channel of four pixels. */
@inline function lanes4(a: v128, b: v128): v128 {
  return v128.shuffle<i32>(a, b, 0, 2, 4, 6);
}

/**
 * Output row `y` of a heatmap, `width` RGB pixels at `out`. `src`: the base picture's row at the output's width
 * (f32; resampled by heatmapSourceRow once per source row, not once per output row); `cellX`: per output column
 * its cell; `cells`: the grid row's cell colours (heatmapCells' layout, read per pixel through `cellX`: no
 * per-pixel copy of them); `hatched`: whether the grid row has a cell not judged (heatmapCells' result; without,
 * the hatching is not computed; with, only in the steps whose four pixels have such a cell: one branch per step).
 * The reference's expressions per pixel in f64, four pixels per step (two per f64x2): the base sample (f32) ×
 * 0.55 blended with its cell's colour, or, where the cell is not judged (1 − opacity < 0), the grey hatching
 * (170 on the light diagonals, else the sample × 0.6 + 60). A step writes 16 bytes for 12 (the next pixels',
 * or past the row into bytes written later: the next row, or the zlib stream's room behind the last).
 * `twice`: each pixel written twice side by side (`width` pixels, 2 × `width` in the output), for a row whose
 * every pair of output columns 2j, 2j + 1 has the same source column j and cell (a background drawn at twice its
 * width, as the block heatmaps of small pictures): `src` is then the source row as it is and `cellX` the pairs'
 * cells; only without hatching (whose diagonals differ between the two). A step then writes 28 bytes for 24.
 */
export function heatmapRow(
  src: usize,
  cellX: usize,
  cells: usize,
  y: i32,
  width: i32,
  out: usize,
  hatched: bool,
  twice: bool,
): void {
  const scale = f64x2.splat(0.55);
  let x = 0;
  for (; x + 4 <= width; x += 4) {
    const samples = v128.load(src + (<usize>x << 2));
    const g0 = f64x2.mul(f64x2.promote_low_f32x4(samples), scale);
    const g1 = f64x2.mul(f64x2.promote_low_f32x4(v128.shuffle<i32>(samples, samples, 2, 3, 0, 1)), scale);
    // Each pixel's cell: (1 − opacity, R × opacity) and (G × opacity, B × opacity), as lanes per channel: the
    // four pixels' (keep0, keep1), (red0, red1), (green0, green1), (blue0, blue1).
    const columns = v128.load(cellX + (<usize>x << 2));
    const first = i32x4.extract_lane(columns, 0);
    let keep0: v128, keep1: v128, red0: v128, red1: v128, green0: v128, green1: v128, blue0: v128, blue1: v128;
    if (first == i32x4.extract_lane(columns, 3)) {
      // All four in one cell (cellX never decreases): its four values, each in both lanes (the steps of
      // heatmaps whose cells are 4 output pixels wide, as copy-move's, seams' and blur's, ≈ all of them).
      const c = cells + (<usize>first << 5);
      keep0 = keep1 = v128.load64_splat(c);
      red0 = red1 = v128.load64_splat(c, 8);
      green0 = green1 = v128.load64_splat(c, 16);
      blue0 = blue1 = v128.load64_splat(c, 24);
    } else {
      const c0 = cells + (<usize>first << 5);
      const c1 = cells + (<usize>i32x4.extract_lane(columns, 1) << 5);
      const c2 = cells + (<usize>i32x4.extract_lane(columns, 2) << 5);
      const c3 = cells + (<usize>i32x4.extract_lane(columns, 3) << 5);
      const a0 = v128.load(c0);
      const a1 = v128.load(c1);
      const a2 = v128.load(c2);
      const a3 = v128.load(c3);
      const b0 = v128.load(c0, 16);
      const b1 = v128.load(c1, 16);
      const b2 = v128.load(c2, 16);
      const b3 = v128.load(c3, 16);
      keep0 = i64x2.shuffle(a0, a1, 0, 2);
      keep1 = i64x2.shuffle(a2, a3, 0, 2);
      red0 = i64x2.shuffle(a0, a1, 1, 3);
      red1 = i64x2.shuffle(a2, a3, 1, 3);
      green0 = i64x2.shuffle(b0, b1, 0, 2);
      green1 = i64x2.shuffle(b2, b3, 0, 2);
      blue0 = i64x2.shuffle(b0, b1, 1, 3);
      blue1 = i64x2.shuffle(b2, b3, 1, 3);
    }
    const k0 = f64x2.mul(g0, keep0);
    const k1 = f64x2.mul(g1, keep1);
    let r: v128, g: v128, b: v128;
    const hatched0 = f64x2.lt(keep0, f64x2.splat(0));
    const hatched1 = f64x2.lt(keep1, f64x2.splat(0));
    if (hatched && v128.any_true(v128.or(hatched0, hatched1))) {
      const light = HATCH_LIGHT + (<usize>((x + y) & 7) << 3);
      const grey0 = v128.bitselect(f64x2.splat(170), f64x2.add(f64x2.mul(g0, f64x2.splat(0.6)), f64x2.splat(60)), v128.load(light));
      const grey1 = v128.bitselect(f64x2.splat(170), f64x2.add(f64x2.mul(g1, f64x2.splat(0.6)), f64x2.splat(60)), v128.load(light, 16));
      r = lanes4(hatchedChannel(k0, red0, hatched0, grey0), hatchedChannel(k1, red1, hatched1, grey1));
      g = lanes4(hatchedChannel(k0, green0, hatched0, grey0), hatchedChannel(k1, green1, hatched1, grey1));
      b = lanes4(hatchedChannel(k0, blue0, hatched0, grey0), hatchedChannel(k1, blue1, hatched1, grey1));
    } else {
      r = lanes4(blendedChannel(k0, red0), blendedChannel(k1, red1));
      g = lanes4(blendedChannel(k0, green0), blendedChannel(k1, green1));
      b = lanes4(blendedChannel(k0, blue0), blendedChannel(k1, blue1));
    }
    const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_s(r, g), i16x8.narrow_i32x4_s(b, i32x4.splat(0)));
    if (twice) {
      v128.store(out + <usize>(x * 6), interleaveFirstTwice(bytes));
      v128.store(out + <usize>(x * 6 + 12), interleaveLastTwice(bytes));
    } else v128.store(out + <usize>(x * 3), interleave(bytes));
  }
  for (; x < width; x++) {
    const g = <f64>load<f32>(src + (<usize>x << 2)) * 0.55;
    const cell = cells + (<usize>load<i32>(cellX + (<usize>x << 2)) << 5);
    const keep = load<f64>(cell);
    if (twice) {
      // Never hatched (the caller's condition).
      const p = out + <usize>(x * 6);
      const k = g * keep;
      const r = toUint8(k + load<f64>(cell, 8));
      const gr = toUint8(k + load<f64>(cell, 16));
      const b = toUint8(k + load<f64>(cell, 24));
      store<u8>(p, r);
      store<u8>(p, gr, 1);
      store<u8>(p, b, 2);
      store<u8>(p, r, 3);
      store<u8>(p, gr, 4);
      store<u8>(p, b, 5);
      continue;
    }
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

/**
 * heatmapCells' values of two cells: scores `v` (f64 lanes of f32 values), judged where `judged`'s lane is all
 * ones; stored as the layout's (1 − opacity or −1, R × opacity) and (G × opacity, B × opacity) pairs of lane 0
 * at `cell` and, when `both`, of lane 1 at `cell` + 32.
 */
@inline function twoCells(v: v128, judged: v128, cell: usize, both: bool): void {
  const nan = f64x2.ne(v, v);
  // Math.min(1, score), then Math.max(0, ·) below: NaN stays NaN, −0 becomes +0 as Math.max(0, −0) does.
  const atMostOne = v128.bitselect(v, ONE, v128.or(f64x2.lt(v, ONE), nan));
  const s = v128.bitselect(atMostOne, v128.bitselect(v, f64x2.splat(0), nan), f64x2.gt(v, f64x2.splat(0)));
  clampedCells(s, atMostOne, judged, cell, both);
}

/**
 * twoCells from the ramp's clamped score `s` (Math.min(1, Math.max(0, score))) and the opacity's
 * Math.min(1, score) `atMostOne`.
 */
@inline function clampedCells(s: v128, atMostOne: v128, judged: v128, cell: usize, both: bool): void {
  const low = f64x2.lt(s, HALF);
  const uLow = f64x2.mul(s, f64x2.splat(2)); // s / 0.5, the same double
  const uHigh = f64x2.mul(f64x2.sub(s, HALF), f64x2.splat(2));
  // Math.round as floor(x + 0.5), the + 0.5 folded into the ramp's constant where it has one (40.5 + 215u
  // for Math.round(40 + 215u)), the half the reference's `s < 0.5` picks selected before the floor. For scores
  // that are f32 values in [0, 1] (the only ones drawn: Float32Array scores, toUnit's f32) this is Math.round's
  // integer for every one of them (checked exhaustively, docs/wasm.md); NaN stays NaN.
  const r = f64x2.floor(
    v128.bitselect(f64x2.add(f64x2.splat(40.5), f64x2.mul(f64x2.splat(215), uLow)), f64x2.splat(255), low),
  );
  const g = f64x2.floor(
    v128.bitselect(
      f64x2.add(f64x2.splat(80.5), f64x2.mul(f64x2.splat(175), uLow)),
      f64x2.add(f64x2.mul(f64x2.splat(255), f64x2.sub(ONE, uHigh)), HALF),
      low,
    ),
  );
  const b = f64x2.floor(
    v128.bitselect(f64x2.add(f64x2.mul(f64x2.splat(220), f64x2.sub(ONE, uLow)), HALF), f64x2.splat(0), low),
  );
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
 * Returns 1 when a cell is not judged (heatmapRow's `hatched`), else 0.
 */
export function heatmapCells(scores: usize, reliable: usize, count: i32, cells: usize): i32 {
  let notJudged = i64x2.splat(0);
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    const v = f64x2.promote_low_f32x4(v128.load64_zero(scores + (<usize>i << 2)));
    const flags = i64x2.extend_low_i32x4_u(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load16_splat(reliable + <usize>i))));
    const judged = i64x2.ne(flags, i64x2.splat(0));
    notJudged = v128.or(notJudged, v128.not(judged));
    twoCells(v, judged, cells + (<usize>i << 5), true);
  }
  if (i < count) {
    const v = f64x2.promote_low_f32x4(v128.load32_zero(scores + (<usize>i << 2)));
    const judged = load<u8>(reliable + <usize>i) ? i64x2.splat(-1) : i64x2.splat(0);
    notJudged = v128.or(notJudged, v128.not(judged));
    twoCells(v, judged, cells + (<usize>i << 5), false);
  }
  return <i32>v128.any_true(notJudged);
}

/**
 * heatmapCells of a row of log-ratio scores (f32, NaN = not judged), each taken to 0–1 first as anomaly.ts
 * `toUnit` does: Math.min(1, Math.max(0, score / full)) stored as an f32 (NaN: 0, not judged). `pmax` with 0
 * gives +0 for −0 as Math.max(0, −0) does; a NaN lane (not judged) is set to 0 as toUnit leaves it. The unit
 * score is its own clamp (in [0, 1], never NaN). Returns heatmapCells' 1 when a cell is not judged.
 */
export function heatmapRatioCells(ratios: usize, count: i32, full: f64, cells: usize): i32 {
  const divisor = f64x2.splat(full);
  let notJudged = i64x2.splat(0);
  let i = 0;
  for (; i + 2 <= count; i += 2) {
    const v = f64x2.promote_low_f32x4(v128.load64_zero(ratios + (<usize>i << 2)));
    const judged = f64x2.eq(v, v);
    notJudged = v128.or(notJudged, v128.not(judged));
    const unit = unitOf(v, divisor, judged);
    clampedCells(unit, unit, judged, cells + (<usize>i << 5), true);
  }
  if (i < count) {
    const v = f64x2.promote_low_f32x4(v128.load32_zero(ratios + (<usize>i << 2)));
    const judged = f64x2.eq(v, v);
    notJudged = v128.or(notJudged, v128.not(judged));
    const unit = unitOf(v, divisor, judged);
    clampedCells(unit, unit, judged, cells + (<usize>i << 5), false);
  }
  return <i32>v128.any_true(notJudged);
}

/** toUnit's value of two judged ratios (0 in lanes not judged), rounded to f32 as its Float32Array stores it. */
@inline function unitOf(v: v128, divisor: v128, judged: v128): v128 {
  const u = f64x2.pmin(ONE, f64x2.pmax(f64x2.splat(0), f64x2.div(v, divisor)));
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(v128.and(u, judged)));
}

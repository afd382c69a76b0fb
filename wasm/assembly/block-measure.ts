// The per-8×8-block pass of the pixel detectors (ELA, noise, double compression, copy-move
// preview): src/scanner/images/block-analysis.ts `measureBlock` and the float DCTs of dct.ts are the
// JavaScript reference. Every output is bit-identical to the reference:
//
// - each transform's result is only ever used rounded to an integer (the samples, and the ELA quotients
//   coefficient / step), so the transforms first run as a fast separable DCT (even/odd butterflies, 22
//   instead of 64 products per 8 values); its doubles differ from the reference's dense sums in the last
//   bits, both by far less than TIE (see below), so wherever no value lies within TIE of a rounding tie
//   (x + 0.5) both round alike. A block stage with a value that near a tie, or with a dequantised
//   coefficient beyond LIMIT, is computed again with the dense transforms in the reference's order (same
//   f64 operations in the same order per value; SIMD lanes are independent outputs), whose values are the
//   reference's exactly;
// - sums of integers (pixels, squares, quarters, sample errors) are exact in any order: measureBlock takes
//   them as i16/i32.
/** Constants from the caller (its own Math.cos, so both sides use the same table): COS[u*8+x], ELA table. */
export const COS = memory.data(64 * 8, 16);
/** COS transposed: COST[x*8+u] = COS[u*8+x]. */
export const COST = memory.data(64 * 8, 16);
const ELA_TABLE = memory.data(64 * 8, 16);
/** 1 / ELA_TABLE[k]: the fast stages multiply (within an ulp of the division, far inside TIE). */
const ELA_INVERSE = memory.data(64 * 8, 16);

const PX = memory.data(64 * 8, 16);
const SHIFTED = memory.data(64 * 8, 16);
const COEF = memory.data(64 * 8, 16);
const TMP = memory.data(64 * 8, 16);
const REC = memory.data(64 * 8, 16);

import { fastForwardDct, fastInverseDct } from "./fast-dct";

/**
 * How near a rounding tie a fast transform's value may come before the stage is redone densely. Below
 * LIMIT every value of a transform is < 2^20 in magnitude (a 1-D pass multiplies by at most
 * Σx |COS[u*8+x]| ≤ 4), each rounded operation errs by ≤ 2^-33, and the dense and the fast transform's
 * values (then + 128, or / step ≥ 1) lie within ≈ 2^-27 of each other; so a value ≥ TIE = 2^-20 from a tie
 * rounds the same way in both, with a margin of ≈ 100×.
 */
const TIE: f64 = 9.5367431640625e-7;
/** The largest dequantised coefficient the fast inverse transform takes (2^16; real JPEGs stay below 2^11 · 255). */
const LIMIT: f64 = 65536;

/** Block stages redone densely since the last call of takeDenseStages (a count for the tests and benchmarks). */
let denseStages: i32 = 0;

/** The number of block stages redone with the dense transforms since the last call, and resets it. */
export function takeDenseStages(): i32 {
  const n = denseStages;
  denseStages = 0;
  return n;
}

/**
 * Whether any value of a stage lies within TIE of a rounding tie, from the smallest and largest fraction
 * y − floor(y) of its values + 0.5 (each in [0, 1)): one of them is within TIE of an integer exactly when
 * the smallest is below TIE or the largest above 1 − TIE.
 */
@inline function nearInteger(lowest: v128, highest: v128): bool {
  return v128.any_true(v128.or(f64x2.lt(lowest, f64x2.splat(TIE)), f64x2.gt(highest, f64x2.splat(1 - TIE))));
}

const SQRT_PI_2: f64 = 1.2533141373155001; // Math.sqrt(Math.PI / 2)
const SQRT_1_25: f64 = 1.118033988749895; // Math.sqrt(1.25)

/** Copies the caller's tables (64 f64 cosines, 64 f64 ELA quantiser steps) in. */
export function setBlockConstants(cos: usize, elaTable: usize): void {
  for (let u = 0; u < 8; u++)
    for (let x = 0; x < 8; x++) {
      const v = load<f64>(cos + <usize>(u * 8 + x) * 8);
      store<f64>(COS + <usize>(u * 8 + x) * 8, v);
      store<f64>(COST + <usize>(x * 8 + u) * 8, v);
    }
  memory.copy(ELA_TABLE, elaTable, 64 * 8);
  for (let k = 0; k < 64; k++) store<f64>(at(ELA_INVERSE, k), 1 / load<f64>(at(ELA_TABLE, k)));
}

@inline function at(base: usize, i: i32): usize {
  return base + <usize>i * 8;
}

/** Σk coefficients[k]·splat(p_k), k = 0…7 in order, from +0: one output pair of a 1-D pass. */
@inline function dot8(
  table: usize,
  step: i32,
  first: i32,
  p0: v128,
  p1: v128,
  p2: v128,
  p3: v128,
  p4: v128,
  p5: v128,
  p6: v128,
  p7: v128,
): v128 {
  let s = f64x2.add(f64x2.splat(0), f64x2.mul(v128.load(at(table, first)), p0));
  s = f64x2.add(s, f64x2.mul(v128.load(at(table, first + step)), p1));
  s = f64x2.add(s, f64x2.mul(v128.load(at(table, first + 2 * step)), p2));
  s = f64x2.add(s, f64x2.mul(v128.load(at(table, first + 3 * step)), p3));
  s = f64x2.add(s, f64x2.mul(v128.load(at(table, first + 4 * step)), p4));
  s = f64x2.add(s, f64x2.mul(v128.load(at(table, first + 5 * step)), p5));
  s = f64x2.add(s, f64x2.mul(v128.load(at(table, first + 6 * step)), p6));
  return f64x2.add(s, f64x2.mul(v128.load(at(table, first + 7 * step)), p7));
}

@inline function splatAt(base: usize, i: i32): v128 {
  return f64x2.splat(load<f64>(at(base, i)));
}

/**
 * Row pass shared by both transforms: rows[r*8+k..k+1] = Σj table[j*8+k..k+1]·input[r*8+j] (j in
 * order) for the rows listed in `rows` (the others are left as they are).
 */
@inline function rowPass(input: usize, table: usize, rows: usize, rowCount: i32): void {
  for (let i = 0; i < rowCount; i++) {
    const r = load<i32>(rows + <usize>i * 4);
    const b = r * 8;
    const p0 = splatAt(input, b);
    const p1 = splatAt(input, b + 1);
    const p2 = splatAt(input, b + 2);
    const p3 = splatAt(input, b + 3);
    const p4 = splatAt(input, b + 4);
    const p5 = splatAt(input, b + 5);
    const p6 = splatAt(input, b + 6);
    const p7 = splatAt(input, b + 7);
    for (let k = 0; k < 8; k += 2) v128.store(at(TMP, b + k), dot8(table, 8, k, p0, p1, p2, p3, p4, p5, p6, p7));
  }
}

/** Every row index 0…7 (the forward transform's rows are never skipped). */
const ALL_ROWS = memory.data<i32>([0, 1, 2, 3, 4, 5, 6, 7]);
/** Rows of the inverse transform's input that hold a non-zero value, in order. */
const LIVE_ROWS = memory.data(8 * 4, 16);

/** out[y*8+u] = Σx COS[u*8+x]·input[y*8+x]; then out[v*8+u] = Σy COS[v*8+y]·tmp[y*8+u] (dct.ts forwardDct). */
function forwardDct(input: usize, out: usize): void {
  rowPass(input, COST, ALL_ROWS, 8);
  for (let v = 0; v < 8; v++) {
    const b = v * 8;
    const c0 = splatAt(COS, b);
    const c1 = splatAt(COS, b + 1);
    const c2 = splatAt(COS, b + 2);
    const c3 = splatAt(COS, b + 3);
    const c4 = splatAt(COS, b + 4);
    const c5 = splatAt(COS, b + 5);
    const c6 = splatAt(COS, b + 6);
    const c7 = splatAt(COS, b + 7);
    for (let u = 0; u < 8; u += 2) v128.store(at(out, b + u), dot8(TMP, 8, u, c0, c1, c2, c3, c4, c5, c6, c7));
  }
}

/**
 * dct.ts inverseDct: tmp[v*8+x] = Σu COS[u*8+x]·input[v*8+u]; out[y*8+x] = Σv COS[v*8+y]·tmp[v*8+x].
 * The row pass skips rows of zeros and writes +0 for them, and the column pass (unless every row is live)
 * adds only the live rows' terms, in order: the skipped products are ±0, and adding ±0 to a running sum
 * that starts at +0 never changes it (a sum of doubles can only be −0 if every term is −0), so the result
 * is the same as the full pass.
 */
function inverseDct(input: usize, out: usize): void {
  let live = 0;
  for (let v = 0; v < 8; v++) {
    const b = at(input, v * 8);
    const any = v128.or(
      v128.or(f64x2.ne(v128.load(b), f64x2.splat(0)), f64x2.ne(v128.load(b, 16), f64x2.splat(0))),
      v128.or(f64x2.ne(v128.load(b, 32), f64x2.splat(0)), f64x2.ne(v128.load(b, 48), f64x2.splat(0))),
    );
    if (v128.any_true(any)) {
      store<i32>(LIVE_ROWS + <usize>live * 4, v);
      live++;
    } else {
      const t = at(TMP, v * 8);
      v128.store(t, f64x2.splat(0));
      v128.store(t, f64x2.splat(0), 16);
      v128.store(t, f64x2.splat(0), 32);
      v128.store(t, f64x2.splat(0), 48);
    }
  }
  rowPass(input, COS, LIVE_ROWS, live);
  if (live == 8) {
    for (let y = 0; y < 8; y++) {
      const c0 = splatAt(COS, y);
      const c1 = splatAt(COS, 8 + y);
      const c2 = splatAt(COS, 16 + y);
      const c3 = splatAt(COS, 24 + y);
      const c4 = splatAt(COS, 32 + y);
      const c5 = splatAt(COS, 40 + y);
      const c6 = splatAt(COS, 48 + y);
      const c7 = splatAt(COS, 56 + y);
      for (let x = 0; x < 8; x += 2) v128.store(at(out, y * 8 + x), dot8(TMP, 8, x, c0, c1, c2, c3, c4, c5, c6, c7));
    }
    return;
  }
  for (let y = 0; y < 8; y++) {
    let s0 = f64x2.splat(0);
    let s1 = f64x2.splat(0);
    let s2 = f64x2.splat(0);
    let s3 = f64x2.splat(0);
    for (let i = 0; i < live; i++) {
      const v = load<i32>(LIVE_ROWS + <usize>i * 4);
      const t = at(TMP, v * 8);
      const c = splatAt(COS, v * 8 + y);
      s0 = f64x2.add(s0, f64x2.mul(v128.load(t), c));
      s1 = f64x2.add(s1, f64x2.mul(v128.load(t, 16), c));
      s2 = f64x2.add(s2, f64x2.mul(v128.load(t, 32), c));
      s3 = f64x2.add(s3, f64x2.mul(v128.load(t, 48), c));
    }
    const o = at(out, y * 8);
    v128.store(o, s0);
    v128.store(o, s1, 16);
    v128.store(o, s2, 32);
    v128.store(o, s3, 48);
  }
}

/** JavaScript's Math.round (halves toward +∞) on both lanes. */
@inline export function jsRound(x: v128): v128 {
  const c = f64x2.ceil(x);
  const over = f64x2.gt(f64x2.sub(c, f64x2.splat(0.5)), x);
  return f64x2.sub(c, v128.and(over, f64x2.splat(1)));
}

/** min(255, max(0, Math.round(v + 128))) on both lanes (the reference's order: max first). */
@inline function toSample(v: v128): v128 {
  return f64x2.min(f64x2.splat(255), f64x2.max(f64x2.splat(0), jsRound(f64x2.add(v, f64x2.splat(128)))));
}

/** COEF[k] = Math.round(COEF[k] / step) · step with the ELA quantiser's steps (the reference's operations). */
function quantiseDense(): void {
  for (let k = 0; k < 64; k += 2) {
    const step = v128.load(at(ELA_TABLE, k));
    v128.store(at(COEF, k), f64x2.mul(jsRound(f64x2.div(v128.load(at(COEF, k)), step)), step));
  }
}

/**
 * COEF[k] = floor(COEF[k] · (1 / step) + 0.5) · step: the reference's quantised coefficient wherever no
 * quotient lies within TIE of a tie; whether one did.
 */
function quantiseFast(): bool {
  let lowest = f64x2.splat(1);
  let highest = f64x2.splat(0);
  for (let k = 0; k < 64; k += 2) {
    const y = f64x2.add(f64x2.mul(v128.load(at(COEF, k)), v128.load(at(ELA_INVERSE, k))), f64x2.splat(0.5));
    const rounded = f64x2.floor(y);
    const fraction = f64x2.sub(y, rounded);
    lowest = f64x2.pmin(lowest, fraction);
    highest = f64x2.pmax(highest, fraction);
    v128.store(at(COEF, k), f64x2.mul(rounded, v128.load(at(ELA_TABLE, k))));
  }
  return nearInteger(lowest, highest);
}

/** to[k] = toSample(from[k]) (the reference's operations). */
function samplesDense(from: usize, to: usize): void {
  for (let k = 0; k < 64; k += 2) v128.store(at(to, k), toSample(v128.load(at(from, k))));
}

/**
 * to[k] = min(255, max(0, floor(from[k] + 128.5))): toSample wherever no value + 128 lies within TIE of a
 * tie; whether one did. In place allowed.
 */
function samplesFast(from: usize, to: usize): bool {
  let lowest = f64x2.splat(1);
  let highest = f64x2.splat(0);
  for (let k = 0; k < 64; k += 2) {
    const y = f64x2.add(v128.load(at(from, k)), f64x2.splat(128.5));
    const rounded = f64x2.floor(y);
    const fraction = f64x2.sub(y, rounded);
    lowest = f64x2.pmin(lowest, fraction);
    highest = f64x2.pmax(highest, fraction);
    v128.store(at(to, k), f64x2.pmin(f64x2.splat(255), f64x2.pmax(f64x2.splat(0), rounded)));
  }
  return nearInteger(lowest, highest);
}

/**
 * 64 samples (integers 0–255 as f64) at `from` as i16 at `to`, eight per step: x + 2^52 holds the integer x
 * in its low 32 bits (exact; cheaper than i32x4.trunc_sat_f64x2_s_zero, which V8 lowers to a long sequence).
 */
function toI16(from: usize, to: usize): void {
  const magic = f64x2.splat(4503599627370496);
  for (let k = 0; k < 64; k += 8) {
    const a = f64x2.add(v128.load(at(from, k)), magic);
    const b = f64x2.add(v128.load(at(from, k + 2)), magic);
    const c = f64x2.add(v128.load(at(from, k + 4)), magic);
    const d = f64x2.add(v128.load(at(from, k + 6)), magic);
    const low = i32x4.shuffle(a, b, 0, 2, 4, 6);
    v128.store(to + <usize>k * 2, i16x8.narrow_i32x4_s(low, i32x4.shuffle(c, d, 0, 2, 4, 6)));
  }
}

/** The sum of the eight i16 lanes of `v` (as i32). */
@inline function laneSum(v: v128): i32 {
  return i32x4Sum(i32x4.extadd_pairwise_i16x8_s(v));
}

@inline function i32x4Sum(v: v128): i32 {
  return i32x4.extract_lane(v, 0) + i32x4.extract_lane(v, 1) + i32x4.extract_lane(v, 2) + i32x4.extract_lane(v, 3);
}

/** The block's samples as i16 (PIXELS) and its recompressed ones (RECOMPRESSED), eight per row vector. */
const PIXELS = memory.data(64 * 2, 16);
const RECOMPRESSED = memory.data(64 * 2, 16);
/** Lanes x = 1…6 of a row (the noise residual's interior). */
const INTERIOR = memory.data<i16>([0, -1, -1, -1, -1, -1, -1, 0]);

/**
 * Writes block `i` of `count` (pixels at PX, 0–255) into the output arrays at `out`:
 * f32 mean, activity, ela, noise (count each), f32 preview (2 rows of count·2), u8 clipped.
 * Every statistic is a sum of integers (pixels, squares, clipped pixels, sample errors, the noise residual
 * in quarters, the preview's quarters), exact in any order: they are summed as i16/i32 eight pixels at a
 * time and turned into the reference's doubles (the same integers) before its divisions.
 */
function measureBlock(i: i32, count: i32, out: usize): void {
  toI16(PX, PIXELS);
  let sums = i16x8.splat(0);
  let squares = i32x4.splat(0);
  let clippedLanes = i16x8.splat(0);
  for (let y = 0; y < 8; y++) {
    const v = v128.load(PIXELS + <usize>y * 16);
    sums = i16x8.add(sums, v);
    squares = i32x4.add(squares, i32x4.dot_i16x8_s(v, v));
    // Comparison masks are −1 per true lane.
    clippedLanes = i16x8.sub(clippedLanes, v128.or(i16x8.le_s(v, i16x8.splat(2)), i16x8.ge_s(v, i16x8.splat(253))));
  }
  for (let k = 0; k < 64; k += 2) v128.store(at(SHIFTED, k), f64x2.sub(v128.load(at(PX, k)), f64x2.splat(128)));
  const sum = <f64>laneSum(sums);
  const sq = <f64>i32x4Sum(squares);
  const clipped = laneSum(clippedLanes);
  const mean = sum / 64;
  const n = <usize>count;
  store<f32>(out + <usize>i * 4, <f32>mean);
  store<f32>(out + (n + <usize>i) * 4, <f32>Math.sqrt(Math.max(0, sq / 64 - mean * mean)));
  fastForwardDct(SHIFTED, COEF, TMP, COS);
  if (quantiseFast()) {
    denseStages++;
    forwardDct(SHIFTED, COEF);
    quantiseDense();
  }
  fastInverseDct(COEF, REC, TMP, COS);
  if (samplesFast(REC, REC)) {
    denseStages++;
    inverseDct(COEF, REC);
    samplesDense(REC, REC);
  }
  toI16(REC, RECOMPRESSED);
  let errors = i16x8.splat(0);
  for (let y = 0; y < 8; y++) {
    const d = i16x8.sub(v128.load(RECOMPRESSED + <usize>y * 16), v128.load(PIXELS + <usize>y * 16));
    errors = i16x8.add(errors, i16x8.abs(d));
  }
  store<f32>(out + (2 * n + <usize>i) * 4, <f32>(<f64>laneSum(errors) / 64));
  // Residual against the 4-neighbour mean on the 6×6 interior, in quarters: |4·px − (left + right + up + down)|
  // (≤ 1020; the reference's |px − around / 4| is a quarter of it, and its f64 sum of quarters is exact).
  let residual = i16x8.splat(0);
  for (let y = 1; y < 7; y++) {
    const row = PIXELS + <usize>y * 16;
    const around = i16x8.add(
      i16x8.add(v128.load(row - 2), v128.load(row + 2)),
      i16x8.add(v128.load(row - 16), v128.load(row + 16)),
    );
    residual = i16x8.add(residual, i16x8.abs(i16x8.sub(i16x8.shl(v128.load(row), 2), around)));
  }
  const res = <f64>laneSum(v128.and(residual, v128.load(INTERIOR))) / 4;
  store<f32>(out + (3 * n + <usize>i) * 4, <f32>(((res / 36) * SQRT_PI_2) / SQRT_1_25));
  const preview = out + 4 * n * 4;
  for (let qy = 0; qy < 2; qy++) {
    const rows = PIXELS + <usize>qy * 64;
    const half = i16x8.add(
      i16x8.add(v128.load(rows), v128.load(rows + 16)),
      i16x8.add(v128.load(rows + 32), v128.load(rows + 48)),
    );
    // Pairs of columns: lanes 0, 1 are the left quarter's, 2, 3 the right one's.
    const pairs = i32x4.extadd_pairwise_i16x8_s(half);
    const left = i32x4.extract_lane(pairs, 0) + i32x4.extract_lane(pairs, 1);
    const right = i32x4.extract_lane(pairs, 2) + i32x4.extract_lane(pairs, 3);
    store<f32>(preview + (<usize>qy * 2 * n + <usize>(i * 2)) * 4, <f32>(<f64>left / 16));
    store<f32>(preview + (<usize>qy * 2 * n + <usize>(i * 2 + 1)) * 4, <f32>(<f64>right / 16));
  }
  store<u8>(out + 8 * n * 4 + <usize>i, clipped > 32 ? 1 : 0);
}

/** Bytes of output for `count` blocks (see measureBlock). */
export function blockOutputBytes(count: i32): i32 {
  return count * 4 * 8 + count;
}

/** block-analysis.ts HISTOGRAM_FREQUENCIES and HISTOGRAM_RANGE: the first AC frequencies' quantised values −60…60. */
const HISTOGRAM_FREQUENCIES = 9;
const HISTOGRAM_RANGE = 60;
const HISTOGRAM_BINS = 2 * HISTOGRAM_RANGE + 1;
/** Natural positions of zig-zag indices 1…9. */
const HISTOGRAM_AT = memory.data<u8>([1, 8, 16, 9, 2, 3, 10, 17, 24]);

/** Bytes of the histograms measureCoefficientRow adds to (HISTOGRAM_FREQUENCIES × HISTOGRAM_BINS i32). */
export function blockHistogramBytes(): i32 {
  return HISTOGRAM_FREQUENCIES * HISTOGRAM_BINS * 4;
}

/** The block's quantised values of the first AC frequencies counted into `histograms`. */
@inline function countFrequencies(q: usize, histograms: usize): void {
  for (let f = 0; f < HISTOGRAM_FREQUENCIES; f++) {
    const v = <i32>load<i16>(q + (<usize>load<u8>(HISTOGRAM_AT + <usize>f) << 1));
    if (v >= -HISTOGRAM_RANGE && v <= HISTOGRAM_RANGE) {
      const bin = histograms + <usize>(f * HISTOGRAM_BINS + v + HISTOGRAM_RANGE) * 4;
      store<i32>(bin, load<i32>(bin) + 1);
    }
  }
}

/**
 * One row of `count` luminance blocks from quantized coefficients (64 i16 each, natural order),
 * dequantised with `table` (64 u16): float IDCT, rounded and clamped samples (block-analysis.ts fromJpeg).
 * The row's counts of the first AC frequencies are added to `histograms` (blockHistogramBytes: the caller's
 * running sums, copied in once for several rows).
 */
export function measureCoefficientRow(count: i32, coefficients: usize, table: usize, out: usize, histograms: usize): void {
  for (let i = 0; i < count; i++) {
    const q = coefficients + <usize>i * 128;
    countFrequencies(q, histograms);
    let largest = i32x4.splat(0);
    for (let k = 0; k < 64; k += 4) {
      // q·table as i32 (exact), then to f64: the reference's dequantised double.
      const product = i32x4.mul(v128.load16x4_s(q + <usize>k * 2), v128.load16x4_u(table + <usize>k * 2));
      largest = i32x4.max_u(largest, i32x4.abs(product));
      v128.store(at(COEF, k), f64x2.convert_low_i32x4_s(product));
      v128.store(at(COEF, k + 2), f64x2.convert_low_i32x4_s(i32x4.shuffle(product, product, 2, 3, 0, 1)));
    }
    const small = i32x4.all_true(i32x4.lt_u(largest, i32x4.splat(<i32>LIMIT)));
    if (small) fastInverseDct(COEF, REC, TMP, COS);
    if (!small || samplesFast(REC, PX)) {
      denseStages++;
      inverseDct(COEF, REC);
      samplesDense(REC, PX);
    }
    measureBlock(i, count, out);
  }
}

/** One row of `count` blocks from 8 lines of samples (bytes, `count`·8 per line) (block-analysis.ts measurePixels). */
export function measurePixelRow(count: i32, lines: usize, out: usize): void {
  const stride = <usize>count * 8;
  for (let i = 0; i < count; i++) {
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 8; x++)
        store<f64>(at(PX, y * 8 + x), <f64>load<u8>(lines + <usize>y * stride + <usize>(i * 8 + x)));
    measureBlock(i, count, out);
  }
}

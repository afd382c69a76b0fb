// The normalised ghost maps of one block row: src/scanner/forensics/ghost-map-reference.ts
// `referenceNormalisedGhosts` is the JavaScript reference. Per position the stored errors of each quality
// are summed over the 3 × 3 window (integers: the reference's float sum of errors / scale is exact, scale
// being a power of two), divided by the window's size as the reference divides its sum, and normalised
// across the qualities to 0–254 with the reference's operations (Math.round rebuilt exactly), two
// qualities per f64x2, so every byte is the reference's.

import { jsRound } from "./block-measure";

/** Positions whose largest average is below this are flat (FLAT). */
const MIN_SPREAD: f64 = 2;
const FLAT: u8 = 255;
const NORMALISED_MAX: f64 = 254;
/** At most this many qualities: one position's bytes at LOCAL, its averages (exactBytes) at AVERAGES. */
const MAX_QUALITIES: i32 = 16;
const LOCAL = memory.data(MAX_QUALITIES + 16, 16);
const AVERAGES = memory.data(MAX_QUALITIES * 8, 16);

/** One more position of quality q holding `value`. */
@inline function tally(counts: usize, q: i32, value: u8): void {
  const at = counts + (<usize>q * 256 + <usize>value) * 4;
  store<i32>(at, load<i32>(at) + 1);
}

/** The window's rows of stored errors summed into `sums` (i32), eight values at a time. */
function columnSums(errors: usize, rows: i32, n: i32, sums: usize): void {
  let k = 0;
  for (; k + 8 <= n; k += 8) {
    let lo = i32x4.splat(0);
    let hi = lo;
    for (let r = 0; r < rows; r++) {
      const v = v128.load(errors + <usize>(r * n + k) * 2);
      lo = i32x4.add(lo, i32x4.extend_low_i16x8_u(v));
      hi = i32x4.add(hi, i32x4.extend_high_i16x8_u(v));
    }
    v128.store(sums + <usize>k * 4, lo);
    v128.store(sums + <usize>k * 4, hi, 16);
  }
  for (; k < n; k++) {
    let s = 0;
    for (let r = 0; r < rows; r++) s += <i32>load<u16>(errors + <usize>(r * n + k) * 2);
    store<i32>(sums + <usize>k * 4, s);
  }
}

/** window[k] = sums[k − stride] + sums[k] + sums[k + stride] where they exist (the columns x − 1..x + 1). */
function rowWindows(sums: usize, n: i32, stride: i32, window: usize): void {
  for (let k = 0; k < n; k++) {
    let s = load<i32>(sums + <usize>k * 4);
    if (k >= stride) s += load<i32>(sums + <usize>(k - stride) * 4);
    if (k + stride < n) s += load<i32>(sums + <usize>(k + stride) * 4);
    store<i32>(window + <usize>k * 4, s);
    // Interior positions four at a time.
    if (k >= stride && k + 4 + stride <= n) {
      const last = n - stride;
      let j = k + 1;
      for (; j + 4 <= last; j += 4) {
        const at = sums + <usize>j * 4;
        const v = i32x4.add(v128.load(at), i32x4.add(v128.load(at - <usize>stride * 4), v128.load(at + <usize>stride * 4)));
        v128.store(window + <usize>j * 4, v);
      }
      k = j - 1;
    }
  }
}

/**
 * One block row of the maps: the window's `rows` (1–3) block rows of errors among the `slots` rows at `errors`
 * (each `width` × `qualities` u16, position-major; the caller's ring of rows, in any order: the other slots hold
 * zeros, so that summing all slots sums the window's rows), `scale` their unit. Scratch: `sums` and `window`
 * (width × qualities i32 each, `window` 16 bytes more). Out: `qualities` rows of `width` bytes from `out`,
 * `stride` bytes apart (the row of quality q's map at out + q · stride: the caller's band of rows per quality) and, per quality, the row's positions added to the count of
 * each byte value (256 i32 per quality at `counts`, cleared first when `clear`: the caller keeps them
 * there over all rows).
 */
export function ghostNormalisedRow(
  errors: usize,
  slots: i32,
  rows: i32,
  width: i32,
  qualities: i32,
  scale: f64,
  sums: usize,
  window: usize,
  out: usize,
  stride: i32,
  counts: usize,
  clear: bool,
): void {
  const n = width * qualities;
  if (clear) memory.fill(counts, 0, <usize>qualities * 1024);
  columnSums(errors, slots, n, sums);
  rowWindows(sums, n, qualities, window);
  // s / scale is exact (a power of two), and so is s · (1 / scale): the same value, without a division.
  const unit = 1 / scale;
  for (let x = 0; x < width; x++) {
    const count = <f64>((min(width - 1, x + 1) - max(0, x - 1) + 1) * rows);
    const at = window + <usize>(x * qualities) * 4;
    // The lowest and highest sum, four qualities per step, the rest one by one.
    let low4 = i32x4.splat(i32.MAX_VALUE);
    let high4 = i32x4.splat(i32.MIN_VALUE);
    let q = 0;
    for (; q + 4 <= qualities; q += 4) {
      const v = v128.load(at + <usize>q * 4);
      low4 = i32x4.min_s(low4, v);
      high4 = i32x4.max_s(high4, v);
    }
    low4 = i32x4.min_s(low4, v128.shuffle<i32>(low4, low4, 2, 3, 0, 1));
    high4 = i32x4.max_s(high4, v128.shuffle<i32>(high4, high4, 2, 3, 0, 1));
    let lo = min(i32x4.extract_lane(low4, 0), i32x4.extract_lane(low4, 1));
    let hi = max(i32x4.extract_lane(high4, 0), i32x4.extract_lane(high4, 1));
    for (; q < qualities; q++) {
      const sum = load<i32>(at + <usize>q * 4);
      lo = min(lo, sum);
      hi = max(hi, sum);
    }
    const row = out + <usize>x;
    // The reference's largest average: the averages' order is the sums' (each is the sum's one rounding, monotonic).
    if ((<f64>hi * unit) / count < MIN_SPREAD) {
      for (let q = 0; q < qualities; q++) {
        store<u8>(row + <usize>(q * stride), FLAT);
        tally(counts, q, FLAT);
      }
      continue;
    }
    if (!fastBytes(at, qualities, lo, hi)) exactBytes(at, qualities, unit, count);
    // Pointers stepped per quality (no index arithmetic per byte: 13 of them per position).
    let to = row;
    let bins = counts;
    for (let at = LOCAL; at < LOCAL + <usize>qualities; at++) {
      const value = load<u8>(at);
      store<u8>(to, value);
      const bin = bins + (<usize>value << 2);
      store<i32>(bin, load<i32>(bin) + 1);
      to += <usize>stride;
      bins += 1024;
    }
  }
}

/** Values this close to a half (or closer) take exactBytes: see fastBytes. */
const TIE_MARGIN: f32 = 1.0 / 8192;
/** 2²³: t + 2²³ rounds t (0–254) to an integer, held in the low bits of the float. */
const ROUNDER = f32x4.splat(8388608);
const NEAR_HALF = f32x4.splat(0.5 - TIE_MARGIN);
const LANES = i32x4(0, 1, 2, 3);

/**
 * The normalised bytes of one position (its `qualities` window sums at `at`, lowest `lo`, highest `hi` > lo
 * or equal) into LOCAL, from the sums, four qualities per f32x4: 254 · (s − lo) / (hi − lo) is the
 * reference's 254 · (v − low) / (high − low) without its roundings (v = s / scale / count for every quality
 * alike). Here s − lo (< 2²⁴) is exact as f32 and the product t with 254 / (hi − lo) (rounded to f32) has two
 * f32 roundings: within 254 · 2⁻²³ ≈ 3.1 · 10⁻⁵ of the exact value. t + 2²³ is t rounded to the nearest
 * integer (its byte: the float's low byte), and t's distance to it is exact. The reference's value, from its
 * averages (each within a relative 2⁻⁵³ of s / scale / count, s ≤ 9 · 65 535), is within 10⁻⁷ / (hi − lo) +
 * 10⁻¹³ of the exact one. So where t is ≥ TIE_MARGIN (2⁻¹³ ≈ 1.2 · 10⁻⁴) from a half, all three lie between
 * the same two halves and round alike (and rounding to even is Math.round's rounding there); false is
 * returned (LOCAL unfinished) when one is closer (exact halves happen: a ramp of errors gives 63.5). Equal
 * sums: 0 / 0, NaN, which a Uint8Array stores as 0. Lanes past the last quality (the next position's sums, or
 * the window's 16 spare bytes) are computed and left out of the test; their bytes land in LOCAL's spare bytes.
 */
function fastBytes(at: usize, qualities: i32, lo: i32, hi: i32): bool {
  if (hi == lo) {
    memory.fill(LOCAL, 0, <usize>qualities);
    return true;
  }
  const perSum = f32x4.splat(<f32>(NORMALISED_MAX / <f64>(hi - lo)));
  const lowest = i32x4.splat(lo);
  let near = i32x4.splat(0);
  for (let q = 0; q < qualities; q += 4) {
    const t = f32x4.mul(f32x4.convert_i32x4_s(i32x4.sub(v128.load(at + <usize>q * 4), lowest)), perSum);
    const rounded = f32x4.add(t, ROUNDER);
    const close = f32x4.gt(f32x4.abs(f32x4.sub(t, f32x4.sub(rounded, ROUNDER))), NEAR_HALF);
    near = v128.or(near, v128.and(close, i32x4.lt_s(LANES, i32x4.splat(qualities - q))));
    const bytes = i8x16.shuffle(rounded, rounded, 0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    v128.store32_lane(LOCAL + <usize>q, bytes, 0);
  }
  return !v128.any_true(near);
}

/** The reference's operations for one position's bytes into LOCAL, two qualities per f64x2 (averages in AVERAGES). */
function exactBytes(at: usize, qualities: i32, unit: f64, count: f64): void {
  const pairs = (qualities + 1) >> 1;
  const scaled = f64x2.splat(unit);
  const divisor = f64x2.splat(count);
  let lo = f64x2.splat(Infinity);
  let hi = f64x2.splat(-Infinity);
  for (let p = 0; p < pairs; p++) {
    let v = f64x2.div(f64x2.mul(f64x2.convert_low_i32x4_s(v128.load64_zero(at + <usize>p * 8)), scaled), divisor);
    // An odd last quality: its lane twice (the other lane is the next position's).
    if (2 * p + 1 == qualities) v = f64x2.splat(f64x2.extract_lane(v, 0));
    v128.store(AVERAGES + <usize>p * 16, v);
    lo = f64x2.pmin(lo, v);
    hi = f64x2.pmax(hi, v);
  }
  // pmin/pmax, here and above (one instruction each; min/max are NaN- and zero-sign-safe sequences in V8): the values
  // are ≥ +0 and never NaN, where both give the same value.
  const low = f64x2.extract_lane(f64x2.pmin(lo, i64x2.shuffle(lo, lo, 1, 0)), 0);
  const high = f64x2.extract_lane(f64x2.pmax(hi, i64x2.shuffle(hi, hi, 1, 0)), 0);
  const from = f64x2.splat(low);
  const range = f64x2.splat(high - low);
  for (let p = 0; p < pairs; p++) {
    const v = v128.load(AVERAGES + <usize>p * 16);
    const r = jsRound(f64x2.div(f64x2.mul(f64x2.splat(NORMALISED_MAX), f64x2.sub(v, from)), range));
    // 0 / 0 (every quality alike) is NaN, which a Uint8Array stores as 0. The integers 0–254 as i32: + 2^52
    // leaves each in its lane's low 32 bits (i32 lanes 0 and 2; trunc_sat is a long sequence in V8).
    const bytes = f64x2.add(v128.and(r, f64x2.eq(r, r)), f64x2.splat(4503599627370496));
    store<u8>(LOCAL + <usize>(2 * p), <u8>i32x4.extract_lane(bytes, 0));
    store<u8>(LOCAL + <usize>(2 * p), <u8>i32x4.extract_lane(bytes, 2), 1);
  }
}

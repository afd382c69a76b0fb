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
/** At most this many qualities (pairs of averages at LOCAL). */
const MAX_QUALITIES: i32 = 16;
const LOCAL = memory.data(MAX_QUALITIES * 8, 16);

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
 * One block row of the maps: `rows` (1–3) block rows of errors at `errors` (the window's rows, each
 * `width` × `qualities` u16, position-major), `scale` their unit. Scratch: `sums` and `window`
 * (width × qualities i32 each, `window` 16 bytes more). Out: `qualities` planes of `width` bytes at `out`
 * (plane q = the row of quality q's map) and, per quality, the row's positions added to the count of
 * each byte value (256 i32 per quality at `counts`, cleared first when `clear`: the caller keeps them
 * there over all rows).
 */
export function ghostNormalisedRow(
  errors: usize,
  rows: i32,
  width: i32,
  qualities: i32,
  scale: f64,
  sums: usize,
  window: usize,
  out: usize,
  counts: usize,
  clear: bool,
): void {
  const n = width * qualities;
  if (clear) memory.fill(counts, 0, <usize>qualities * 1024);
  columnSums(errors, rows, n, sums);
  rowWindows(sums, n, qualities, window);
  // s / scale is exact (a power of two), and so is s · (1 / scale): the same value, without a division.
  const unit = f64x2.splat(1 / scale);
  const pairs = (qualities + 1) >> 1;
  for (let x = 0; x < width; x++) {
    const count = f64x2.splat(<f64>((min(width - 1, x + 1) - max(0, x - 1) + 1) * rows));
    let lo = f64x2.splat(Infinity);
    let hi = f64x2.splat(-Infinity);
    const at = window + <usize>(x * qualities) * 4;
    for (let p = 0; p < pairs; p++) {
      let v = f64x2.div(f64x2.mul(f64x2.convert_low_i32x4_s(v128.load64_zero(at + <usize>p * 8)), unit), count);
      // An odd last quality: its lane twice (the other lane is the next position's).
      if (2 * p + 1 == qualities) v = f64x2.splat(f64x2.extract_lane(v, 0));
      v128.store(LOCAL + <usize>p * 16, v);
      lo = f64x2.pmin(lo, v);
      hi = f64x2.pmax(hi, v);
    }
    // pmin/pmax, here and above (one instruction each; min/max are NaN- and zero-sign-safe sequences in V8): the values
    // are ≥ +0 and never NaN, where both give the same value.
    const low = f64x2.extract_lane(f64x2.pmin(lo, i64x2.shuffle(lo, lo, 1, 0)), 0);
    const high = f64x2.extract_lane(f64x2.pmax(hi, i64x2.shuffle(hi, hi, 1, 0)), 0);
    const row = out + <usize>x;
    if (high < MIN_SPREAD) {
      for (let q = 0; q < qualities; q++) {
        store<u8>(row + <usize>(q * width), FLAT);
        tally(counts, q, FLAT);
      }
      continue;
    }
    const from = f64x2.splat(low);
    const range = f64x2.splat(high - low);
    for (let p = 0; p < pairs; p++) {
      const v = v128.load(LOCAL + <usize>p * 16);
      const r = jsRound(f64x2.div(f64x2.mul(f64x2.splat(NORMALISED_MAX), f64x2.sub(v, from)), range));
      // 0 / 0 (every quality alike) is NaN, which a Uint8Array stores as 0. The integers 0–254 as i32: + 2^52
      // leaves each in its lane's low 32 bits (i32 lanes 0 and 2; trunc_sat is a long sequence in V8).
      const bytes = f64x2.add(v128.and(r, f64x2.eq(r, r)), f64x2.splat(4503599627370496));
      const first = <u8>i32x4.extract_lane(bytes, 0);
      store<u8>(row + <usize>(2 * p * width), first);
      tally(counts, 2 * p, first);
      if (2 * p + 1 < qualities) {
        const second = <u8>i32x4.extract_lane(bytes, 2);
        store<u8>(row + <usize>((2 * p + 1) * width), second);
        tally(counts, 2 * p + 1, second);
      }
    }
  }
}

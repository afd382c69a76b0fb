// Per-block statistics of the localised JPEG detectors (double quantisation, JPEG ghosts):
// src/scanner/forensics/jpeg-dct-blocks.ts `statisticsSink` is the JavaScript reference. Per luminance
// block: the first AC frequencies in zig-zag order and their histograms, the darkest and brightest
// pixel of the block's integer IDCT (jpeg-idct.ts, the reference's idctBlockToBytes), and the mean
// squared error of re-quantising the block at each ghost quality. The ghost errors are f64 sums over
// the block's non-zero coefficients in natural order, two qualities per f64x2 lane pair, with the
// reference's operations in its order (Math.round rebuilt exactly), so every stored value is the
// reference's.

import { jsRound } from "./block-measure";
import { idctBlock } from "./jpeg-idct";

const FREQUENCIES: i32 = 20;
const RANGE: i32 = 64;
const BINS: i32 = 2 * RANGE + 1;
const QUALITIES: i32 = 13;
/** Qualities per position, padded to two passes of four f64x2 (the padding lanes have step 1 and are not stored). */
const PADDED: i32 = 16;
const POSITION_BYTES: usize = <usize>PADDED * 8;

/** Ghost steps and their inverses by natural position: STEPS[k * PADDED + q] (the caller's tables). */
const STEPS = memory.data(64 * 16 * 8, 16);
const INVERSE = memory.data(64 * 16 * 8, 16);
/** Natural position of zig-zag index f + 1, f < FREQUENCIES. */
const ZIGZAG = memory.data(32, 16);

const PIXELS = memory.data(64, 16);
/** The block's non-zero coefficients: byte offset of their position's row in STEPS, dequantised value. */
const POSITIONS = memory.data(64 * 4, 16);
const VALUES = memory.data(64 * 8, 16);

/**
 * Copies the caller's tables in: `steps` and `inverse` QUALITIES × 64 f64 (quality-major, natural order),
 * `zigzag` FREQUENCIES u8.
 */
export function setDctStatisticsConstants(steps: usize, inverse: usize, zigzag: usize): void {
  for (let k = 0; k < 64; k++)
    for (let q = 0; q < PADDED; q++) {
      const from = <usize>(q * 64 + k) * 8;
      const to = <usize>k * POSITION_BYTES + <usize>q * 8;
      store<f64>(STEPS + to, q < QUALITIES ? load<f64>(steps + from) : 1);
      store<f64>(INVERSE + to, q < QUALITIES ? load<f64>(inverse + from) : 1);
    }
  memory.copy(ZIGZAG, zigzag, FREQUENCIES);
}

/** (c − step·round(c / step))² for the qualities of lane pair `pair`. */
@inline function squaredError(c: v128, row: usize, pair: usize): v128 {
  const step = v128.load(STEPS + row + pair * 16);
  const d = f64x2.sub(c, f64x2.mul(step, jsRound(f64x2.mul(c, v128.load(INVERSE + row + pair * 16)))));
  return f64x2.mul(d, d);
}

/** min(65535, Math.round((e / 64) · 16)): the stored ghost error. */
@inline function stored(e: f64): u16 {
  const x = (e / 64) * 16;
  const c = Math.ceil(x);
  return <u16>min<f64>(65535, c - 0.5 > x ? c - 1 : c);
}

@inline function storePair(e: v128, out: usize, pair: i32): void {
  if (pair * 2 < QUALITIES) store<u16>(out + <usize>pair * 4, stored(f64x2.extract_lane(e, 0)));
  if (pair * 2 + 1 < QUALITIES) store<u16>(out + <usize>pair * 4 + 2, stored(f64x2.extract_lane(e, 1)));
}

/** The QUALITIES ghost errors (u16 at `out`) of the block at `q` (64 i16) dequantised with `table`. */
function ghostErrors(q: usize, table: usize, out: usize): void {
  let n = 0;
  // Written at the next place whether zero or not (no jump on the data); only non-zero ones advance it.
  for (let k = 0; k < 64; k++) {
    const v = load<i16>(q + <usize>k * 2);
    store<i32>(POSITIONS + <usize>n * 4, k * <i32>POSITION_BYTES);
    store<f64>(VALUES + <usize>n * 8, <f64>v * <f64>load<u16>(table + <usize>k * 2));
    n += <i32>(v != 0);
  }
  // Per lane, the reference's sum over the non-zero coefficients in their order; four lane pairs at a
  // time (independent sums keep the processor busy while each addition waits for the previous one).
  for (let pair = 0; pair < PADDED / 2; pair += 4) {
    let e0 = f64x2.splat(0);
    let e1 = e0;
    let e2 = e0;
    let e3 = e0;
    for (let j = 0; j < n; j++) {
      const c = f64x2.splat(load<f64>(VALUES + <usize>j * 8));
      const row = <usize>load<i32>(POSITIONS + <usize>j * 4);
      e0 = f64x2.add(e0, squaredError(c, row, <usize>pair));
      e1 = f64x2.add(e1, squaredError(c, row, <usize>pair + 1));
      e2 = f64x2.add(e2, squaredError(c, row, <usize>pair + 2));
      e3 = f64x2.add(e3, squaredError(c, row, <usize>pair + 3));
    }
    storePair(e0, out, pair);
    storePair(e1, out, pair + 1);
    storePair(e2, out, pair + 2);
    storePair(e3, out, pair + 3);
  }
}

@inline function pick(a: v128, b: v128, largest: bool): v128 {
  return largest ? i8x16.max_u(a, b) : i8x16.min_u(a, b);
}

/** The largest (or smallest) of the 16 u8 lanes of `v`. */
@inline function fold(v: v128, largest: bool): u8 {
  v = pick(v, i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7), largest);
  v = pick(v, i8x16.shuffle(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3), largest);
  v = pick(v, i8x16.shuffle(v, v, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1), largest);
  v = pick(v, i8x16.shuffle(v, v, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0), largest);
  return <u8>i8x16.extract_lane_u(v, 0);
}

/**
 * `count` blocks (64 i16 each, natural order, from `coefficients`; luminance table `table`, 64 u16):
 * FREQUENCIES i16 per block at `frequencies`, QUALITIES u16 per block at `ghost`, one u8 per block at
 * `low` and `high`; `histograms` (FREQUENCIES × BINS i32) gets this call's counts (cleared first).
 */
export function dctStatisticsRow(
  count: i32,
  coefficients: usize,
  table: usize,
  frequencies: usize,
  ghost: usize,
  low: usize,
  high: usize,
  histograms: usize,
): void {
  memory.fill(histograms, 0, <usize>(FREQUENCIES * BINS * 4));
  for (let i = 0; i < count; i++) {
    const q = coefficients + <usize>i * 128;
    for (let f = 0; f < FREQUENCIES; f++) {
      const v = <i32>load<i16>(q + (<usize>load<u8>(ZIGZAG + <usize>f) << 1));
      store<i16>(frequencies + <usize>(i * FREQUENCIES + f) * 2, <i16>v);
      if (v >= -RANGE && v <= RANGE) {
        const bin = histograms + <usize>(f * BINS + v + RANGE) * 4;
        store<i32>(bin, load<i32>(bin) + 1);
      }
    }
    idctBlock(q, table, PIXELS, 8);
    const a = v128.load(PIXELS);
    const b = v128.load(PIXELS, 16);
    const c = v128.load(PIXELS, 32);
    const d = v128.load(PIXELS, 48);
    store<u8>(low + <usize>i, fold(i8x16.min_u(i8x16.min_u(a, b), i8x16.min_u(c, d)), false));
    store<u8>(high + <usize>i, fold(i8x16.max_u(i8x16.max_u(a, b), i8x16.max_u(c, d)), true));
    ghostErrors(q, table, ghost + <usize>(i * QUALITIES) * 2);
  }
}

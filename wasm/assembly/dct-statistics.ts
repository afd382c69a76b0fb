// Per-block statistics of the localised JPEG detectors (double quantisation, JPEG ghosts):
// src/scanner/forensics/jpeg-dct-blocks.ts `statisticsSink` is the JavaScript reference. Per luminance
// block: the first AC frequencies in zig-zag order and their histograms, the darkest and brightest
// pixel of the block's integer IDCT (the caller's samples: luma-rows.ts, the reference's idctBlockToBytes,
// computed once per block for jpeg-grid too), and the mean
// squared error of re-quantising the block at each ghost quality. Each squared error is an integer (looked
// up, or computed by the reference's operations, Math.round rebuilt exactly), so the reference's f64 sum
// over the block is the kernel's integer sum, and its stored value min(65535, Math.round(e / 4)) is
// (e + 2) >> 2 saturated: every stored value is the reference's.

import { jsRound } from "./block-measure";

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

/**
 * Quantised values −LOOKUP..LOOKUP have their squared errors looked up: per position k and value v, the
 * PADDED errors (c − step·round(c / step))² of c = v · table[k] as u16 (integers ≤ 127², exact), built
 * by the reference's operations for the luminance table at BUILT_FOR. Every error is an integer, so
 * their sums are exact in any order: the reference's f64 sums over the block.
 */
const LOOKUP: i32 = 64;
const VALUES_PER_POSITION: i32 = 2 * LOOKUP + 1;
const SQUARED = memory.data(64 * (2 * 64 + 1) * 16 * 2, 16);
/**
 * The DC coefficient (position 0, non-zero in nearly every block) has a range of its own, −DC_LOOKUP..DC_LOOKUP:
 * a photo's quantised DC values lie far beyond ±LOOKUP after a fine save (a step of 2–3 at quality ≈ 92).
 */
const DC_LOOKUP: i32 = 1024;
const DC_SQUARED = memory.data((2 * 1024 + 1) * 16 * 2, 16);
const BUILT_FOR = memory.data(128, 16);
let built = false;
/** Per lane (quality), the block's summed squared errors: i32 from the lookups, f64 from the others. */
const LOOKED_UP = memory.data(16 * 4, 16);
const COMPUTED = memory.data(16 * 8, 16);

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
  built = false;
}

/** (c − step·round(c / step))² for the qualities of lane pair `pair`. */
@inline function squaredError(c: v128, row: usize, pair: usize): v128 {
  const step = v128.load(STEPS + row + pair * 16);
  const d = f64x2.sub(c, f64x2.mul(step, jsRound(f64x2.mul(c, v128.load(INVERSE + row + pair * 16)))));
  return f64x2.mul(d, d);
}

/** The PADDED squared errors (u16 at `out`) of coefficient value v at position k with the luminance table's step. */
@inline function storeErrors(k: i32, v: i32, step: f64, out: usize): void {
  const c = f64x2.splat(<f64>v * step);
  const row = <usize>k * POSITION_BYTES;
  for (let pair = 0; pair < PADDED / 2; pair++) {
    const e = squaredError(c, row, <usize>pair);
    store<u16>(out + <usize>pair * 4, <u16>f64x2.extract_lane(e, 0));
    store<u16>(out + <usize>pair * 4 + 2, <u16>f64x2.extract_lane(e, 1));
  }
}

/** The squared errors of every looked-up value at every position for the luminance table `table` (64 u16). */
function buildSquared(table: usize): void {
  for (let k = 0; k < 64; k++) {
    const step = <f64>load<u16>(table + <usize>k * 2);
    for (let v = -LOOKUP; v <= LOOKUP; v++)
      storeErrors(k, v, step, SQUARED + <usize>(k * VALUES_PER_POSITION + v + LOOKUP) * 32);
  }
  const dcStep = <f64>load<u16>(table);
  for (let v = -DC_LOOKUP; v <= DC_LOOKUP; v++) storeErrors(0, v, dcStep, DC_SQUARED + <usize>(v + DC_LOOKUP) * 32);
  memory.copy(BUILT_FOR, table, 128);
  built = true;
}

/** Whether the squared errors were built for `table` (a file's luminance table; files may take turns). */
function builtFor(table: usize): bool {
  if (!built) return false;
  let same = v128.and(i16x8.eq(v128.load(table), v128.load(BUILT_FOR)), v128.splat<i32>(-1));
  for (let at: usize = 16; at < 128; at += 16) same = v128.and(same, i16x8.eq(v128.load(table + at), v128.load(BUILT_FOR + at)));
  return i8x16.all_true(same);
}

/** The coefficient at position k with value v (beyond the lookup): its squared errors added to COMPUTED. */
function addComputed(k: i32, v: i32, table: usize): void {
  const c = f64x2.splat(<f64>v * <f64>load<u16>(table + <usize>k * 2));
  const row = <usize>k * POSITION_BYTES;
  for (let pair = 0; pair < PADDED / 2; pair++) {
    const at = COMPUTED + <usize>pair * 16;
    v128.store(at, f64x2.add(v128.load(at), squaredError(c, row, <usize>pair)));
  }
}

/** The block's squared errors (16 lanes) so far: i32 from the lookups, f64 at COMPUTED from the others. */
let e0 = i32x4.splat(0);
let e1 = e0;
let e2 = e0;
let e3 = e0;
let computed = false;

/**
 * The address of the looked-up squared errors (16 u16) of coefficient k with value v; beyond the lookup its
 * errors are added to COMPUTED instead, and ZERO_ERRORS is returned.
 */
@inline function lookUp(k: i32, v: i32, table: usize): usize {
  if (k == 0 && v >= -DC_LOOKUP && v <= DC_LOOKUP) return DC_SQUARED + <usize>(v + DC_LOOKUP) * 32;
  if (v < -LOOKUP || v > LOOKUP) {
    if (!computed) memory.fill(COMPUTED, 0, 16 * 8);
    computed = true;
    addComputed(k, v, table);
    return ZERO_ERRORS;
  }
  return SQUARED + <usize>(k * VALUES_PER_POSITION + v + LOOKUP) * 32;
}

/** 16 u16 zeros: the lookup of a coefficient whose errors are computed instead. */
const ZERO_ERRORS = memory.data(32, 16);

/** The 16 u16 squared errors at `a` and at `b` (each ≤ 127², so their sum fits a u16) into the block's i32 sums. */
@inline function addErrorPair(a: usize, b: usize): void {
  const low = i16x8.add(v128.load(a), v128.load(b));
  const high = i16x8.add(v128.load(a, 16), v128.load(b, 16));
  e0 = i32x4.add(e0, i32x4.extend_low_i16x8_u(low));
  e1 = i32x4.add(e1, i32x4.extend_high_i16x8_u(low));
  e2 = i32x4.add(e2, i32x4.extend_low_i16x8_u(high));
  e3 = i32x4.add(e3, i32x4.extend_high_i16x8_u(high));
}

/**
 * The QUALITIES ghost errors (u16 at `out`) of the block at `q` (64 i16) dequantised with `table`: the
 * non-zero coefficients found by one 64-bit mask (one loop, whose end is the only hard-to-predict
 * branch), taken two at a time (their u16 errors added before widening; the sums are integers, exact in
 * any order).
 */
function ghostErrors(q: usize, table: usize, out: usize): void {
  e0 = i32x4.splat(0);
  e1 = e0;
  e2 = e0;
  e3 = e0;
  computed = false;
  let mask: u64 = 0;
  for (let g = 0; g < 8; g++)
    mask |= <u64>i16x8.bitmask(i16x8.ne(v128.load(q + <usize>g * 16), i16x8.splat(0))) << (<u64>g * 8);
  while (mask) {
    const k = <i32>ctz(mask);
    mask &= mask - 1;
    const a = lookUp(k, <i32>load<i16>(q + <usize>k * 2), table);
    if (!mask) {
      addErrorPair(a, ZERO_ERRORS);
      break;
    }
    const j = <i32>ctz(mask);
    mask &= mask - 1;
    addErrorPair(a, lookUp(j, <i32>load<i16>(q + <usize>j * 2), table));
  }
  if (computed) {
    // The computed errors are integers too (≤ 64 · 127² in all): their f64 sums convert exactly.
    v128.store(LOOKED_UP, e0);
    v128.store(LOOKED_UP, e1, 16);
    v128.store(LOOKED_UP, e2, 32);
    v128.store(LOOKED_UP, e3, 48);
    for (let i = 0; i < QUALITIES; i++) {
      const at = LOOKED_UP + <usize>i * 4;
      store<i32>(at, load<i32>(at) + <i32>load<f64>(COMPUTED + <usize>i * 8));
    }
    e0 = v128.load(LOOKED_UP);
    e1 = v128.load(LOOKED_UP, 16);
    e2 = v128.load(LOOKED_UP, 32);
    e3 = v128.load(LOOKED_UP, 48);
  }
  // The stored error min(65535, Math.round((e / 64) · 16)): (e / 64) · 16 is e / 4 exactly, and for an
  // integer e ≥ 0 Math.round(e / 4) (halves up) is (e + 2) >> 2; the unsigned narrowing saturates at 65535.
  const two = i32x4.splat(2);
  const first = i16x8.narrow_i32x4_u(i32x4.shr_s(i32x4.add(e0, two), 2), i32x4.shr_s(i32x4.add(e1, two), 2));
  const second = i16x8.narrow_i32x4_u(i32x4.shr_s(i32x4.add(e2, two), 2), i32x4.shr_s(i32x4.add(e3, two), 2));
  // QUALITIES = 13: eight, then four and one (the block's slot ends there).
  v128.store(out, first);
  v128.store64_lane(out, second, 0, 16);
  v128.store16_lane(out, second, 4, 24);
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
 * `count` blocks (64 i16 each, natural order, from `coefficients`; luminance table `table`, 64 u16; their
 * samples at `samples`, 8 lines of count × 8 bytes): FREQUENCIES i16 per block at `frequencies`,
 * QUALITIES u16 per block at `ghost`, one u8 per block at `low` and `high`; this call's counts are added to
 * `histograms` (FREQUENCIES × BINS i32: the caller's running sums, copied in once for several rows).
 */
export function dctStatisticsRow(
  count: i32,
  coefficients: usize,
  samples: usize,
  table: usize,
  frequencies: usize,
  ghost: usize,
  low: usize,
  high: usize,
  histograms: usize,
): void {
  if (!builtFor(table)) buildSquared(table);
  const stride = <usize>count * 8;
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
    // The block's 8 lines, two per vector.
    const line = samples + <usize>i * 8;
    const a = v128.load64_lane(line + stride, v128.load64_zero(line), 1);
    const b = v128.load64_lane(line + 3 * stride, v128.load64_zero(line + 2 * stride), 1);
    const c = v128.load64_lane(line + 5 * stride, v128.load64_zero(line + 4 * stride), 1);
    const d = v128.load64_lane(line + 7 * stride, v128.load64_zero(line + 6 * stride), 1);
    store<u8>(low + <usize>i, fold(i8x16.min_u(i8x16.min_u(a, b), i8x16.min_u(c, d)), false));
    store<u8>(high + <usize>i, fold(i8x16.max_u(i8x16.max_u(a, b), i8x16.max_u(c, d)), true));
    ghostErrors(q, table, ghost + <usize>(i * QUALITIES) * 2);
  }
}

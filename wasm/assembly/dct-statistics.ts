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

/**
 * The squared errors of every looked-up value at every position for the luminance table `table` (64 u16), built once
 * per table (a file's; ≈ 0.3 ms when it changes, half of it since the errors of −v are copied from v's). They are
 * equal: c · (1 / q) (q a ghost step) is negated exactly, so away from a tie Math.round(−x) = −Math.round(x) and the
 * error is negated; c / q lies ≥ 1 / (2q) from a tie unless it is one, far beyond the product's rounding, and at a tie
 * both errors are −q / 2.
 */
function buildSquared(table: usize): void {
  for (let k = 0; k < 64; k++) {
    const step = <f64>load<u16>(table + <usize>k * 2);
    const zero = SQUARED + <usize>(k * VALUES_PER_POSITION + LOOKUP) * 32;
    for (let v = 0; v <= LOOKUP; v++) storeErrors(k, v, step, zero + <usize>v * 32);
    for (let v = 1; v <= LOOKUP; v++) memory.copy(zero - <usize>v * 32, zero + <usize>v * 32, 32);
  }
  const dcStep = <f64>load<u16>(table);
  const dcZero = DC_SQUARED + <usize>DC_LOOKUP * 32;
  for (let v = 0; v <= DC_LOOKUP; v++) storeErrors(0, v, dcStep, dcZero + <usize>v * 32);
  for (let v = 1; v <= DC_LOOKUP; v++) memory.copy(dcZero - <usize>v * 32, dcZero + <usize>v * 32, 32);
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

/** 16 u16 zeros: the errors of a block without a DC coefficient, before its first AC coefficients. */
const ZERO_ERRORS = memory.data(32, 16);

/** Per position k, k · VALUES_PER_POSITION + LOOKUP (64 u16): a value's lookup index less the value. */
const INDEX_BASE = memory.data<u16>([
  64, 193, 322, 451, 580, 709, 838, 967, 1096, 1225, 1354, 1483, 1612, 1741, 1870, 1999,
  2128, 2257, 2386, 2515, 2644, 2773, 2902, 3031, 3160, 3289, 3418, 3547, 3676, 3805, 3934, 4063,
  4192, 4321, 4450, 4579, 4708, 4837, 4966, 5095, 5224, 5353, 5482, 5611, 5740, 5869, 5998, 6127,
  6256, 6385, 6514, 6643, 6772, 6901, 7030, 7159, 7288, 7417, 7546, 7675, 7804, 7933, 8062, 8191,
], 16);
/** The block's lookup indices (64 u16; those of values beyond the lookups are not read). */
const INDEX = memory.data(128, 16);

/** The address of AC coefficient k's 16 u16 errors (its value within ±LOOKUP): from its index. */
@inline function nextAc(mask: u64): usize {
  return SQUARED + (<usize>load<u16>(INDEX + (<usize>ctz(mask) << 1)) << 5);
}

/**
 * The QUALITIES ghost errors (u16 at `out`) of the block at `q` (64 i16) dequantised with `table`: the
 * non-zero coefficients within the lookups and those beyond found by two 64-bit masks (eight vector compares),
 * the DC coefficient first, then the AC coefficients looked up three at a time (one loop, whose end is the
 * only hard-to-predict branch, and no range check per coefficient): their u16 errors (each ≤ 127², so four
 * sum to ≤ 64 516) added before widening to the block's i32 sums, which stay in locals; the few beyond the
 * lookups computed after them (the sums are integers, exact in any order).
 */
function ghostErrors(q: usize, table: usize, out: usize): void {
  // Per 16 coefficients one bitmask of each kind (the i16 compares narrowed to bytes); each lookup's index
  // (k · VALUES_PER_POSITION + v + LOOKUP, wrapping beyond the lookups: those are not looked up) into INDEX.
  let mask: u64 = 0;
  let beyond: u64 = 0;
  for (let g = 0; g < 4; g++) {
    const at = q + <usize>g * 32;
    const a = v128.load(at);
    const b = v128.load(at, 16);
    const nonZero = i8x16.narrow_i16x8_s(i16x8.ne(a, i16x8.splat(0)), i16x8.ne(b, i16x8.splat(0)));
    mask |= <u64>i8x16.bitmask(nonZero) << (<u64>g * 16);
    // |v| > LOOKUP: v + LOOKUP beyond 2 · LOOKUP as u16 (wrapping: every i16 outside ±LOOKUP lands there).
    const range = i16x8.splat(<i16>(2 * LOOKUP));
    const outside = i8x16.narrow_i16x8_s(
      i16x8.gt_u(i16x8.add(a, i16x8.splat(<i16>LOOKUP)), range),
      i16x8.gt_u(i16x8.add(b, i16x8.splat(<i16>LOOKUP)), range),
    );
    beyond |= <u64>i8x16.bitmask(outside) << (<u64>g * 16);
    v128.store(INDEX + <usize>g * 32, i16x8.add(a, v128.load(INDEX_BASE + <usize>g * 32)));
    v128.store(INDEX + <usize>g * 32, i16x8.add(b, v128.load(INDEX_BASE + <usize>g * 32, 16)), 16);
  }
  const dc = <i32>load<i16>(q);
  // The DC coefficient has a range of its own.
  beyond = (beyond & ~(<u64>1)) | <u64>(<u32>(dc + DC_LOOKUP) > <u32>(2 * DC_LOOKUP));
  mask &= ~beyond;
  let e0 = i32x4.splat(0);
  let e1 = e0;
  let e2 = e0;
  let e3 = e0;
  // The DC coefficient's errors start the first group.
  const dcErrors = mask & 1 ? DC_SQUARED + <usize>(dc + DC_LOOKUP) * 32 : ZERO_ERRORS;
  let low = v128.load(dcErrors);
  let high = v128.load(dcErrors, 16);
  mask &= ~(<u64>1);
  while (mask) {
    // Up to three AC coefficients join the group (the first group also holds the DC coefficient's errors).
    let at = nextAc(mask);
    mask &= mask - 1;
    low = i16x8.add(low, v128.load(at));
    high = i16x8.add(high, v128.load(at, 16));
    if (mask) {
      at = nextAc(mask);
      mask &= mask - 1;
      low = i16x8.add(low, v128.load(at));
      high = i16x8.add(high, v128.load(at, 16));
      if (mask) {
        at = nextAc(mask);
        mask &= mask - 1;
        low = i16x8.add(low, v128.load(at));
        high = i16x8.add(high, v128.load(at, 16));
      }
    }
    e0 = i32x4.add(e0, i32x4.extend_low_i16x8_u(low));
    e1 = i32x4.add(e1, i32x4.extend_high_i16x8_u(low));
    e2 = i32x4.add(e2, i32x4.extend_low_i16x8_u(high));
    e3 = i32x4.add(e3, i32x4.extend_high_i16x8_u(high));
    low = i32x4.splat(0);
    high = low;
  }
  // A block without AC coefficients in the lookups: the DC coefficient's errors (or none) not yet widened.
  e0 = i32x4.add(e0, i32x4.extend_low_i16x8_u(low));
  e1 = i32x4.add(e1, i32x4.extend_high_i16x8_u(low));
  e2 = i32x4.add(e2, i32x4.extend_low_i16x8_u(high));
  e3 = i32x4.add(e3, i32x4.extend_high_i16x8_u(high));
  if (beyond) {
    memory.fill(COMPUTED, 0, 16 * 8);
    while (beyond) {
      const k = <i32>ctz(beyond);
      beyond &= beyond - 1;
      addComputed(k, <i32>load<i16>(q + <usize>k * 2), table);
    }
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

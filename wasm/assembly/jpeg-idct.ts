// Dequantisation + integer 8×8 inverse DCT to 8-bit samples: stb_image's stbi__idct_block, the
// algorithm of src/scanner/images/jpeg-idct.ts (the JavaScript reference), four columns (then four
// rows) per i32x4. Every step is the reference's 32-bit wrapping integer arithmetic, so the bytes
// are identical; the reference's shortcut for columns without AC terms gives the same result as
// the full pass and is not needed here.

// stbi_f2f: (int)(x * 4096 + 0.5), truncated toward zero as in the reference
const C0_541: i32 = 2217; // 0.5411961
const C1_847: i32 = -7567; // -1.847759065
const C0_765: i32 = 3135; // 0.765366865
const C1_175: i32 = 4816; // 1.175875602
const C0_298: i32 = 1223; // 0.298631336
const C2_053: i32 = 8410; // 2.053119869
const C3_072: i32 = 12586; // 3.072711026
const C1_501: i32 = 6149; // 1.50132111
const C0_899: i32 = -3685; // -0.899976223
const C2_562: i32 = -10497; // -2.562915447
const C1_961: i32 = -8034; // -1.96157056
const C0_390: i32 = -1597; // -0.390180644

/** Eight vectors of one pass (input rows/columns 0..7, then outputs 0..7). */
const LANES = memory.data(8 * 16, 16);
const HALF_A = memory.data(8 * 16, 16);
const HALF_B = memory.data(8 * 16, 16);

@inline function mulc(a: v128, c: i32): v128 {
  return i32x4.mul(a, i32x4.splat(c));
}

/**
 * One 1-D IDCT of s0..s7 (each lane one column or row), its outputs 0..7 stored at `io`: (even ± odd + bias) >> shift,
 * as stb's descale.
 */
@inline function pass(
  s0: v128,
  s1: v128,
  s2: v128,
  s3: v128,
  s4: v128,
  s5: v128,
  s6: v128,
  s7: v128,
  io: usize,
  bias: i32,
  shift: i32,
): void {
  let p1 = mulc(i32x4.add(s2, s6), C0_541);
  const t2e = i32x4.add(p1, mulc(s6, C1_847));
  const t3e = i32x4.add(p1, mulc(s2, C0_765));
  const t0e = i32x4.shl(i32x4.add(s0, s4), 12);
  const t1e = i32x4.shl(i32x4.sub(s0, s4), 12);
  const b = i32x4.splat(bias);
  const x0 = i32x4.add(i32x4.add(t0e, t3e), b);
  const x3 = i32x4.add(i32x4.sub(t0e, t3e), b);
  const x1 = i32x4.add(i32x4.add(t1e, t2e), b);
  const x2 = i32x4.add(i32x4.sub(t1e, t2e), b);
  const p3 = i32x4.add(s7, s3);
  const p4 = i32x4.add(s5, s1);
  p1 = i32x4.add(s7, s1);
  let p2 = i32x4.add(s5, s3);
  const p5 = mulc(i32x4.add(p3, p4), C1_175);
  p1 = i32x4.add(p5, mulc(p1, C0_899));
  p2 = i32x4.add(p5, mulc(p2, C2_562));
  const q3 = mulc(p3, C1_961);
  const q4 = mulc(p4, C0_390);
  const o3 = i32x4.add(i32x4.add(mulc(s1, C1_501), p1), q4);
  const o2 = i32x4.add(i32x4.add(mulc(s3, C3_072), p2), q3);
  const o1 = i32x4.add(i32x4.add(mulc(s5, C2_053), p2), q4);
  const o0 = i32x4.add(i32x4.add(mulc(s7, C0_298), p1), q3);
  v128.store(io, i32x4.shr_s(i32x4.add(x0, o3), shift), 0);
  v128.store(io, i32x4.shr_s(i32x4.sub(x0, o3), shift), 112);
  v128.store(io, i32x4.shr_s(i32x4.add(x1, o2), shift), 16);
  v128.store(io, i32x4.shr_s(i32x4.sub(x1, o2), shift), 96);
  v128.store(io, i32x4.shr_s(i32x4.add(x2, o1), shift), 32);
  v128.store(io, i32x4.shr_s(i32x4.sub(x2, o1), shift), 80);
  v128.store(io, i32x4.shr_s(i32x4.add(x3, o0), shift), 48);
  v128.store(io, i32x4.shr_s(i32x4.sub(x3, o0), shift), 64);
}

/** Four coefficients at `coefficients` times their quantisation steps at `table` (i32 lanes). */
@inline function dequantised(coefficients: usize, table: usize): v128 {
  return i32x4.mul(v128.load16x4_s(coefficients), v128.load16x4_u(table));
}

// A 4×4 i32 tile transposed in registers: with rows a..d, column 0 is firsts(pairsLow(a, b), pairsLow(c, d)), column 1
// seconds(…) of the same, columns 2 and 3 the same of pairsHigh.
@inline function pairsLow(a: v128, b: v128): v128 {
  return i32x4.shuffle(a, b, 0, 4, 1, 5);
}

@inline function pairsHigh(a: v128, b: v128): v128 {
  return i32x4.shuffle(a, b, 2, 6, 3, 7);
}

@inline function firsts(x: v128, y: v128): v128 {
  return i64x2.shuffle(x, y, 0, 2);
}

@inline function seconds(x: v128, y: v128): v128 {
  return i64x2.shuffle(x, y, 1, 3);
}

/** Eight samples (columns 0–3 in `low`, 4–7 in `high`) clamped to bytes at `out`. */
@inline function storeRow(out: usize, low: v128, high: v128): void {
  // Saturating narrowing = the reference's clamp to 0..255.
  v128.store64_lane(out, i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_s(low, high), i16x8.splat(0)), 0);
}

/**
 * Block at `coefficients` (64 i16, natural order) dequantised with `table` (64 u16) into 8 rows of
 * 8 bytes at `out`, rows `stride` bytes apart.
 */
export function idctBlock(coefficients: usize, table: usize, out: usize, stride: i32): void {
  // Column pass on columns 0–3 (HALF_A) and 4–7 (HALF_B): vector r = row r of those columns.
  for (let half = 0; half < 2; half++) {
    const at = <usize>half * 8;
    pass(
      dequantised(coefficients + at, table + at),
      dequantised(coefficients + at + 16, table + at + 16),
      dequantised(coefficients + at + 32, table + at + 32),
      dequantised(coefficients + at + 48, table + at + 48),
      dequantised(coefficients + at + 64, table + at + 64),
      dequantised(coefficients + at + 80, table + at + 80),
      dequantised(coefficients + at + 96, table + at + 96),
      dequantised(coefficients + at + 112, table + at + 112),
      half ? HALF_B : HALF_A,
      512,
      10,
    );
  }
  // Rows 0–3, then 4–7: transposed so that vector c = column c of the four rows, the same pass, transposed back.
  for (let half = 0; half < 2; half++) {
    const rows = <usize>half * 64; // rows 4–7 start 4 vectors further
    const a01 = pairsLow(v128.load(HALF_A + rows), v128.load(HALF_A + rows, 16));
    const a23 = pairsLow(v128.load(HALF_A + rows, 32), v128.load(HALF_A + rows, 48));
    const a01h = pairsHigh(v128.load(HALF_A + rows), v128.load(HALF_A + rows, 16));
    const a23h = pairsHigh(v128.load(HALF_A + rows, 32), v128.load(HALF_A + rows, 48));
    const b01 = pairsLow(v128.load(HALF_B + rows), v128.load(HALF_B + rows, 16));
    const b23 = pairsLow(v128.load(HALF_B + rows, 32), v128.load(HALF_B + rows, 48));
    const b01h = pairsHigh(v128.load(HALF_B + rows), v128.load(HALF_B + rows, 16));
    const b23h = pairsHigh(v128.load(HALF_B + rows, 32), v128.load(HALF_B + rows, 48));
    pass(
      firsts(a01, a23),
      seconds(a01, a23),
      firsts(a01h, a23h),
      seconds(a01h, a23h),
      firsts(b01, b23),
      seconds(b01, b23),
      firsts(b01h, b23h),
      seconds(b01h, b23h),
      LANES,
      65536 + (128 << 17),
      17,
    );
    // LANES[c] lane j = output column c of row half*4+j.
    const p01 = pairsLow(v128.load(LANES), v128.load(LANES, 16));
    const p23 = pairsLow(v128.load(LANES, 32), v128.load(LANES, 48));
    const p01h = pairsHigh(v128.load(LANES), v128.load(LANES, 16));
    const p23h = pairsHigh(v128.load(LANES, 32), v128.load(LANES, 48));
    const q01 = pairsLow(v128.load(LANES, 64), v128.load(LANES, 80));
    const q23 = pairsLow(v128.load(LANES, 96), v128.load(LANES, 112));
    const q01h = pairsHigh(v128.load(LANES, 64), v128.load(LANES, 80));
    const q23h = pairsHigh(v128.load(LANES, 96), v128.load(LANES, 112));
    const first = out + <usize>(half * 4 * stride);
    storeRow(first, firsts(p01, p23), firsts(q01, q23));
    storeRow(first + <usize>stride, seconds(p01, p23), seconds(q01, q23));
    storeRow(first + <usize>(2 * stride), firsts(p01h, p23h), firsts(q01h, q23h));
    storeRow(first + <usize>(3 * stride), seconds(p01h, p23h), seconds(q01h, q23h));
  }
}

/**
 * `count` blocks: coefficients 64 i16 each from `coefficients`; per block three i32 at `layout`
 * (table number, output offset from `out`, row stride); tables 64 u16 each from `tables`.
 */
export function idctBlocks(count: i32, coefficients: usize, layout: usize, tables: usize, out: usize): void {
  for (let i = 0; i < count; i++) {
    const d = layout + <usize>i * 12;
    idctBlock(
      coefficients + <usize>i * 128,
      tables + <usize>load<i32>(d) * 128,
      out + <usize>load<i32>(d, 4),
      load<i32>(d, 8),
    );
  }
}

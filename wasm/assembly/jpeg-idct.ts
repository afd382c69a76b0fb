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
 * One 1-D IDCT of the vectors at `io` (s0..s7, each lane one column or row), replaced by its
 * outputs 0..7: (even ± odd + bias) >> shift, as stb's descale.
 */
@inline function pass(io: usize, bias: i32, shift: i32): void {
  passOf(
    v128.load(io, 0),
    v128.load(io, 16),
    v128.load(io, 32),
    v128.load(io, 48),
    v128.load(io, 64),
    v128.load(io, 80),
    v128.load(io, 96),
    v128.load(io, 112),
    io,
    bias,
    shift,
  );
}

/** The 1-D IDCT of s0..s7, its outputs 0..7 stored at `out`. */
@inline function passOf(
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

/** Transposes the 4×4 i32 tile of rows a..d (vectors at src, src+16·step…) into dst rows. */
@inline function transpose4(src: usize, srcStep: usize, dst: usize, dstStep: usize): void {
  const a = v128.load(src);
  const b = v128.load(src + srcStep);
  const c = v128.load(src + 2 * srcStep);
  const d = v128.load(src + 3 * srcStep);
  const ab0 = i32x4.shuffle(a, b, 0, 4, 1, 5);
  const ab1 = i32x4.shuffle(a, b, 2, 6, 3, 7);
  const cd0 = i32x4.shuffle(c, d, 0, 4, 1, 5);
  const cd1 = i32x4.shuffle(c, d, 2, 6, 3, 7);
  v128.store(dst, i64x2.shuffle(ab0, cd0, 0, 2));
  v128.store(dst + dstStep, i64x2.shuffle(ab0, cd0, 1, 3));
  v128.store(dst + 2 * dstStep, i64x2.shuffle(ab1, cd1, 0, 2));
  v128.store(dst + 3 * dstStep, i64x2.shuffle(ab1, cd1, 1, 3));
}

/**
 * Block at `coefficients` (64 i16, natural order) dequantised with `table` (64 u16) into 8 rows of
 * 8 bytes at `out`, rows `stride` bytes apart.
 */
export function idctBlock(coefficients: usize, table: usize, out: usize, stride: i32): void {
  // Column pass on columns 0–3 (HALF_A) and 4–7 (HALF_B): vector r = row r of those columns.
  for (let half = 0; half < 2; half++) {
    const at = <usize>half * 8;
    passOf(
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
  // Rows: transpose so that vector c = column c of rows 0–3 (then 4–7), same pass, transpose back.
  for (let half = 0; half < 2; half++) {
    const rows = <usize>half * 64; // rows 4–7 start 4 vectors further
    transpose4(HALF_A + rows, 16, LANES, 16);
    transpose4(HALF_B + rows, 16, LANES + 64, 16);
    pass(LANES, 65536 + (128 << 17), 17);
    // LANES[c] lane j = output column c of row half*4+j; back to rows in HALF_A (cols 0–3) / HALF_B (4–7).
    transpose4(LANES, 16, HALF_A + rows, 16);
    transpose4(LANES + 64, 16, HALF_B + rows, 16);
  }
  for (let r = 0; r < 8; r++) {
    const lo = v128.load(HALF_A + <usize>r * 16);
    const hi = v128.load(HALF_B + <usize>r * 16);
    // Saturating narrowing = the reference's clamp to 0..255.
    const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_s(lo, hi), i16x8.splat(0));
    v128.store64_lane(out + <usize>(r * stride), bytes, 0);
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

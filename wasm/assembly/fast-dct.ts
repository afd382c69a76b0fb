// A fast separable 8×8 DCT (dct.ts's orthonormal DCT-II and its inverse, the basis COS[u*8+x] handed in
// by the caller) by even/odd butterflies: 22 products and 28 sums per 8 values instead of 64 and 56. Its
// doubles differ from the dense sums of dct.ts in the last bits (a few ulps of the block's largest value),
// so block-measure.ts uses it only where rounding makes that difference vanish, and falls back to the
// dense transforms near a rounding tie.
//
// A pass transforms the 8 values of each column (two columns per f64x2, lanes independent) and stores the
// result transposed, so two passes give the 2-D transform in the input's orientation.

@inline function at(base: usize, i: i32): usize {
  return base + <usize>i * 8;
}

/** splat(COS[u*8+x]). */
@inline function c(cos: usize, u: i32, x: i32): v128 {
  return v128.load64_splat(at(cos, u * 8 + x));
}

/** Stores X0…X7 of columns `col` and `col`+1 as rows `col` and `col`+1 of `out` (the transpose). */
@inline function storeTransposed(
  out: usize,
  col: i32,
  x0: v128,
  x1: v128,
  x2: v128,
  x3: v128,
  x4: v128,
  x5: v128,
  x6: v128,
  x7: v128,
): void {
  const a = at(out, col * 8);
  const b = at(out, col * 8 + 8);
  v128.store(a, v128.shuffle<f64>(x0, x1, 0, 2));
  v128.store(b, v128.shuffle<f64>(x0, x1, 1, 3));
  v128.store(a, v128.shuffle<f64>(x2, x3, 0, 2), 16);
  v128.store(b, v128.shuffle<f64>(x2, x3, 1, 3), 16);
  v128.store(a, v128.shuffle<f64>(x4, x5, 0, 2), 32);
  v128.store(b, v128.shuffle<f64>(x4, x5, 1, 3), 32);
  v128.store(a, v128.shuffle<f64>(x6, x7, 0, 2), 48);
  v128.store(b, v128.shuffle<f64>(x6, x7, 1, 3), 48);
}

/** Value j plus value 7 − j of the column pair at p (value j at p + j·64). */
@inline function pairSum(p: usize, j: i32): v128 {
  return f64x2.add(v128.load(p + <usize>j * 64), v128.load(p + <usize>(7 - j) * 64));
}

/** Value j minus value 7 − j of the column pair at p. */
@inline function pairDifference(p: usize, j: i32): v128 {
  return f64x2.sub(v128.load(p + <usize>j * 64), v128.load(p + <usize>(7 - j) * 64));
}

/**
 * X[u] = Σx COS[u*8+x]·in[x] down each column of `input`, transposed into `out`. COS[u][7−x] is
 * COS[u][x] for even u and −COS[u][x] for odd u, so the even outputs need the sums x + (7−x), the odd
 * ones the differences; the even half splits once more the same way.
 */
function forwardPass(input: usize, out: usize, cos: usize): void {
  for (let col = 0; col < 8; col += 2) {
    const p = at(input, col);
    const s0 = pairSum(p, 0);
    const s1 = pairSum(p, 1);
    const s2 = pairSum(p, 2);
    const s3 = pairSum(p, 3);
    const d0 = pairDifference(p, 0);
    const d1 = pairDifference(p, 1);
    const d2 = pairDifference(p, 2);
    const d3 = pairDifference(p, 3);
    const e0 = f64x2.add(s0, s3);
    const e1 = f64x2.add(s1, s2);
    const f0 = f64x2.sub(s0, s3);
    const f1 = f64x2.sub(s1, s2);
    const r0 = f64x2.mul(c(cos, 0, 0), f64x2.add(e0, e1));
    const r4 = f64x2.mul(c(cos, 4, 0), f64x2.sub(e0, e1));
    const r2 = f64x2.add(f64x2.mul(c(cos, 2, 0), f0), f64x2.mul(c(cos, 2, 1), f1));
    const r6 = f64x2.add(f64x2.mul(c(cos, 6, 0), f0), f64x2.mul(c(cos, 6, 1), f1));
    const r1 = odd(cos, 1, d0, d1, d2, d3);
    const r3 = odd(cos, 3, d0, d1, d2, d3);
    const r5 = odd(cos, 5, d0, d1, d2, d3);
    const r7 = odd(cos, 7, d0, d1, d2, d3);
    storeTransposed(out, col, r0, r1, r2, r3, r4, r5, r6, r7);
  }
}

/** Σj<4 COS[u*8+j]·d_j. */
@inline function odd(cos: usize, u: i32, d0: v128, d1: v128, d2: v128, d3: v128): v128 {
  const a = f64x2.add(f64x2.mul(c(cos, u, 0), d0), f64x2.mul(c(cos, u, 1), d1));
  const b = f64x2.add(f64x2.mul(c(cos, u, 2), d2), f64x2.mul(c(cos, u, 3), d3));
  return f64x2.add(a, b);
}

/** Σ odd u of COS[u*8+x]·X[u] for x < 4. */
@inline function oddSum(cos: usize, x: i32, y1: v128, y3: v128, y5: v128, y7: v128): v128 {
  const a = f64x2.add(f64x2.mul(c(cos, 1, x), y1), f64x2.mul(c(cos, 3, x), y3));
  const b = f64x2.add(f64x2.mul(c(cos, 5, x), y5), f64x2.mul(c(cos, 7, x), y7));
  return f64x2.add(a, b);
}

/** x[j] = Σu COS[u*8+j]·X[u] down each column of `input`, transposed into `out` (forwardPass's transpose). */
function inversePass(input: usize, out: usize, cos: usize): void {
  for (let col = 0; col < 8; col += 2) {
    const p = at(input, col);
    // Coefficient u of the column pair is at p + u·64: the even ones give a, the odd ones b.
    const dc = f64x2.mul(c(cos, 0, 0), v128.load(p));
    const mid = f64x2.mul(c(cos, 4, 0), v128.load(p, 256));
    const plus = f64x2.add(dc, mid);
    const minus = f64x2.sub(dc, mid);
    const y2 = v128.load(p, 128);
    const y6 = v128.load(p, 384);
    const e0 = f64x2.add(f64x2.mul(c(cos, 2, 0), y2), f64x2.mul(c(cos, 6, 0), y6));
    const e1 = f64x2.add(f64x2.mul(c(cos, 2, 1), y2), f64x2.mul(c(cos, 6, 1), y6));
    const y1 = v128.load(p, 64);
    const y3 = v128.load(p, 192);
    const y5 = v128.load(p, 320);
    const y7 = v128.load(p, 448);
    const a0 = f64x2.add(plus, e0);
    const a3 = f64x2.sub(plus, e0);
    const a1 = f64x2.add(minus, e1);
    const a2 = f64x2.sub(minus, e1);
    const b0 = oddSum(cos, 0, y1, y3, y5, y7);
    const b1 = oddSum(cos, 1, y1, y3, y5, y7);
    const b2 = oddSum(cos, 2, y1, y3, y5, y7);
    const b3 = oddSum(cos, 3, y1, y3, y5, y7);
    storeTransposed(
      out,
      col,
      f64x2.add(a0, b0),
      f64x2.add(a1, b1),
      f64x2.add(a2, b2),
      f64x2.add(a3, b3),
      f64x2.sub(a3, b3),
      f64x2.sub(a2, b2),
      f64x2.sub(a1, b1),
      f64x2.sub(a0, b0),
    );
  }
}

/** out[v*8+u] ≈ dct.ts forwardDct(input); `tmp` is 64 f64 of scratch. */
export function fastForwardDct(input: usize, out: usize, tmp: usize, cos: usize): void {
  forwardPass(input, tmp, cos);
  forwardPass(tmp, out, cos);
}

/** out[y*8+x] ≈ dct.ts inverseDct(input); `tmp` is 64 f64 of scratch. */
export function fastInverseDct(input: usize, out: usize, tmp: usize, cos: usize): void {
  inversePass(input, tmp, cos);
  inversePass(tmp, out, cos);
}

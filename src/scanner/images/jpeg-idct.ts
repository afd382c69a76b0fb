/**
 * Dequantisation + integer 8×8 inverse DCT to 8-bit samples, the algorithm of stb_image's
 * `stbi__idct_block` (12-bit fixed point, also used by the Rust jpeg-decoder inside photon). We use
 * it for decoding pixels instead of the float IDCT in dct.ts so that our pixels match photon's
 * (the models' thresholds were calibrated on photon decodes) and because it is several times faster.
 */

const f2f = (x: number): number => Math.trunc(x * 4096 + 0.5);
const C0_541 = f2f(0.5411961);
const C1_847 = f2f(-1.847759065);
const C0_765 = f2f(0.765366865);
const C1_175 = f2f(1.175875602);
const C0_298 = f2f(0.298631336);
const C2_053 = f2f(2.053119869);
const C3_072 = f2f(3.072711026);
const C1_501 = f2f(1.50132111);
const C0_899 = f2f(-0.899976223);
const C2_562 = f2f(-2.562915447);
const C1_961 = f2f(-1.96157056);
const C0_390 = f2f(-0.390180644);

const temp = new Int32Array(64);
/** Scratch outputs of one 1-D pass: even part x0..x3, odd part t0..t3. */
const even = new Int32Array(4);
const odd = new Int32Array(4);

/** One 1-D IDCT of s0..s7 (stb's STBI__IDCT_1D), results in `even` and `odd`. */
function idct1d(s0: number, s1: number, s2: number, s3: number, s4: number, s5: number, s6: number, s7: number): void {
  let p1 = Math.imul(s2 + s6, C0_541);
  const t2e = p1 + Math.imul(s6, C1_847);
  const t3e = p1 + Math.imul(s2, C0_765);
  const t0e = (s0 + s4) << 12;
  const t1e = (s0 - s4) << 12;
  even[0] = t0e + t3e;
  even[3] = t0e - t3e;
  even[1] = t1e + t2e;
  even[2] = t1e - t2e;
  const p3 = s7 + s3;
  const p4 = s5 + s1;
  p1 = s7 + s1;
  let p2 = s5 + s3;
  const p5 = Math.imul(p3 + p4, C1_175);
  p1 = p5 + Math.imul(p1, C0_899);
  p2 = p5 + Math.imul(p2, C2_562);
  const q3 = Math.imul(p3, C1_961);
  const q4 = Math.imul(p4, C0_390);
  odd[3] = Math.imul(s1, C1_501) + p1 + q4;
  odd[2] = Math.imul(s3, C3_072) + p2 + q3;
  odd[1] = Math.imul(s5, C2_053) + p2 + q4;
  odd[0] = Math.imul(s7, C0_298) + p1 + q3;
}

function clamp(x: number): number {
  return x < 0 ? 0 : Math.min(x, 255);
}

/**
 * Writes the 8×8 samples of quantized `coefficients` (natural order) dequantised with `table`
 * into `out` at `offset`, rows `stride` bytes apart.
 */
export function idctBlockToBytes(
  coefficients: Int16Array,
  table: Uint16Array,
  out: Uint8Array,
  offset: number,
  stride: number,
): void {
  for (let i = 0; i < 8; i++) {
    if (
      !coefficients[i + 8] &&
      !coefficients[i + 16] &&
      !coefficients[i + 24] &&
      !coefficients[i + 32] &&
      !coefficients[i + 40] &&
      !coefficients[i + 48] &&
      !coefficients[i + 56]
    ) {
      // Column without AC terms: constant (stb's shortcut, same result as the full pass).
      const dc = (coefficients[i] * table[i]) << 2;
      for (let k = i; k < 64; k += 8) temp[k] = dc;
      continue;
    }
    idct1d(
      coefficients[i] * table[i],
      coefficients[i + 8] * table[i + 8],
      coefficients[i + 16] * table[i + 16],
      coefficients[i + 24] * table[i + 24],
      coefficients[i + 32] * table[i + 32],
      coefficients[i + 40] * table[i + 40],
      coefficients[i + 48] * table[i + 48],
      coefficients[i + 56] * table[i + 56],
    );
    // Scaled up by 1 << 12; keep 2 extra bits of precision.
    for (let k = 0; k < 4; k++) {
      const x = even[k] + 512;
      temp[i + 8 * k] = (x + odd[3 - k]) >> 10;
      temp[i + 8 * (7 - k)] = (x - odd[3 - k]) >> 10;
    }
  }
  for (let r = 0, o = offset; r < 8; r++, o += stride) {
    const v = r * 8;
    idct1d(temp[v], temp[v + 1], temp[v + 2], temp[v + 3], temp[v + 4], temp[v + 5], temp[v + 6], temp[v + 7]);
    // 1 << 17 in total to remove, rounded, plus the +128 level shift.
    for (let k = 0; k < 4; k++) {
      const x = even[k] + 65536 + (128 << 17);
      out[o + k] = clamp((x + odd[3 - k]) >> 17);
      out[o + 7 - k] = clamp((x - odd[3 - k]) >> 17);
    }
  }
}

/** Separable 8×8 DCT-II / DCT-III (orthonormal, as in JPEG), on Float64Array(64) in natural order. */

/** COS[u*8+x]: the basis both transforms use (also handed to the wasm block pass, wasm-kernels.ts). */
export const COS = (() => {
  const m = new Float64Array(64);
  for (let u = 0; u < 8; u++) {
    const cu = u === 0 ? Math.SQRT1_2 : 1;
    for (let x = 0; x < 8; x++) m[u * 8 + x] = 0.5 * cu * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  }
  return m;
})();

const tmp = new Float64Array(64);

/** Forward DCT: out[v*8+u] from pixels in[y*8+x] (already level-shifted). */
export function forwardDct(input: Float64Array, out: Float64Array): void {
  for (let y = 0; y < 8; y++)
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < 8; x++) s += COS[u * 8 + x] * input[y * 8 + x];
      tmp[y * 8 + u] = s;
    }
  for (let u = 0; u < 8; u++)
    for (let v = 0; v < 8; v++) {
      let s = 0;
      for (let y = 0; y < 8; y++) s += COS[v * 8 + y] * tmp[y * 8 + u];
      out[v * 8 + u] = s;
    }
}

/** Inverse DCT: pixels out[y*8+x] (not level-shifted back) from coefficients in[v*8+u]. */
export function inverseDct(input: Float64Array, out: Float64Array): void {
  for (let v = 0; v < 8; v++)
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let u = 0; u < 8; u++) s += COS[u * 8 + x] * input[v * 8 + u];
      tmp[v * 8 + x] = s;
    }
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) {
      let s = 0;
      for (let v = 0; v < 8; v++) s += COS[v * 8 + y] * tmp[v * 8 + x];
      out[y * 8 + x] = s;
    }
}

/** In-place radix-2 FFT of one row/column (`re`, `im` of power-of-two length). */
export function fft1d(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    for (let i = 0; i < n; i += len) {
      let cr = 1,
        ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k,
          b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const next = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = next;
      }
    }
  }
}

/** Power spectrum (|F|²) of an n×n real field, n a power of two; index [v * n + u]. */
export function powerSpectrum2d(field: Float64Array, n: number): Float64Array {
  const re = Float64Array.from(field);
  const im = new Float64Array(n * n);
  const rowRe = new Float64Array(n),
    rowIm = new Float64Array(n);
  for (let pass = 0; pass < 2; pass++) {
    for (let line = 0; line < n; line++) {
      for (let k = 0; k < n; k++) {
        const idx = pass === 0 ? line * n + k : k * n + line;
        rowRe[k] = re[idx];
        rowIm[k] = im[idx];
      }
      fft1d(rowRe, rowIm);
      for (let k = 0; k < n; k++) {
        const idx = pass === 0 ? line * n + k : k * n + line;
        re[idx] = rowRe[k];
        im[idx] = rowIm[k];
      }
    }
  }
  const power = new Float64Array(n * n);
  for (let i = 0; i < power.length; i++) power[i] = re[i] * re[i] + im[i] * im[i];
  return power;
}

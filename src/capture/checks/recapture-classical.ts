import { powerSpectrum2d } from "./fft";
import type { RecaptureDetector, RecaptureVerdict } from "./recapture-check";
import type { CheckReason, RgbaImage } from "./types";
import { checkReason } from "./reason-texts";

/**
 * Thresholds, calibrated on the real photos of shared/data (negatives) and on simulated
 * photographs of an LCD showing those photos (positives); numbers in docs/capture-page.md.
 */
export const RECAPTURE_LIMITS = {
  /** log10 height of a spectral bin over its neighbourhood that counts as a spike (40×). */
  peakExcess: 1.6,
  /** Luma spikes needed for "periodic pattern" (moiré / pixel grid); real photos: ≤ 64. */
  minLumaPeaks: 100,
  /** Chroma spikes needed for "colour moiré" (sub-pixel stripes aliased); real photos: ≤ 28. */
  minChromaPeaks: 40,
};

/**
 * A classical screen/print recapture detector: a display's pixel grid, photographed, leaves
 * (1) isolated peaks in the frequency spectrum (moiré, the grid itself), which natural scenes
 * with their smooth 1/f spectra lack, and (2) colour where there should be none: R, G and B
 * sub-pixels side by side give fine chroma detail that a camera's demosaicing and JPEG's
 * 4:2:0 chroma smoothing otherwise remove. The fine-chroma ratio is recorded as evidence only:
 * on its own it also fires on colourful real scenes (shared/data `Storm.jpg`: 2.3).
 */
export const classicalRecapture: RecaptureDetector = {
  name: "classical-spectral-v1",
  detect(image: RgbaImage): RecaptureVerdict {
    const n = fieldSize(image);
    if (n < 64) return { recaptured: false, score: 0, cues: [], evidence: { skipped: "image too small", side: n } };
    const { luma, chroma } = centreFields(image, n);
    const lumaPeaks = countPeaks(luma, n);
    const chromaPeaks = countPeaks(chroma, n);
    const chromaDetailRatio = round(detailEnergy(chroma, n) / Math.max(1e-6, detailEnergy(luma, n)));
    const cues: CheckReason[] = [];
    if (lumaPeaks.count >= RECAPTURE_LIMITS.minLumaPeaks) {
      cues.push(checkReason("periodic_pattern", { peaks: lumaPeaks.count }));
    }
    if (chromaPeaks.count >= RECAPTURE_LIMITS.minChromaPeaks) {
      cues.push(checkReason("colour_moire", { peaks: chromaPeaks.count }));
    }
    const score = Math.min(
      1,
      Math.max(
        lumaPeaks.count / (2 * RECAPTURE_LIMITS.minLumaPeaks),
        chromaPeaks.count / (2 * RECAPTURE_LIMITS.minChromaPeaks),
      ),
    );
    return {
      recaptured: cues.length > 0,
      score: round(score),
      cues,
      evidence: {
        side: n,
        lumaPeaks: lumaPeaks.count,
        lumaTopExcess: lumaPeaks.top,
        chromaPeaks: chromaPeaks.count,
        chromaTopExcess: chromaPeaks.top,
        chromaDetailRatio,
      },
    };
  },
};

function fieldSize(image: RgbaImage): number {
  let n = 1;
  while (n * 2 <= Math.min(image.width, image.height, 512)) n *= 2;
  return n;
}

/** Centre n×n luma and chroma (|R−G| + |B−G| signed sum) fields, mean removed. */
function centreFields(image: RgbaImage, n: number) {
  const x0 = Math.floor((image.width - n) / 2);
  const y0 = Math.floor((image.height - n) / 2);
  const luma = new Float64Array(n * n);
  const chroma = new Float64Array(n * n);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const p = ((y0 + r) * image.width + x0 + c) * 4;
      const R = image.data[p],
        G = image.data[p + 1],
        B = image.data[p + 2];
      luma[r * n + c] = 0.299 * R + 0.587 * G + 0.114 * B;
      chroma[r * n + c] = R - G - (B - G) * 0.5;
    }
  }
  return { luma, chroma };
}

/**
 * Off-axis spectral bins standing far above their neighbourhood (the mean log power of the
 * 9×9 window around them, the central 3×3 left out): a display grid or moiré is a sharp spike,
 * natural textures are broad. Window sums come from a summed-area table: O(1) per bin.
 */
function countPeaks(field: Float64Array, n: number): { count: number; top: number } {
  const power = powerSpectrum2d(hannWindowed(field, n), n);
  const logs = new Float64Array(n * n);
  for (let i = 0; i < logs.length; i++) logs[i] = Math.log10(power[i] + 1e-9);
  const table = summedArea(logs, n);
  const half = n / 2;
  const minRadius = Math.max(4, n / 32);
  let count = 0,
    top = 0;
  // Upper half-plane only (the spectrum of a real field is symmetric), away from the wrap-around.
  for (let v = 5; v <= half - 5; v++) {
    for (let u = 5; u < n - 5; u++) {
      const fu = signed(u, n),
        fv = signed(v, n);
      const r = Math.hypot(fu, fv);
      if (r < minRadius || r > half - 5 || excluded(fu, fv, n)) continue;
      const around = (boxSum(table, n, u, v, 4) - boxSum(table, n, u, v, 1)) / (81 - 9);
      const excess = logs[v * n + u] - around;
      if (excess > top) top = excess;
      if (excess > RECAPTURE_LIMITS.peakExcess) count++;
    }
  }
  return { count, top: round(top) };
}

function summedArea(values: Float64Array, n: number): Float64Array {
  const t = new Float64Array((n + 1) * (n + 1));
  for (let y = 0; y < n; y++) {
    let row = 0;
    for (let x = 0; x < n; x++) {
      row += values[y * n + x];
      t[(y + 1) * (n + 1) + x + 1] = t[y * (n + 1) + x + 1] + row;
    }
  }
  return t;
}

/** Sum over the (2k+1)² box centred on (u, v). */
function boxSum(t: Float64Array, n: number, u: number, v: number, k: number): number {
  const w = n + 1;
  const x0 = u - k,
    x1 = u + k + 1,
    y0 = v - k,
    y1 = v + k + 1;
  return t[y1 * w + x1] - t[y0 * w + x1] - t[y1 * w + x0] + t[y0 * w + x0];
}

/** Axes (straight edges, window leakage) and JPEG's 8×8 block grid make peaks in honest photos. */
function excluded(fu: number, fv: number, n: number): boolean {
  if (Math.abs(fu) <= 2 || Math.abs(fv) <= 2) return true;
  const block = n / 8;
  const nearGrid = (f: number) => Math.abs(f - Math.round(f / block) * block) <= 1;
  return nearGrid(fu) && nearGrid(fv);
}

function hannWindowed(field: Float64Array, n: number): Float64Array {
  let mean = 0;
  for (const v of field) mean += v;
  mean /= field.length;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
  const out = new Float64Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out[r * n + c] = (field[r * n + c] - mean) * w[r] * w[c];
  return out;
}

/** Mean squared difference from the 3×3 neighbourhood mean: the finest detail of a field. */
function detailEnergy(field: Float64Array, n: number): number {
  let sum = 0;
  for (let r = 1; r < n - 1; r++) {
    for (let c = 1; c < n - 1; c++) {
      let local = 0;
      for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) local += field[(r + dr) * n + c + dc];
      const d = field[r * n + c] - local / 9;
      sum += d * d;
    }
  }
  return sum / ((n - 2) * (n - 2));
}

const signed = (k: number, n: number) => (k <= n / 2 ? k : k - n);

const round = (v: number) => Math.round(v * 1000) / 1000;

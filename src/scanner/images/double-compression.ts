/**
 * Double JPEG compression from DCT coefficient histograms. A once-compressed JPEG has smooth,
 * roughly Laplacian histograms of quantized AC coefficients (log-counts are locally linear). When
 * a decoded JPEG is compressed again with a different table, values are re-binned and the
 * histogram gets periodic gaps and peaks. We measure, per frequency, how many bins break local
 * log-linearity by more than Poisson noise explains.
 */
import { HISTOGRAM_RANGE } from "./block-analysis";

/** |z| above this counts a histogram bin as irregular. */
export const BIN_Z_THRESHOLD = 4;
/** Bins need this many counts in their neighbours to be judged at all. */
const MIN_NEIGHBOUR_COUNT = 30;

/** Score 0–1 (share of judged bins that are irregular) and how many bins were judged. */
export interface DoubleCompressionScore {
  score: number;
  binsJudged: number;
  perFrequency: number[];
}

export function doubleCompressionScore(histograms: Int32Array[]): DoubleCompressionScore {
  let irregular = 0;
  let judged = 0;
  const perFrequency: number[] = [];
  for (const h of histograms) {
    const c = (k: number) => h[HISTOGRAM_RANGE + k] + h[HISTOGRAM_RANGE - k];
    let fIrregular = 0;
    let fJudged = 0;
    for (let k = 2; k < HISTOGRAM_RANGE; k++) {
      const a = c(k - 1);
      const b = c(k);
      const d = c(k + 1);
      if (a < MIN_NEIGHBOUR_COUNT || d < MIN_NEIGHBOUR_COUNT) continue;
      const dev = Math.log(b + 1) - (Math.log(a + 1) + Math.log(d + 1)) / 2;
      const sigma = Math.sqrt(1 / (b + 1) + (1 / (a + 1) + 1 / (d + 1)) / 4);
      fJudged++;
      if (Math.abs(dev / sigma) > BIN_Z_THRESHOLD) fIrregular++;
    }
    perFrequency.push(fJudged ? fIrregular / fJudged : 0);
    irregular += fIrregular;
    judged += fJudged;
  }
  return { score: judged ? irregular / judged : 0, binsJudged: judged, perFrequency };
}

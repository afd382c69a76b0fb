import { luma } from "./pixels";
import { fromReasons, type CheckReason, type CheckResult, type RgbaImage } from "./types";
import { checkReason } from "./reason-texts";

/**
 * Thresholds on the ≤512 px overview. Calibrated on the real photos of shared/data (all pass)
 * and on defocused / black / blank frames (fail); see docs/capture-page.md.
 */
export const SCENE_LIMITS = {
  /** Variance of the 4-neighbour Laplacian below this: no sharp edge anywhere. */
  minSharpness: 32,
  minMeanLuma: 30,
  maxMeanLuma: 225,
  /** Share of pixels at the ends of the range (crushed blacks / blown highlights). */
  maxClipped: 0.5,
  /** Standard deviation of luma: below this the frame is nearly uniform. */
  minContrast: 10,
  /** Share of pixels on a clear edge: below this there is too little to see. */
  minEdgeShare: 0.004,
};

/** Scene check: is the photo sharp, well exposed and showing something? */
export function checkSceneQuality(overview: RgbaImage): CheckResult {
  const m = sceneMeasures(overview);
  const reasons: CheckReason[] = [];
  if (m.sharpness < SCENE_LIMITS.minSharpness) reasons.push(checkReason("blurry"));
  if (m.meanLuma < SCENE_LIMITS.minMeanLuma || m.darkShare > SCENE_LIMITS.maxClipped)
    reasons.push(checkReason("too_dark"));
  if (m.meanLuma > SCENE_LIMITS.maxMeanLuma || m.brightShare > SCENE_LIMITS.maxClipped)
    reasons.push(checkReason("too_bright"));
  if (m.contrast < SCENE_LIMITS.minContrast || m.edgeShare < SCENE_LIMITS.minEdgeShare)
    reasons.push(checkReason("no_content"));
  return fromReasons(reasons, m);
}

/** The numbers the scene check decides on (exported for calibration scripts and tests). */
export function sceneMeasures(image: RgbaImage) {
  const y = luma(image);
  const { width: w, height: h } = image;
  let sum = 0,
    sumSq = 0,
    dark = 0,
    bright = 0;
  for (const v of y) {
    sum += v;
    sumSq += v * v;
    if (v < 8) dark++;
    if (v > 247) bright++;
  }
  const n = y.length;
  const mean = sum / n;
  let lapSum = 0,
    lapSq = 0,
    edges = 0,
    count = 0;
  for (let r = 1; r < h - 1; r++) {
    for (let c = 1; c < w - 1; c++) {
      const i = r * w + c;
      const lap = y[i - 1] + y[i + 1] + y[i - w] + y[i + w] - 4 * y[i];
      lapSum += lap;
      lapSq += lap * lap;
      const gx = y[i + 1] - y[i - 1];
      const gy = y[i + w] - y[i - w];
      if (gx * gx + gy * gy > 40 * 40) edges++;
      count++;
    }
  }
  const lapMean = lapSum / Math.max(1, count);
  return {
    sharpness: round(lapSq / Math.max(1, count) - lapMean * lapMean),
    meanLuma: round(mean),
    contrast: round(Math.sqrt(Math.max(0, sumSq / n - mean * mean))),
    darkShare: round(dark / n),
    brightShare: round(bright / n),
    edgeShare: round(edges / Math.max(1, count)),
  };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

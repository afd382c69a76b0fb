/**
 * Builds the image engineer's heatmap input (src/scanner/images/heatmap.ts: ScoreGrid with a
 * reliability mask, drawn over a greyscale copy) from model outputs.
 */
import type { GrayImage } from "../images/gray";
import type { ScoreGrid } from "../images/heatmap";
import { boxDownscale, boxFactor, type PixelSource } from "./raster";

/** Greyscale background of at most `maxSide` px, read in strips from the source. */
export function grayBase(source: PixelSource, maxSide: number): GrayImage {
  const factor = boxFactor(source.width, source.height, maxSide);
  // The shared decode's ≤ 1024 px copy when it has this factor (recapture's background: no second pass).
  const shared = source.shared?.scaled;
  const scaled = shared && shared.factor === factor ? shared : boxDownscale(source, factor);
  return grayFromRgb(scaled.rgb, scaled.width, scaled.height);
}

export function grayFromRgb(rgb: Float32Array, width: number, height: number): GrayImage {
  const data = new Float32Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3)
    data[i] = 0.299 * rgb[p] + 0.587 * rgb[p + 1] + 0.114 * rgb[p + 2];
  return { width, height, data };
}

/**
 * Grid of `cell`-px cells over the image: cells inside a scored square get its score and count as
 * reliable; everything else (flat areas, areas the model did not look at) is marked unreliable.
 */
export function squaresToGrid(
  width: number,
  height: number,
  cell: number,
  squares: Array<{ x: number; y: number; size: number; score: number }>,
): ScoreGrid {
  const gw = Math.ceil(width / cell);
  const gh = Math.ceil(height / cell);
  const scores = new Float32Array(gw * gh);
  const reliable = new Uint8Array(gw * gh);
  for (const s of squares) {
    for (let gy = Math.ceil(s.y / cell); gy < Math.min(gh, Math.floor((s.y + s.size) / cell)); gy++) {
      for (let gx = Math.ceil(s.x / cell); gx < Math.min(gw, Math.floor((s.x + s.size) / cell)); gx++) {
        scores[gy * gw + gx] = s.score;
        reliable[gy * gw + gx] = 1;
      }
    }
  }
  return { width: gw, height: gh, scores, reliable };
}

/**
 * Heatmap overlays: a grid of scores (0 = unremarkable … 1 = most suspicious) painted over a
 * greyscale copy of the image, with cells the detector cannot judge (flat, clipped, too small)
 * hatched in grey instead of being coloured as clean or suspicious. Output is PNG.
 */
import { downscale, type GrayImage } from "./gray";
import { encodePng } from "./png-encode";

/** Default longest side of a heatmap PNG. */
export const HEATMAP_MAX_SIDE = 1024;

/** A score grid with its reliability mask. */
export interface ScoreGrid {
  width: number;
  height: number;
  /** 0–1 per cell. */
  scores: Float32Array;
  /** 1 = the detector can judge this cell; 0 = cannot (drawn hatched). */
  reliable: Uint8Array;
}

/** A segment drawn on top (e.g. a copy-move match), in heatmap-relative coordinates 0–1. */
export interface OverlayLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** Blue → yellow → red ramp for a score 0–1 (also the legend of the analysis report). */
export function ramp(t: number): [number, number, number] {
  const s = Math.min(1, Math.max(0, t));
  if (s < 0.5) {
    const u = s / 0.5;
    return [Math.round(40 + 215 * u), Math.round(80 + 175 * u), Math.round(220 * (1 - u))];
  }
  const u = (s - 0.5) / 0.5;
  return [255, Math.round(255 * (1 - u)), 0];
}

function drawLine(rgba: Uint8Array, w: number, h: number, line: OverlayLine): void {
  const x1 = line.x1 * (w - 1);
  const y1 = line.y1 * (h - 1);
  const x2 = line.x2 * (w - 1);
  const y2 = line.y2 * (h - 1);
  const steps = Math.max(1, Math.ceil(Math.hypot(x2 - x1, y2 - y1)));
  for (let s = 0; s <= steps; s++) {
    const x = Math.round(x1 + ((x2 - x1) * s) / steps);
    const y = Math.round(y1 + ((y2 - y1) * s) / steps);
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const p = (yy * w + xx) * 4;
        rgba[p] = 0;
        rgba[p + 1] = 255;
        rgba[p + 2] = 255;
      }
  }
}

/** Output size: the picture's own size, shrunk so the longer side is at most `maxSide`. */
export function heatmapSize(
  imageWidth: number,
  imageHeight: number,
  maxSide = HEATMAP_MAX_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(imageWidth, imageHeight));
  return { width: Math.max(1, Math.round(imageWidth * scale)), height: Math.max(1, Math.round(imageHeight * scale)) };
}

/** Nearest-neighbour resample of the base picture to exactly width×height. */
function fitBase(base: GrayImage, width: number, height: number): GrayImage {
  const small = downscale(base, Math.max(width, height));
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(small.height - 1, Math.floor((y * small.height) / height));
    for (let x = 0; x < width; x++)
      data[y * width + x] =
        small.data[sy * small.width + Math.min(small.width - 1, Math.floor((x * small.width) / width))];
  }
  return { width, height, data };
}

/**
 * Renders the overlay as RGBA (exposed for tests; `renderHeatmapPng` encodes it). `size` is the
 * output size (see heatmapSize); the base is usually a reduced copy and is resampled to it.
 */
export function renderHeatmapRgba(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[] = [],
): { width: number; height: number; rgba: Uint8Array } {
  const { width, height } = size;
  const small = fitBase(base, width, height);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(grid.height - 1, Math.floor((y * grid.height) / height));
    for (let x = 0; x < width; x++) {
      const gx = Math.min(grid.width - 1, Math.floor((x * grid.width) / width));
      const cell = gy * grid.width + gx;
      const g = small.data[y * width + x] * 0.55;
      const p = (y * width + x) * 4;
      if (!grid.reliable[cell]) {
        // Hatched grey: "no statement possible here".
        const stripe = (x + y) % 8 < 3;
        const v = stripe ? 170 : g * 0.6 + 60;
        rgba[p] = v;
        rgba[p + 1] = v;
        rgba[p + 2] = v;
      } else {
        const [r, gg, b] = ramp(grid.scores[cell]);
        const a = 0.2 + 0.6 * Math.min(1, grid.scores[cell]);
        rgba[p] = g * (1 - a) + r * a;
        rgba[p + 1] = g * (1 - a) + gg * a;
        rgba[p + 2] = g * (1 - a) + b * a;
      }
      rgba[p + 3] = 255;
    }
  }
  for (const line of lines) drawLine(rgba, width, height, line);
  return { width, height, rgba };
}

/** PNG bytes of the overlay. */
export function renderHeatmapPng(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[] = [],
): Uint8Array {
  const { width, height, rgba } = renderHeatmapRgba(base, grid, size, lines);
  return encodePng(rgba, width, height);
}

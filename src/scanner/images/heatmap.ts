/**
 * Heatmap overlays: a grid of scores (0 = unremarkable … 1 = most suspicious) painted over a
 * greyscale copy of the image, with cells the detector cannot judge (flat, clipped, too small)
 * hatched in grey instead of being coloured as clean or suspicious. Output is PNG.
 */
import { toUnit } from "./anomaly";
import { downscale, type GrayImage } from "./gray";
import { downscaleWasm } from "./gray-wasm";
import { encodePng, encodePngRows, type PngRowsTarget } from "./png-encode";
import { align16, type KernelExports, kernels } from "./wasm-kernels";

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

/**
 * A grid of log-ratio scores (NaN = not judged), drawn as anomaly.ts `toUnit` takes them to a ScoreGrid:
 * 0 at or below zero, 1 at `full`.
 */
export interface RatioGrid {
  width: number;
  height: number;
  ratios: Float32Array;
  full: number;
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

/**
 * Draws a 3 px wide cyan segment. `rowBytes` and `first`: where row y's first pixel is (`first + y × rowBytes`;
 * in a PNG's scanlines, behind the filter byte).
 */
function drawLine(
  pixels: Uint8Array,
  w: number,
  h: number,
  line: OverlayLine,
  channels: number,
  rowBytes = w * channels,
  first = 0,
): void {
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
        const p = first + yy * rowBytes + xx * channels;
        pixels[p] = 0;
        pixels[p + 1] = 255;
        pixels[p + 2] = 255;
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

/**
 * Output size of a heatmap at half its picture's size, the longer side at most HEATMAP_MAX_SIDE: the searched
 * pictures' (copy-move, cut edges, blur; cells of 4–8 px) and the recapture model's (cells of 32 px), each cell still a
 * square of 2–16 px. A full-size PNG showed nothing more and cost as much CPU as a search (a 0.4 MP photo's full-size
 * heatmap ≈ 3–4 ms to draw and deflate, of ≈ 36 ms for every image detector: docs/benchmarks.md).
 */
export function halfHeatmapSize(width: number, height: number): { width: number; height: number } {
  return heatmapSize(width, height, Math.min(HEATMAP_MAX_SIDE, Math.ceil(Math.max(width, height) / 2)));
}

/** Nearest-neighbour resample of the base picture to exactly width×height. */
function fitBase(base: GrayImage, width: number, height: number): GrayImage {
  const small = downscale(base, Math.max(width, height));
  // Already the output's size (copy-move's heatmap of its search picture): the resample would copy it unchanged.
  if (small.width === width && small.height === height) return small;
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
 * Renders the overlay as RGBA in JavaScript: the reference of `renderHeatmapPng`'s kernel (the tests compare
 * both). `size` is the output size (see heatmapSize); the base is usually a reduced copy and is resampled to it.
 */
export function renderHeatmapRgba(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[] = [],
): { width: number; height: number; rgba: Uint8Array } {
  return { ...size, rgba: renderPixels(base, grid, size, lines, 4) };
}

/**
 * The overlay's pixels, `channels` 3 (RGB, what the PNG stores: it is opaque) or 4 (RGBA). Colour and
 * opacity are worked out per grid cell of the current row, not per pixel (one row of cells in memory,
 * not the whole grid: 375 000 cells at 24 MP); each pixel's value is the same expression.
 */
function renderPixels(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[],
  channels: 3 | 4,
): Uint8Array {
  const { width, height } = size;
  const small = fitBase(base, width, height);
  const out = new Uint8Array(width * height * channels);
  if (channels === 4) for (let p = 3; p < out.length; p += 4) out[p] = 255;
  // Ramp colour and opacity per cell of the grid row in use (worked out again when the row changes).
  const colour = new Float64Array(grid.width * 4);
  let colourRow = -1;
  const column = new Int32Array(width);
  for (let x = 0; x < width; x++) column[x] = Math.min(grid.width - 1, Math.floor((x * grid.width) / width));
  for (let y = 0; y < height; y++) {
    const row = Math.min(grid.height - 1, Math.floor((y * grid.height) / height)) * grid.width;
    if (row !== colourRow) {
      for (let gx = 0; gx < grid.width; gx++) {
        if (!grid.reliable[row + gx]) continue;
        const score = grid.scores[row + gx];
        const [r, g, b] = ramp(score);
        colour[gx * 4] = r;
        colour[gx * 4 + 1] = g;
        colour[gx * 4 + 2] = b;
        colour[gx * 4 + 3] = 0.2 + 0.6 * Math.min(1, score);
      }
      colourRow = row;
    }
    for (let x = 0, p = y * width * channels; x < width; x++, p += channels) {
      const gx = column[x];
      const c = gx * 4;
      const a = colour[c + 3];
      const g = small.data[y * width + x] * 0.55;
      if (!grid.reliable[row + gx]) {
        // Hatched grey: "no statement possible here".
        const v = (x + y) % 8 < 3 ? 170 : g * 0.6 + 60;
        out[p] = v;
        out[p + 1] = v;
        out[p + 2] = v;
      } else {
        out[p] = g * (1 - a) + colour[c] * a;
        out[p + 1] = g * (1 - a) + colour[c + 1] * a;
        out[p + 2] = g * (1 - a) + colour[c + 2] * a;
      }
    }
  }
  for (const line of lines) drawLine(out, width, height, line, channels);
  return out;
}

/** Backgrounds made per picture and size: the blur and cut-edge heatmaps draw the same search picture at one size. */
const backgrounds = new WeakMap<GrayImage, Map<number, GrayImage>>();

/** downscaleWasm(base, side), made once per picture and side (callers do not change either). */
function background(base: GrayImage, side: number): GrayImage {
  let sizes = backgrounds.get(base);
  if (!sizes) backgrounds.set(base, (sizes = new Map()));
  let small = sizes.get(side);
  if (!small) sizes.set(side, (small = downscaleWasm(base, side)));
  return small;
}

/** A heatmap drawn over a picture: what it was drawn from (copies) and its PNG. */
interface DrawnHeatmap {
  grid: ScoreGrid;
  size: { width: number; height: number };
  lines: OverlayLine[];
  png: Uint8Array;
}

/**
 * Grids up to this many cells are remembered with their PNG: the blur and cut-edge checks draw a coarse grid
 * over the same search picture, the same all-clear grid when neither finds anything (most photos); the
 * block-level grids of the other detectors never repeat and would only cost a copy.
 */
const REMEMBERED_CELLS = 65_536;

/** The last remembered heatmap drawn over each picture. */
const drawn = new WeakMap<GrayImage, DrawnHeatmap>();

/** Whether a heatmap is drawn from the same grid (score bits, judged cells), size and lines as `last`. */
function drawnAlike(
  last: DrawnHeatmap,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[],
): boolean {
  if (last.size.width !== size.width || last.size.height !== size.height) return false;
  if (last.grid.width !== grid.width || last.grid.height !== grid.height) return false;
  const sameLine = (a: OverlayLine, b: OverlayLine) =>
    Object.is(a.x1, b.x1) && Object.is(a.y1, b.y1) && Object.is(a.x2, b.x2) && Object.is(a.y2, b.y2);
  if (last.lines.length !== lines.length || !last.lines.every((line, i) => sameLine(line, lines[i]))) return false;
  const cells = grid.width * grid.height;
  const bits = (scores: Float32Array) => new Uint32Array(scores.buffer, scores.byteOffset, cells);
  const [a, b] = [bits(last.grid.scores), bits(grid.scores)];
  for (let i = 0; i < cells; i++) if (a[i] !== b[i] || last.grid.reliable[i] !== grid.reliable[i]) return false;
  return true;
}

/**
 * PNG bytes of the overlay (RGB): rendered by the heatmap kernel into the PNG's rows, or (too large for it) by
 * renderPixels. A small grid drawn again over the same picture, alike in every input, gets a copy of the PNG
 * made before (the same bytes: encoding is deterministic).
 */
export function renderHeatmapPng(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[] = [],
): Uint8Array {
  const cells = grid.width * grid.height;
  const remembered = cells <= REMEMBERED_CELLS && grid.scores.length >= cells && grid.reliable.length >= cells;
  const last = remembered ? drawn.get(base) : undefined;
  if (last && drawnAlike(last, grid, size, lines)) return last.png.slice();
  const png = encodeHeatmapPng(base, grid, size, lines);
  if (remembered)
    drawn.set(base, {
      grid: {
        width: grid.width,
        height: grid.height,
        scores: grid.scores.slice(0, cells),
        reliable: grid.reliable.slice(0, cells),
      },
      size: { ...size },
      lines: lines.map((line) => ({ ...line })),
      png: png.slice(),
    });
  return png;
}

/**
 * PNG bytes of the overlay of a RatioGrid: renderHeatmapPng of its toUnit grid, the ratios taken to 0–1 by the
 * heatmap kernel per grid row (heatmapRatioCells), without the unit grid's two arrays (a map's block grid, ≈
 * 375 000 cells at 24 MP, never drawn twice).
 */
export function renderRatioHeatmapPng(
  base: GrayImage,
  grid: RatioGrid,
  size: { width: number; height: number },
): Uint8Array {
  const cells = (k: KernelExports, row: number, at: CellRowPlaces) => {
    new Float32Array(k.memory.buffer, at.scores, grid.width).set(grid.ratios.subarray(row, row + grid.width));
    return k.heatmapRatioCells(at.scores, grid.width, grid.full, at.cells);
  };
  const png = encodeRowsWasm(base, grid.width, grid.height, size, [], cells);
  if (png) return png;
  const unit = { width: grid.width, height: grid.height, ...toUnit(grid.ratios, grid.full) };
  return encodePng(renderPixels(base, unit, size, [], 3), size.width, size.height, 3);
}

/** renderHeatmapPng's drawing and encoding. */
function encodeHeatmapPng(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[],
): Uint8Array {
  const cells = (k: KernelExports, row: number, at: CellRowPlaces) => {
    new Float32Array(k.memory.buffer, at.scores, grid.width).set(grid.scores.subarray(row, row + grid.width));
    new Uint8Array(k.memory.buffer, at.reliable, grid.width).set(grid.reliable.subarray(row, row + grid.width));
    return k.heatmapCells(at.scores, at.reliable, grid.width, at.cells);
  };
  const png = encodeRowsWasm(base, grid.width, grid.height, size, lines, cells);
  return png ?? encodePng(renderPixels(base, grid, size, lines, 3), size.width, size.height, 3);
}

/** Where one grid row's inputs and cell colours lie in the kernels' memory (heatmapCells' layout). */
interface CellRowPlaces {
  scores: number;
  reliable: number;
  cells: number;
}

/**
 * Works out one grid row's cell colours (at its first cell `row`) into `at.cells` by a heatmap cells kernel;
 * returns the kernel's 1 when a cell of the row is not judged.
 */
type CellRowKernel = (k: KernelExports, row: number, at: CellRowPlaces) => number;

/**
 * The overlay's PNG rendered by the heatmap kernel into the PNG's rows, each grid row's cell colours worked
 * out by `cells`; null when the picture is too large for the kernels.
 */
function encodeRowsWasm(
  base: GrayImage,
  gridWidth: number,
  gridHeight: number,
  size: { width: number; height: number },
  lines: OverlayLine[],
  cells: CellRowKernel,
): Uint8Array | null {
  const { width, height } = size;
  const small = background(base, Math.max(width, height));
  const extra = 3 * align16(width * 4) + align16(gridWidth * 37) + 2 * align16(small.width * 4) + 16;
  return encodePngRows(width, height, 3, extra, (target) => {
    renderRowsWasm(small, gridWidth, gridHeight, size, target, cells);
    for (const line of lines) drawLine(target.bytes, width, height, line, 3, target.lineBytes, target.rows + 1);
  });
}

/**
 * renderPixels' RGB rows by the heatmap kernel (wasm/assembly/heatmap.ts), one row per call, straight into
 * the PNG's scanlines: `small` is fitBase's picture before its nearest-neighbour resample, done once per
 * source row through a per-column table (heatmapSourceRow; heatmapRow reads a row at the output's width; at
 * 24 MP `small` is that width already, at leuvenA's size each source row serves two output rows); `cells` works out the
 * colours of each grid row in use (as renderPixels), read per pixel through the cell-column table.
 */
function renderRowsWasm(
  small: GrayImage,
  gridWidth: number,
  gridHeight: number,
  size: { width: number; height: number },
  target: PngRowsTarget,
  cells: CellRowKernel,
): void {
  const { width, height } = size;
  const k = kernels();
  const cellXAt = target.extra;
  const sourceAt = cellXAt + align16(width * 4);
  const cellsAt = sourceAt + align16(width * 4);
  const scoresAt = cellsAt + gridWidth * 32;
  const reliableAt = scoresAt + gridWidth * 4;
  // Only when resampled: the per-column source table and the source row as it is; when drawn twice as wide, the
  // cells of the pairs of columns.
  const srcXAt = align16(reliableAt + gridWidth);
  const smallRowAt = srcXAt + align16(width * 4);
  const pairCellXAt = smallRowAt + align16(small.width * 4);
  const cellX = new Int32Array(target.buffer, cellXAt, width);
  for (let x = 0; x < width; x++) cellX[x] = Math.min(gridWidth - 1, Math.floor((x * gridWidth) / width));
  const resampled = small.width !== width;
  if (resampled) {
    const srcX = new Int32Array(target.buffer, srcXAt, width);
    for (let x = 0; x < width; x++) srcX[x] = Math.min(small.width - 1, Math.floor((x * small.width) / width));
  }
  // Twice the background's width (source column x >> 1) with both columns of each pair in one cell: rows without
  // hatching are drawn at the background's width, each pixel written twice (heatmapRow's `twice`; no resample).
  const doubled = width === 2 * small.width;
  const twice = doubled && pairsShareCells(cellX);
  if (twice) {
    const pairCellX = new Int32Array(target.buffer, pairCellXAt, small.width);
    for (let x = 0; x < small.width; x++) pairCellX[x] = cellX[2 * x];
  }
  // The grid row in use, whose cell colours the kernel works out (the ramp, as renderPixels).
  const places = { scores: scoresAt, reliable: reliableAt, cells: cellsAt };
  const source = new Float32Array(target.buffer, resampled ? smallRowAt : sourceAt, small.width);
  let cellRow = -1;
  let hatched = 0;
  let sourceRow = -1;
  let resampledRow = -1;
  for (let y = 0; y < height; y++) {
    const row = Math.min(gridHeight - 1, Math.floor((y * gridHeight) / height)) * gridWidth;
    const sy = Math.min(small.height - 1, Math.floor((y * small.height) / height));
    const out = target.rows + y * target.lineBytes + 1;
    // The same source row and cells as the row above, no hatching (the only part that depends on y): the same
    // pixels (every other row of a background drawn at twice its size, as leuvenA's block heatmaps).
    if (row === cellRow && sy === sourceRow && hatched === 0) {
      target.bytes.copyWithin(out, out - target.lineBytes, out - target.lineBytes + width * 3);
      continue;
    }
    if (row !== cellRow) {
      hatched = cells(k, row, places);
      cellRow = row;
    }
    if (sy !== sourceRow) {
      source.set(small.data.subarray(sy * small.width, (sy + 1) * small.width));
      sourceRow = sy;
    }
    if (twice && hatched === 0) {
      k.heatmapRow(smallRowAt, pairCellXAt, cellsAt, y, small.width, out, 0, 1);
      continue;
    }
    if (resampled && resampledRow !== sy) {
      k.heatmapSourceRow(smallRowAt, srcXAt, width, sourceAt, doubled ? 1 : 0);
      resampledRow = sy;
    }
    k.heatmapRow(sourceAt, cellXAt, cellsAt, y, width, out, hatched, 0);
  }
}

/** Whether output columns 2j and 2j + 1 lie in the same cell for every j (`cellX` of an even width). */
function pairsShareCells(cellX: Int32Array): boolean {
  for (let x = 0; x < cellX.length; x += 2) if (cellX[x] !== cellX[x + 1]) return false;
  return true;
}

/**
 * Manipulation localiser (models/manipulation.md): a fully-convolutional network over the image and
 * its noise residual, run tile by tile on the image box-downscaled to ≤ 1024 px. Returns a heatmap at
 * a quarter of model scale with a reliability mask, and the highest tile score.
 */
import type { GrayImage } from "../images/gray";
import { grayFromRgb } from "./heatmap-grid";
import { MIN_SIDE, modelScale, tiles } from "./manipulation-input";
import { manipulationModel, type ModelFile, type ModelIdentity } from "./models";
import { runModel } from "./runtime";
import type { PixelSource } from "./raster";

/** Heatmap cells are 4 × 4 model pixels (the network's output stride). */
export const CELL = 4;
/** A cell whose luma varies less than this (0–255) is flat: no trace can be seen there. */
const FLAT_CELL_STD = 1.5;
/** Cells this close to black or white are clipped: no trace can be seen there either. */
const CLIPPED_LOW = 5;
const CLIPPED_HIGH = 250;

export interface ManipulationResult {
  /** Highest tile score, 0–1. */
  score: number;
  tileScores: Array<{ x: number; y: number; width: number; height: number; score: number }>;
  /** Per-cell probability, gridWidth × gridHeight. */
  heat: Float32Array;
  /** 1 = the model can judge this cell, 0 = flat or clipped. */
  reliable: Uint8Array;
  gridWidth: number;
  gridHeight: number;
  /** Luma of the image at model scale (heatmap background). */
  base: GrayImage;
  factor: number;
  model: ModelIdentity;
}

export async function detectManipulationIn(
  source: PixelSource,
  model: ModelFile = manipulationModel,
): Promise<ManipulationResult> {
  const scaled = modelScale(source);
  if (scaled.width < MIN_SIDE || scaled.height < MIN_SIDE)
    throw new RangeError(`image ${scaled.width}x${scaled.height} below ${MIN_SIDE}px at model scale`);
  const gridWidth = Math.floor(scaled.width / CELL);
  const gridHeight = Math.floor(scaled.height / CELL);
  const heat = new Float32Array(gridWidth * gridHeight);
  const trust = new Float32Array(gridWidth * gridHeight).fill(-1);
  const tileScores: ManipulationResult["tileScores"] = [];
  for (const tile of tiles(scaled)) {
    const out = await runModel(model, { name: "image", data: tile.tensor, dims: [1, 3, tile.height, tile.width] }, [
      "heatmap",
      "score",
    ]);
    tileScores.push({ x: tile.x, y: tile.y, width: tile.width, height: tile.height, score: out.score.data[0] });
    pasteTile(heat, trust, gridWidth, gridHeight, out.heatmap.data, tile);
  }
  const base = grayFromRgb(scaled.rgb, scaled.width, scaled.height);
  return {
    score: Math.max(...tileScores.map((t) => t.score)),
    tileScores,
    heat,
    reliable: reliability(base, gridWidth, gridHeight),
    gridWidth,
    gridHeight,
    base,
    factor: scaled.factor,
    model: model.identity,
  };
}

/**
 * Copies a tile's quarter-resolution output into the image grid. Where tiles overlap, each cell keeps
 * the value from the tile in which it lies farthest from a border (zero padding makes the network
 * unreliable near tile borders; borders that are image borders do not count).
 */
function pasteTile(
  heat: Float32Array,
  trust: Float32Array,
  gw: number,
  gh: number,
  tileHeat: Float32Array,
  tile: { x: number; y: number; width: number; height: number },
): void {
  const tw = tile.width / CELL;
  const th = tile.height / CELL;
  const gx0 = Math.floor(tile.x / CELL);
  const gy0 = Math.floor(tile.y / CELL);
  const open = { left: gx0 > 0, top: gy0 > 0, right: gx0 + tw < gw, bottom: gy0 + th < gh };
  for (let y = 0; y < th && gy0 + y < gh; y++) {
    for (let x = 0; x < tw && gx0 + x < gw; x++) {
      const margin = Math.min(
        open.left ? x : Infinity,
        open.right ? tw - 1 - x : Infinity,
        open.top ? y : Infinity,
        open.bottom ? th - 1 - y : Infinity,
      );
      const cell = (gy0 + y) * gw + gx0 + x;
      if (margin > trust[cell]) {
        trust[cell] = margin;
        heat[cell] = tileHeat[y * tw + x];
      }
    }
  }
}

/**
 * Flat or clipped cells cannot be judged; they are drawn hatched, not as clean. Measured over the
 * cell and its neighbours (12 × 12 px), so single dark cells in a textured area are not hatched.
 */
function reliability(base: GrayImage, gw: number, gh: number): Uint8Array {
  const reliable = new Uint8Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      const x0 = Math.max(0, gx - 1) * CELL;
      const x1 = Math.min(gw, gx + 2) * CELL;
      const y0 = Math.max(0, gy - 1) * CELL;
      const y1 = Math.min(gh, gy + 2) * CELL;
      let sum = 0;
      let squares = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const v = base.data[y * base.width + x];
          sum += v;
          squares += v * v;
        }
      }
      const n = (x1 - x0) * (y1 - y0);
      const mean = sum / n;
      const std = Math.sqrt(Math.max(0, squares / n - mean * mean));
      reliable[gy * gw + gx] = std >= FLAT_CELL_STD && mean > CLIPPED_LOW && mean < CLIPPED_HIGH ? 1 : 0;
    }
  }
  return reliable;
}

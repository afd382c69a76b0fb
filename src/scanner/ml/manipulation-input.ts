/**
 * Input of the manipulation model, identical to models/training/manipulation_model.py: the image
 * box-downscaled by an integer factor to at most 1024 px on its longer side, cut into tiles of at most
 * 256 × 256 (multiples of 4), evenly spread with ≥ 32 px overlap, RGB / 255, NCHW.
 */
import { boxDownscale, boxFactor, type PixelSource } from "./raster";

export const MAX_SIDE = 1024;
export const TILE = 256;
/** Below this (after downscaling) there is too little image to localise anything. */
export const MIN_SIDE = 64;
/** Neighbouring tiles overlap at least this much, so cells near tile borders can be discarded. */
const OVERLAP = 32;

export interface ScaledImage {
  width: number;
  height: number;
  /** RGB float 0–255, row-major. */
  rgb: Float32Array;
  /** Source pixels per model pixel along each axis. */
  factor: number;
}

export function modelScale(source: PixelSource): ScaledImage {
  const factor = boxFactor(source.width, source.height, MAX_SIDE);
  const shared = source.shared?.scaled;
  if (shared && shared.factor === factor) return shared;
  return { ...boxDownscale(source, factor), factor };
}

/** Tile length and evenly spread starts along one axis (same rule as training's `tile_axis`). */
export function tileAxis(size: number): { length: number; starts: number[] } {
  const length = Math.min(TILE, size - (size % 4));
  if (length >= size - 3) return { length, starts: [0] };
  const count = 1 + Math.ceil((size - length) / (length - OVERLAP));
  return { length, starts: Array.from({ length: count }, (_, i) => Math.floor((i * (size - length)) / (count - 1))) };
}

export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
  /** 1 × 3 × height × width, 0–1. */
  tensor: Float32Array;
}

/** All tiles of the scaled image, row by row. */
export function* tiles(image: ScaledImage): Generator<Tile> {
  const across = tileAxis(image.width);
  const down = tileAxis(image.height);
  for (const y of down.starts) for (const x of across.starts) yield cutTile(image, x, y, across.length, down.length);
}

function cutTile(image: ScaledImage, x0: number, y0: number, width: number, height: number): Tile {
  const plane = width * height;
  const tensor = new Float32Array(3 * plane);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = ((y0 + y) * image.width + x0 + x) * 3;
      const o = y * width + x;
      tensor[o] = image.rgb[p] / 255;
      tensor[plane + o] = image.rgb[p + 1] / 255;
      tensor[2 * plane + o] = image.rgb[p + 2] / 255;
    }
  }
  return { x: x0, y: y0, width, height, tensor };
}

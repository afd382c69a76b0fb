/**
 * The picture that copy-move and the cut-edge check (seams) search, made once per file: full resolution up
 * to FULL_SEARCH_PIXELS (a copy's shift stays a whole pixel, a cut edge one pixel sharp), larger pictures
 * area-averaged to REDUCED_SEARCH_PIXELS; and how the heatmaps of checks on it are drawn (searchHeatmapPng).
 */
import { oncePer } from "../../lib/once-per";
import type { BlockMaps } from "./block-analysis";
import { type DecodeProduct, decoded } from "./file-decode";
import type { GrayImage } from "./gray";
import { downscaleWasm } from "./gray-wasm";
import { halfHeatmapSize, type OverlayLine, renderHeatmapPng, type ScoreGrid } from "./heatmap";
import { isJpeg } from "./jpeg-markers";
import { LumaDownscaler } from "./luma-downscale";
import { isPng } from "./png-chunks";
import { decodeSmallLuma } from "./thumbnail-compare";

/** Pictures up to this size are searched at full resolution, where a copy's shift is a whole pixel. */
export const FULL_SEARCH_PIXELS = 1_000_000;
/**
 * Larger pictures are area-averaged down to this size: the shift becomes fractional there and copies
 * match only where they survive the reduction, so the search is kept small (its cost grows with the pixels).
 */
const REDUCED_SEARCH_PIXELS = 500_000;
/** Up to this size the picture is decoded for the search (else the 1/4-scale preview is used). */
const FULL_DECODE_PIXELS = 4_000_000;

/** The longer side of the searched picture for a width × height one. */
function searchSide(width: number, height: number): number {
  const side = Math.max(width, height);
  const pixels = width * height;
  return pixels <= FULL_SEARCH_PIXELS ? side : Math.floor(side * Math.sqrt(REDUCED_SEARCH_PIXELS / pixels));
}

/**
 * The search picture from the file's shared decode: luma of every band, area-averaged to at most
 * the search size (searchSide), as `decodeSmallLuma` + `downscale` give it (the same values, streamed). Baseline JPEGs
 * (the same strip decoder), 8-bit PNGs (lossless: the same samples as photon's) and whatever the pass read from
 * photon's bitmap (WebP, interlaced PNG); streamed PNGs of other depths keep photon's conversion (decodeSmallLuma).
 */
export const searchPixels: DecodeProduct<GrayImage> = {
  id: "copy-move-luma",
  kind: "pixels",
  sink(width, height, bytes, decodedBy) {
    const samePixels = decodedBy === "photon" || isJpeg(bytes) || (isPng(bytes) && bytes[24] === 8);
    if (width * height > FULL_DECODE_PIXELS || !samePixels) return null;
    // Streamed (images/luma-downscale.ts): above FULL_SEARCH_PIXELS no full-size luma is held (16 MB at 4 MP).
    const scaler = new LumaDownscaler(width, height, searchSide(width, height));
    return { add: (band) => scaler.add(band), finish: () => scaler.finish() };
  },
};

/** A large photo's search picture: the block maps' 1/4-scale preview, reduced once per file (gray.ts `downscale`'s values). */
const reducedPreview = oncePer((maps: BlockMaps) =>
  downscaleWasm(maps.preview, searchSide(maps.preview.width, maps.preview.height)),
);

/**
 * The picture searched by copy-move and seams: the shared decode's luma (already reduced)
 * when it was built, else decoded here; above FULL_DECODE_PIXELS (or when that fails) the block maps'
 * 1/4-scale preview, reduced.
 */
export async function searchPicture(bytes: Uint8Array, maps: BlockMaps): Promise<GrayImage> {
  const full =
    maps.width * maps.height <= FULL_DECODE_PIXELS
      ? ((await decoded(bytes, searchPixels)) ?? decodeSmallLuma(bytes, FULL_DECODE_PIXELS))
      : null;
  return full ? downscaleWasm(full, searchSide(full.width, full.height)) : reducedPreview(maps);
}

/**
 * The background of a searched picture's heatmap, once per file: the block maps' 1/4-scale preview, cropped to the
 * picture (its last block row and column may reach past it). At half the picture's size each of its pixels is a
 * 2 × 2 square, as in the block maps' own heatmaps, which the PNG's deflate packs far better than a half-size copy of
 * the searched picture (a 0.4 MP photo's copy-move heatmap 103 → 48 KB, its cut edges' and blur's 89 → 29 KB, ≈ 1 ms
 * less CPU); larger photos' are reduced to the heatmap's size.
 */
const heatmapBackground = oncePer((maps: BlockMaps): GrayImage => {
  const { preview } = maps;
  const width = Math.min(preview.width, Math.ceil(maps.width / 4));
  const height = Math.min(preview.height, Math.ceil(maps.height / 4));
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(preview.data.subarray(y * preview.width, y * preview.width + width), y * width);
  return { width, height, data };
});

/**
 * The heatmap PNG of a check on the searched picture `searched` (copy-move, cut edges, blur; `grid` over it): at half
 * its size (halfHeatmapSize) over the file's preview (heatmapBackground), the same look as the block maps' heatmaps.
 */
export function searchHeatmapPng(
  maps: BlockMaps,
  searched: GrayImage,
  grid: ScoreGrid,
  lines?: OverlayLine[],
): Uint8Array {
  return renderHeatmapPng(heatmapBackground(maps), grid, halfHeatmapSize(searched.width, searched.height), lines);
}

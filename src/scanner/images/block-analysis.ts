/**
 * One pass over an image's 8×8 luminance blocks that computes everything the pixel detectors
 * need: block mean/activity, clipping, error level (re-quantisation error at quality 90), a
 * high-pass noise estimate, DCT coefficient histograms (JPEG only) and a 1/4-scale preview.
 *
 * For baseline JPEGs the blocks come straight from the entropy-coded coefficients, one block at
 * a time, so a 24 MP photo never exists as a full-size bitmap (≈ 6 MB of per-block maps instead
 * of ≈ 100 MB of RGBA). Other images are decoded with photon when they are small enough.
 */
import { PhotonImage } from "@cf-wasm/photon";
import { forwardDct, inverseDct } from "./dct";
import { type GrayImage, lumaFromRgba } from "./gray";
import { decodeLumaCoefficients } from "./jpeg-coefficients";
import { isJpeg, type JpegStructure, parseJpegStructure, ZIGZAG } from "./jpeg-markers";
import { declaredSize, fitsPixelDecode } from "./pixel-budget";
import { STANDARD_LUMA, scaledTable } from "./quant-tables";

/** Quality of the re-compression used for error level analysis. */
export const ELA_QUALITY = 90;
/** Zig-zag positions 1..HISTOGRAM_FREQUENCIES of the luminance AC coefficients get histograms. */
export const HISTOGRAM_FREQUENCIES = 9;
/** Histograms cover quantized values −HISTOGRAM_RANGE..HISTOGRAM_RANGE. */
export const HISTOGRAM_RANGE = 60;

/** Per-8×8-block maps of one image (row-major, blocksWide × blocksHigh). */
export interface BlockMaps {
  width: number;
  height: number;
  blocksWide: number;
  blocksHigh: number;
  source: "jpeg-coefficients" | "pixels";
  mean: Float32Array;
  /** Standard deviation of the block's pixels. */
  activity: Float32Array;
  /** Mean absolute difference between the block and its quality-90 re-compression. */
  ela: Float32Array;
  /** Noise sigma estimated from a 4-neighbour high-pass residual inside the block. */
  noise: Float32Array;
  /** 1 when more than half the block's pixels are clipped (≤ 2 or ≥ 253). */
  clipped: Uint8Array;
  /** 1/4-scale luminance (each block gives 2×2 pixels). */
  preview: GrayImage;
  /** Quantized-coefficient histograms of the first AC frequencies (JPEG only). */
  histograms: Int32Array[] | null;
  /** Luminance quantisation table (JPEG only, natural order). */
  lumaTable: Uint16Array | null;
}

/** Result of building the maps: the maps, or why they could not be built. */
export type BlockMapsResult = { ok: true; maps: BlockMaps; structure: JpegStructure | null } | { ok: false; reason: string; structure: JpegStructure | null };

const ELA_TABLE = scaledTable(STANDARD_LUMA, ELA_QUALITY);

function createMaps(width: number, height: number, source: BlockMaps["source"], withHistograms: boolean): BlockMaps {
  const blocksWide = Math.ceil(width / 8);
  const blocksHigh = Math.ceil(height / 8);
  const n = blocksWide * blocksHigh;
  return {
    width,
    height,
    blocksWide,
    blocksHigh,
    source,
    mean: new Float32Array(n),
    activity: new Float32Array(n),
    ela: new Float32Array(n),
    noise: new Float32Array(n),
    clipped: new Uint8Array(n),
    preview: { width: blocksWide * 2, height: blocksHigh * 2, data: new Float32Array(n * 4) },
    histograms: withHistograms ? Array.from({ length: HISTOGRAM_FREQUENCIES }, () => new Int32Array(2 * HISTOGRAM_RANGE + 1)) : null,
    lumaTable: null,
  };
}

const coef = new Float64Array(64);
const recompressed = new Float64Array(64);
const shifted = new Float64Array(64);

/** Fills every per-block statistic from the block's decoded pixels (0–255, natural order). */
function measureBlock(maps: BlockMaps, row: number, col: number, px: Float64Array): void {
  const i = row * maps.blocksWide + col;
  let sum = 0;
  let sq = 0;
  let clipped = 0;
  for (let k = 0; k < 64; k++) {
    const v = px[k];
    sum += v;
    sq += v * v;
    if (v <= 2 || v >= 253) clipped++;
    shifted[k] = v - 128;
  }
  const mean = sum / 64;
  maps.mean[i] = mean;
  maps.activity[i] = Math.sqrt(Math.max(0, sq / 64 - mean * mean));
  maps.clipped[i] = clipped > 32 ? 1 : 0;
  // Error level: quantise the block's DCT with the quality-90 table and measure the change.
  forwardDct(shifted, coef);
  for (let k = 0; k < 64; k++) coef[k] = Math.round(coef[k] / ELA_TABLE[k]) * ELA_TABLE[k];
  inverseDct(coef, recompressed);
  let err = 0;
  for (let k = 0; k < 64; k++) err += Math.abs(Math.min(255, Math.max(0, Math.round(recompressed[k] + 128))) - px[k]);
  maps.ela[i] = err / 64;
  // Noise: residual against the 4-neighbour mean on the 6×6 interior (white noise σ → E|r| = σ·√1.25·√(2/π)).
  let res = 0;
  for (let y = 1; y < 7; y++)
    for (let x = 1; x < 7; x++) {
      const k = y * 8 + x;
      res += Math.abs(px[k] - (px[k - 1] + px[k + 1] + px[k - 8] + px[k + 8]) / 4);
    }
  maps.noise[i] = (res / 36) * Math.sqrt(Math.PI / 2) / Math.sqrt(1.25);
  const pw = maps.preview.width;
  for (let qy = 0; qy < 2; qy++)
    for (let qx = 0; qx < 2; qx++) {
      let s = 0;
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) s += px[(qy * 4 + y) * 8 + qx * 4 + x];
      maps.preview.data[(row * 2 + qy) * pw + col * 2 + qx] = s / 16;
    }
}

const dequantized = new Float64Array(64);
const pixels = new Float64Array(64);

function fromJpeg(bytes: Uint8Array, structure: JpegStructure): BlockMapsResult {
  const frame = structure.frame;
  const table = frame ? structure.quantTables.get(frame.components[0]?.tq ?? 0) : undefined;
  if (!frame || !table) return { ok: false, reason: "no frame header or quantisation table", structure };
  const maps = createMaps(frame.width, frame.height, "jpeg-coefficients", true);
  maps.lumaTable = table;
  const hist = maps.histograms as Int32Array[];
  const result = decodeLumaCoefficients(bytes, structure, (row, col, q) => {
    for (let f = 0; f < HISTOGRAM_FREQUENCIES; f++) {
      const v = q[ZIGZAG[f + 1]];
      if (v >= -HISTOGRAM_RANGE && v <= HISTOGRAM_RANGE) hist[f][v + HISTOGRAM_RANGE]++;
    }
    for (let k = 0; k < 64; k++) dequantized[k] = q[k] * table[k];
    inverseDct(dequantized, pixels);
    for (let k = 0; k < 64; k++) pixels[k] = Math.min(255, Math.max(0, Math.round(pixels[k] + 128)));
    measureBlock(maps, row, col, pixels);
  });
  if (result.error) return { ok: false, reason: result.error, structure };
  return { ok: true, maps, structure };
}

function fromPixels(bytes: Uint8Array): BlockMapsResult {
  const size = declaredSize(bytes);
  if (!size) return { ok: false, reason: "image could not be decoded", structure: null };
  if (!fitsPixelDecode(bytes)) return { ok: false, reason: `image too large to decode to pixels (${size.width}×${size.height})`, structure: null };
  let image: PhotonImage | null = null;
  let gray: GrayImage;
  try {
    image = PhotonImage.new_from_byteslice(bytes);
    gray = lumaFromRgba(image.get_raw_pixels(), image.get_width(), image.get_height());
  } catch {
    return { ok: false, reason: "image could not be decoded", structure: null };
  } finally {
    image?.free();
  }
  const maps = createMaps(gray.width, gray.height, "pixels", false);
  for (let row = 0; row < maps.blocksHigh; row++)
    for (let col = 0; col < maps.blocksWide; col++) {
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          const sy = Math.min(gray.height - 1, row * 8 + y);
          const sx = Math.min(gray.width - 1, col * 8 + x);
          pixels[y * 8 + x] = Math.round(gray.data[sy * gray.width + sx]);
        }
      measureBlock(maps, row, col, pixels);
    }
  return { ok: true, maps, structure: null };
}

const cache = new WeakMap<Uint8Array, BlockMapsResult>();

/**
 * Block maps of an image, computed once per byte array (the detectors of one file share them).
 * Baseline JPEG → coefficient path; progressive JPEG, PNG, WebP → pixel path up to MAX_PIXEL_DECODE.
 */
export function blockMaps(bytes: Uint8Array): BlockMapsResult {
  const hit = cache.get(bytes);
  if (hit) return hit;
  let result: BlockMapsResult;
  if (isJpeg(bytes)) {
    const structure = parseJpegStructure(bytes);
    result = structure.frame?.baseline ? fromJpeg(bytes, structure) : fromPixels(bytes);
    if (!result.structure) result = { ...result, structure };
  } else result = fromPixels(bytes);
  cache.set(bytes, result);
  return result;
}

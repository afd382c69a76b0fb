/**
 * Pixel access for the models without a full-size bitmap where it can be avoided: baseline JPEGs
 * and non-interlaced PNGs are decoded while they are read (streamed-source.ts, a few MB for 24 MP);
 * other images are decoded with photon (callers keep them under MAX_PIXEL_DECODE) and read in row
 * strips (crop → raw pixels → free), so there is no second full-size copy in JS. Plain RGBA
 * buffers (live capture) go through the same interface.
 */
import { PhotonImage, crop } from "@cf-wasm/photon";
import { streamedSource } from "./streamed-source";

/** RGBA pixels, row-major, 4 bytes per pixel. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Something the models can read rows from. */
export interface PixelSource {
  width: number;
  height: number;
  /** RGBA of rows y … y+count-1 (full width); valid until the next call. Throws if the data is corrupt. */
  rows(y: number, count: number): Uint8Array;
}

export function rgbaSource(image: RgbaImage): PixelSource {
  const stride = image.width * 4;
  return {
    width: image.width,
    height: image.height,
    rows: (y, count) => image.data.subarray(y * stride, (y + count) * stride),
  };
}

/**
 * JPEG/PNG/WebP bytes as a strip reader; `close()` frees what it holds. Baseline JPEGs and
 * non-interlaced PNGs stream (corrupt data throws from `rows`); anything else is decoded in full by
 * photon here (throws if undecodable).
 */
export function decodeToSource(bytes: Uint8Array): PixelSource & { close(): void } {
  const streamed = streamedSource(bytes);
  return typeof streamed !== "string" ? streamed : photonSource(bytes);
}

/** The whole picture decoded by photon, read in row strips (callers keep it under MAX_PIXEL_DECODE). */
export function photonSource(bytes: Uint8Array): PixelSource & { close(): void } {
  const image = PhotonImage.new_from_byteslice(bytes);
  const width = image.get_width();
  const height = image.get_height();
  return {
    width,
    height,
    rows(y, count) {
      const strip = crop(image, 0, y, width, y + count);
      try {
        return strip.get_raw_pixels();
      } finally {
        strip.free();
      }
    },
    close: () => image.free(),
  };
}

/** Integer box-downscale factor that brings the longer side to at most `maxSide`. */
export function boxFactor(width: number, height: number, maxSide: number): number {
  return Math.max(1, Math.ceil(Math.max(width, height) / maxSide));
}

/**
 * Averages every factor × factor block (the right/bottom remainder is dropped), reading `factor`
 * rows at a time. Output RGB as float 0–255 per pixel, plus luma for heatmap backgrounds.
 * Training does the same with numpy (models/training/manipulation_model.py: box_downscale).
 */
export function boxDownscale(
  source: PixelSource,
  factor: number,
): { width: number; height: number; rgb: Float32Array } {
  const width = Math.floor(source.width / factor);
  const height = Math.floor(source.height / factor);
  const rgb = new Float32Array(width * height * 3);
  const sums = new Float64Array(width * 3);
  const area = factor * factor;
  const stripRows = factor * Math.max(1, Math.floor(64 / factor));
  for (let y0 = 0; y0 < height * factor; y0 += stripRows) {
    const count = Math.min(stripRows, height * factor - y0);
    const strip = source.rows(y0, count);
    for (let oy = 0; oy < count / factor; oy++) {
      sums.fill(0);
      for (let dy = 0; dy < factor; dy++) {
        let p = (oy * factor + dy) * source.width * 4;
        for (let ox = 0, o = 0; ox < width; ox++, o += 3) {
          for (let dx = 0; dx < factor; dx++, p += 4) {
            sums[o] += strip[p];
            sums[o + 1] += strip[p + 1];
            sums[o + 2] += strip[p + 2];
          }
        }
      }
      const out = (y0 / factor + oy) * width * 3;
      for (let i = 0; i < width * 3; i++) rgb[out + i] = sums[i] / area;
    }
  }
  return { width, height, rgb };
}

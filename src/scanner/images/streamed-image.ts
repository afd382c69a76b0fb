/**
 * The formats read without a full-size bitmap: baseline and progressive JPEGs (jpeg-strip-decoder.ts,
 * jpeg-progressive.ts) and non-interlaced PNGs (png-strip-decoder.ts). Everything else (WebP, interlaced PNG,
 * other JPEG codings) is decoded whole by photon, within MAX_PIXEL_DECODE (pixel-budget.ts), and read in bands
 * of that bitmap (`openPixels`).
 */
import { PhotonImage } from "@cf-wasm/photon";
import { countDecode } from "./decode-count";
import { isJpeg } from "./jpeg-markers";
import { JpegStripDecoder } from "./jpeg-strip-decoder";
import { isPng } from "./png-chunks";
import { PngStripDecoder } from "./png-strip-decoder";
import { fitsPixelDecode } from "./pixel-budget";
import type { RgbaBandSource } from "./rgba-band";

/** A strip decoder for these bytes, or why neither reads them (callers fall back to photon). */
export function openStreamed(bytes: Uint8Array): RgbaBandSource | string {
  const decoder = isJpeg(bytes) ? JpegStripDecoder.open(bytes) : isPng(bytes) ? PngStripDecoder.open(bytes) : null;
  if (decoder === null) return "neither JPEG nor PNG";
  if (typeof decoder === "string") return decoder;
  return countedSource(bytes, decoder);
}

/** `decoder`'s bands, the decode of `bytes` counted when its first band is read (opening only parses the headers). */
export function countedSource(bytes: Uint8Array, decoder: RgbaBandSource): RgbaBandSource {
  let counted = false;
  return {
    width: decoder.width,
    height: decoder.height,
    next() {
      if (!counted) {
        counted = true;
        countDecode(bytes, "pixels");
      }
      return decoder.next();
    },
  };
}

/** Rows per band of a decoded bitmap: the band kernels copy a band into their scratch area, which never shrinks. */
const BITMAP_BAND_ROWS = 16;

/** openPixels' answer for a picture neither streamed nor within MAX_PIXEL_DECODE. */
export const TOO_LARGE = "too large to decode to pixels";

/** How a file's pixels are read: streamed, or photon's whole bitmap in bands. */
export interface OpenedPixels {
  source: RgbaBandSource;
  decodedBy: "strips" | "photon";
}

/**
 * The file's pixels as bands: a strip decoder when one reads the format, else photon's bitmap when the declared
 * size fits MAX_PIXEL_DECODE; or why neither (too large, undecodable). Photon's decode is counted here.
 */
export function openPixels(bytes: Uint8Array): OpenedPixels | string {
  const streamed = openStreamed(bytes);
  if (typeof streamed !== "string") return { source: streamed, decodedBy: "strips" };
  if (!fitsPixelDecode(bytes)) return TOO_LARGE;
  const bitmap = decodeWithPhoton(bytes);
  return bitmap ? { source: bitmapBands(bitmap), decodedBy: "photon" } : "could not be decoded";
}

/** The whole picture decoded by photon (RGBA in JavaScript memory, photon's own freed), or null. */
export function decodeWithPhoton(bytes: Uint8Array): { width: number; height: number; rgba: Uint8Array } | null {
  let image: PhotonImage | null = null;
  try {
    countDecode(bytes, "pixels");
    image = PhotonImage.new_from_byteslice(bytes);
    return { width: image.get_width(), height: image.get_height(), rgba: image.get_raw_pixels() };
  } catch {
    return null;
  } finally {
    image?.free();
  }
}

/** A decoded bitmap as bands of `rowsPerBand` rows (views, no copies). */
export function bitmapBands(
  image: { width: number; height: number; rgba: Uint8Array },
  rowsPerBand = BITMAP_BAND_ROWS,
): RgbaBandSource {
  const stride = image.width * 4;
  let y = 0;
  return {
    width: image.width,
    height: image.height,
    next() {
      if (y >= image.height) return null;
      const rows = Math.min(rowsPerBand, image.height - y);
      const band = { y, rows, rgba: image.rgba.subarray(y * stride, (y + rows) * stride) };
      y += rows;
      return band;
    },
  };
}

/**
 * The formats read without a full-size bitmap: baseline JPEGs (jpeg-strip-decoder.ts) and
 * non-interlaced PNGs (png-strip-decoder.ts). Everything else is decoded whole by photon, within
 * MAX_PIXEL_DECODE (pixel-budget.ts).
 */
import { isJpeg } from "./jpeg-markers";
import { JpegStripDecoder } from "./jpeg-strip-decoder";
import { isPng } from "./png-chunks";
import { PngStripDecoder } from "./png-strip-decoder";
import type { RgbaBandSource } from "./rgba-band";

/** A strip decoder for these bytes, or why neither reads them (callers fall back to photon). */
export function openStreamed(bytes: Uint8Array): RgbaBandSource | string {
  if (isJpeg(bytes)) return JpegStripDecoder.open(bytes);
  if (isPng(bytes)) return PngStripDecoder.open(bytes);
  return "neither JPEG nor PNG";
}

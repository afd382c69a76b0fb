/**
 * The formats read without a full-size bitmap: baseline and progressive JPEGs (jpeg-strip-decoder.ts,
 * jpeg-progressive.ts) and non-interlaced PNGs (png-strip-decoder.ts). Everything else is decoded
 * whole by photon, within MAX_PIXEL_DECODE (pixel-budget.ts).
 */
import { countDecode } from "./decode-count";
import { isJpeg } from "./jpeg-markers";
import { JpegStripDecoder } from "./jpeg-strip-decoder";
import { isPng } from "./png-chunks";
import { PngStripDecoder } from "./png-strip-decoder";
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

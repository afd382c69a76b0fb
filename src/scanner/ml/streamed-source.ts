/**
 * A baseline JPEG or non-interlaced PNG as a PixelSource without a full-size bitmap: rows come from
 * a strip decoder (images/streamed-image.ts) and only the rows a caller may still ask for are kept. The models' readers
 * (recapturePatches, boxDownscale) ask with non-decreasing y; a request further up restarts the
 * decode from the top (correct, just slower).
 */
import type { RgbaBandSource } from "../images/rgba-band";
import { openStreamed } from "../images/streamed-image";
import type { PixelSource } from "./raster";

/** The source, or why the strip decoder cannot read these bytes (the caller falls back to photon). */
export function streamedSource(bytes: Uint8Array): (PixelSource & { close(): void }) | string {
  const first = openStreamed(bytes);
  if (typeof first === "string") return first;
  const stride = first.width * 4;
  let decoder = first;
  let buffer = new Uint8Array(0);
  /** Image row of buffer row 0, and rows held; start + held = the next row the decoder gives. */
  let start = 0;
  let held = 0;

  const restart = () => {
    decoder = openStreamed(bytes) as RgbaBandSource;
    start = 0;
    held = 0;
  };

  return {
    width: first.width,
    height: first.height,
    rows(y, count) {
      if (y < start) restart();
      const drop = Math.min(held, y - start);
      if (drop > 0) {
        buffer.copyWithin(0, drop * stride, held * stride);
        start += drop;
        held -= drop;
      }
      while (start + held < y + count) {
        const band = decoder.next();
        if (!band) throw new RangeError(`rows ${y}…${y + count - 1} outside the image (${first.height} rows)`);
        // Rows above y (only when skipping ahead) are not kept.
        const skip = Math.min(band.rows, Math.max(0, y - band.y));
        if (held === 0) start = band.y + skip;
        const keep = band.rows - skip;
        if ((held + keep) * stride > buffer.length) {
          const grown = new Uint8Array((held + keep) * stride);
          grown.set(buffer.subarray(0, held * stride));
          buffer = grown;
        }
        buffer.set(band.rgba.subarray(skip * stride), held * stride);
        held += keep;
      }
      return buffer.subarray(0, count * stride);
    },
    close() {
      buffer = new Uint8Array(0);
    },
  };
}

/**
 * What the streaming decoders (jpeg-strip-decoder.ts, png-strip-decoder.ts) share: they hand out an
 * image as bands of full-width RGBA rows, top to bottom, and report damage found on the way as an
 * ImageDataError, so no caller needs to know which format it reads.
 */

/** The image data is corrupt or truncated; thrown while decoding rows. */
export class ImageDataError extends Error {
  override name = "ImageDataError";
}

/** One band of decoded rows. */
export interface RgbaBand {
  /** First image row in the band. */
  y: number;
  rows: number;
  /** rows × width × 4 bytes; reused by the next call to `next()`. */
  rgba: Uint8Array;
}

/** RGBA rows top to bottom, one band per call: a strip decoder, or a decoded picture as one band. */
export interface RgbaBandSource {
  readonly width: number;
  readonly height: number;
  /** The next band, or null after the last. Throws ImageDataError on corrupt data. */
  next(): RgbaBand | null;
}

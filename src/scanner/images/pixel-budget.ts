/**
 * What may be decoded to a full bitmap with photon. A 128 MB isolate must hold photon's RGBA in wasm
 * memory (24 MB at 6 MP, and that memory never shrinks), the decoder's own buffers and a JS copy.
 * Baseline and progressive JPEGs and non-interlaced PNGs are not bound by it: they are read block by block
 * or streamed in strips (jpeg-strip-decoder.ts, jpeg-progressive.ts, png-strip-decoder.ts). The size is taken from the header BEFORE
 * decoding: photon allocates whatever a header declares, so a tiny file claiming 60 000 × 60 000
 * pixels must never reach it.
 */
import { parseJpegStructure } from "./jpeg-markers";
import { pngSize } from "./png-chunks";

/** Largest image decoded to a full bitmap with photon (interlaced PNG, WebP, JPEG neither baseline nor progressive). */
export const MAX_PIXEL_DECODE = 6_000_000;

/**
 * Largest progressive JPEG given a 1/8-scale preview from its DC coefficients (jpeg-dc-preview.ts):
 * ≈ 12 bytes per 8×8 block, ≈ 23 MB at this size. Bounds what a hostile header can make us allocate.
 */
export const MAX_DC_PREVIEW_SOURCE_PIXELS = 120_000_000;

/**
 * Largest non-interlaced PNG streamed through png-strip-decoder.ts. Memory grows with the width only;
 * the limit bounds CPU time, since deflate packs a flat 50 MP picture into ≈ 150 KB (a 24 MP photo
 * PNG decodes in ≈ 3 s, a flat 49 MP one in ≈ 1 s: docs/benchmarks.md, section ml-models).
 */
export const MAX_STREAMED_PNG_PIXELS = 50_000_000;

/**
 * Largest baseline or progressive JPEG streamed through jpeg-strip-decoder.ts (a progressive one
 * through jpeg-progressive.ts, which also holds one bit reader per scan). Memory grows with the width only,
 * but time grows with the area: a flat 400 MP baseline JPEG is 1.6 MB of zero bytes and took 7 s to
 * stream (and 35 s through every detector). Larger ones are reported as too large, not decoded.
 */
export const MAX_STREAMED_JPEG_PIXELS = 50_000_000;

/**
 * Most scans of a progressive JPEG we decode (jpeg-progressive.ts). Each scan walks every block of its
 * components once, so a crafted file of thousands of tiny scans would cost thousands of passes over a
 * large picture. Encoders write 6–12 (libjpeg's default script 10, mozjpeg's ≈ 10, the most
 * thorough successive-approximation scripts ≈ 20); libjpeg-turbo's tools take a limit for this reason.
 */
export const MAX_PROGRESSIVE_SCANS = 100;

/**
 * Largest picture given per-8×8-block maps (block-analysis.ts: ≈ 33 bytes per block, 26 MB at 50 MP).
 * Checked against the header before the maps are allocated: a 141-byte JPEG claiming 20 000 × 20 000
 * made us allocate 206 MB, one claiming 65 535 × 65 535 would ask for 2.2 GB.
 */
export const MAX_BLOCK_MAP_PIXELS = 50_000_000;

export interface DeclaredSize {
  width: number;
  height: number;
}

/** The picture size a JPEG (SOF), PNG (IHDR) or WebP (VP8/VP8L/VP8X) header declares; null if unreadable. */
export function declaredSize(bytes: Uint8Array): DeclaredSize | null {
  try {
    const size = jpegSize(bytes) ?? pngSizeOf(bytes) ?? webpSize(bytes);
    return size && size.width > 0 && size.height > 0 ? size : null;
  } catch {
    return null;
  }
}

/** Whether photon may decode these bytes: the header's size is known and within MAX_PIXEL_DECODE. */
export function fitsPixelDecode(bytes: Uint8Array): boolean {
  const size = declaredSize(bytes);
  return size !== null && size.width * size.height <= MAX_PIXEL_DECODE;
}

function jpegSize(bytes: Uint8Array): DeclaredSize | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const frame = parseJpegStructure(bytes).frame;
  return frame ? { width: frame.width, height: frame.height } : null;
}

function pngSizeOf(bytes: Uint8Array): DeclaredSize | null {
  return bytes[0] === 0x89 && bytes[1] === 0x50 ? pngSize(bytes) : null;
}

/** RIFF/WEBP headers (https://developers.google.com/speed/webp/docs/riff_container). */
function webpSize(bytes: Uint8Array): DeclaredSize | null {
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 30 || ascii(0) !== "RIFF" || ascii(8) !== "WEBP") return null;
  const u24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
  switch (ascii(12)) {
    case "VP8X":
      return { width: u24(24) + 1, height: u24(27) + 1 };
    case "VP8L": {
      const bits = (bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24)) >>> 0;
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case "VP8 ":
      return { width: (bytes[26] | (bytes[27] << 8)) & 0x3fff, height: (bytes[28] | (bytes[29] << 8)) & 0x3fff };
    default:
      return null;
  }
}

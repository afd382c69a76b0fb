/**
 * A 1/8-scale picture of a progressive JPEG from its DC coefficients alone (jpeg-dc-scans.ts): a
 * block's DC coefficient is its mean, so one pixel per 8×8 block, ceil(w/8) × ceil(h/8). Chroma is
 * upsampled on the block grid with the strip decoder's filters and converted with its colour code,
 * so the preview is the full decode box-averaged over 8×8 blocks up to rounding and chroma
 * filtering. For pictures too large to decode whole; the AC scans are skipped, so damage inside
 * them goes unnoticed (a missing EOI does not).
 */
import { componentsToRgba, isRgb } from "./jpeg-color";
import { type DcPlane, decodeDcCoefficients } from "./jpeg-dc-scans";
import { type JpegFrame, type JpegStructure, parseJpegStructure } from "./jpeg-markers";
import { JpegDataError } from "./jpeg-strip-decoder";
import { sourceLines, type UpsampleKind, upsampleKind, upsampleRow } from "./jpeg-upsample";
import { MAX_DC_PREVIEW_SOURCE_PIXELS } from "./pixel-budget";

/** An RGBA picture, row-major. */
export interface DcPreview {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** The file's 1/8-scale preview, or why it has none (not progressive…). Throws JpegDataError on damaged data. */
export function decodeDcPreview(
  bytes: Uint8Array,
  structure: JpegStructure = parseJpegStructure(bytes),
): DcPreview | string {
  const frame = structure.frame;
  if (!frame) return "no frame header";
  const refusal = refuse(frame, structure);
  if (refusal) return refusal;
  if (structure.eoiEnd === null) throw new JpegDataError("the file ends before its EOI marker (truncated?)");
  const planes = decodeDcCoefficients(bytes, structure, frame);
  const samples = planes.map((plane, i) =>
    blockMeans(plane, structure.quantTables.get(frame.components[i].tq) as Uint16Array),
  );
  const width = Math.ceil(frame.width / 8);
  const height = Math.ceil(frame.height / 8);
  const hMax = Math.max(...planes.map((p) => p.h));
  const vMax = Math.max(...planes.map((p) => p.v));
  const kinds = planes.map((p) => upsampleKind(p.h, p.v, hMax, vMax) as UpsampleKind);
  const lines = planes.map((p) => new Uint8Array(p.stride * (hMax / p.h)));
  const rgb = planes.length === 3 && isRgb(structure);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    planes.forEach((p, i) => {
      const { near, far } = sourceLines(kinds[i], y, vMax / p.v, p.blocksHigh);
      const line = (row: number) => samples[i].subarray(row * p.stride, (row + 1) * p.stride);
      upsampleRow(kinds[i], line(near), line(far), p.blocksWide, hMax / p.h, width, lines[i]);
    });
    componentsToRgba(lines, rgb, width, rgba.subarray(y * width * 4, (y + 1) * width * 4));
  }
  return { width, height, rgba };
}

function refuse(frame: JpegFrame, structure: JpegStructure): string | null {
  if (frame.marker !== 0xc2) return "not a Huffman-coded progressive JPEG";
  if (frame.precision !== 8) return `${frame.precision}-bit precision`;
  if (frame.components.length !== 1 && frame.components.length !== 3)
    return `${frame.components.length} colour components`;
  if (frame.components.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4)) return "invalid sampling factors";
  if (frame.width < 1 || frame.height < 1) return "no image size";
  if (frame.width * frame.height > MAX_DC_PREVIEW_SOURCE_PIXELS) return "too large even for a preview";
  if (frame.components.some((c) => !structure.quantTables.has(c.tq))) return "missing quantisation table";
  const single = frame.components.length === 1;
  const hMax = Math.max(...frame.components.map((c) => c.h));
  const vMax = Math.max(...frame.components.map((c) => c.v));
  if (!single && frame.components.some((c) => !upsampleKind(c.h, c.v, hMax, vMax)))
    return "non-integer chroma subsampling";
  return null;
}

/** Dequantised DC → the block's mean sample: DC · q / 8 + 128 (the IDCT's DC gain is 1/8). */
function blockMeans(plane: DcPlane, table: Uint16Array): Uint8Array {
  const out = new Uint8Array(plane.dc.length);
  const q = table[0];
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.max(0, Math.round((plane.dc[i] * q) / 8) + 128));
  return out;
}

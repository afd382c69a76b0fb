/**
 * DC coefficients of a progressive (SOF2) JPEG: decodes only the scans with Ss = 0 (G.1.2.1), the
 * DC first scans (successive approximation Al ≥ 0, interleaved or one component at a time) and the
 * DC refinement scans (one raw bit per block), and skips every AC scan. One Int16 per block and
 * component: ≈ 1 MB for an 18 MP 4:2:2 photo. Work is bounded: every MCU consumes bits, and running
 * out of data or meeting a code the tables lack ends the decode with a JpegDataError.
 */
import { BitReader, decodeSymbol, extend, type HuffmanTable } from "./jpeg-entropy";
import type { JpegFrame, JpegStructure } from "./jpeg-markers";
import { readScanHeader, restartIntervalAt, tablesAt } from "./jpeg-progressive";
import { JpegDataError } from "./jpeg-strip-decoder";

/** Quantised DC coefficient of every block of one frame component. */
export interface DcPlane {
  /** Sampling factors as used for layout (1 × 1 in a one-component frame). */
  h: number;
  v: number;
  /** Blocks that cover the component's samples (A.2.2). */
  blocksWide: number;
  blocksHigh: number;
  /** Blocks per row in `dc`: whole interleaved MCUs, so ≥ blocksWide. */
  stride: number;
  dc: Int16Array;
  /** Whether a DC first scan has filled `dc`. */
  seen: boolean;
}

interface ScanHeader {
  planes: DcPlane[];
  tables: number[];
  ss: number;
  ah: number;
  al: number;
}

/** The DC coefficients of every component, in frame order. Throws JpegDataError on damaged data. */
export function decodeDcCoefficients(bytes: Uint8Array, structure: JpegStructure, frame: JpegFrame): DcPlane[] {
  const planes = dcPlanes(frame);
  structure.scanHeaders.forEach((bytesOfHeader, i) => {
    const header = readScanHeader(bytesOfHeader, frame);
    if (typeof header === "string") throw new JpegDataError(header);
    if (header.ss !== 0) return;
    const scan = { ...header, planes: header.components.map((c) => planes[c]), tables: header.dcTables };
    const start = structure.scanStarts[i];
    decodeScan(new BitReader(bytes, start), scan, tablesAt(structure, 0, start), restartIntervalAt(structure, start));
  });
  if (planes.some((p) => !p.seen)) throw new JpegDataError("a component has no DC scan");
  return planes;
}

function dcPlanes(frame: JpegFrame): DcPlane[] {
  const single = frame.components.length === 1;
  const hMax = Math.max(...frame.components.map((c) => c.h));
  const vMax = Math.max(...frame.components.map((c) => c.v));
  const mcusX = Math.ceil(frame.width / (8 * (single ? 1 : hMax)));
  const mcusY = Math.ceil(frame.height / (8 * (single ? 1 : vMax)));
  return frame.components.map((c) => {
    const h = single ? 1 : c.h;
    const v = single ? 1 : c.v;
    const stride = mcusX * h;
    return {
      h,
      v,
      blocksWide: Math.ceil(Math.ceil((frame.width * c.h) / hMax) / 8),
      blocksHigh: Math.ceil(Math.ceil((frame.height * c.v) / vMax) / 8),
      stride,
      dc: new Int16Array(stride * mcusY * v),
      seen: false,
    };
  });
}

function decodeScan(
  reader: BitReader,
  scan: ScanHeader,
  tables: Map<number, HuffmanTable>,
  restartInterval: number,
): void {
  const refine = scan.ah !== 0;
  const coded = scan.planes.map((plane, i) => {
    const table = tables.get(scan.tables[i]);
    if (!refine && !table) throw new JpegDataError("scan refers to a missing Huffman table");
    if (refine && !plane.seen) throw new JpegDataError("DC refinement before the first DC scan");
    plane.seen = true;
    return { plane, table: table as HuffmanTable, pred: 0 };
  });
  // A one-component scan has one block per MCU over that component's own blocks (A.2.2).
  const interleaved = coded.length > 1;
  const mcusX = interleaved ? coded[0].plane.stride / coded[0].plane.h : coded[0].plane.blocksWide;
  const mcusY = interleaved
    ? coded[0].plane.dc.length / coded[0].plane.stride / coded[0].plane.v
    : coded[0].plane.blocksHigh;
  const bit = 1 << scan.al;
  for (let m = 0; m < mcusX * mcusY; m++) {
    if (restartInterval && m > 0 && m % restartInterval === 0) {
      if (!reader.restart()) throw new JpegDataError("restart marker missing");
      for (const c of coded) c.pred = 0;
    }
    const mx = m % mcusX;
    const my = (m - mx) / mcusX;
    for (const c of coded) {
      const { plane } = c;
      const h = interleaved ? plane.h : 1;
      const v = interleaved ? plane.v : 1;
      for (let by = 0; by < v; by++) {
        for (let bx = 0; bx < h; bx++) {
          const at = (my * v + by) * plane.stride + mx * h + bx;
          if (refine) {
            if (reader.read(1)) plane.dc[at] |= bit;
            continue;
          }
          const size = decodeSymbol(reader, c.table);
          if (size < 0 || size > 16) throw new JpegDataError("corrupt entropy-coded data");
          c.pred += size ? extend(reader.read(size), size) : 0;
          plane.dc[at] = c.pred * bit;
        }
      }
    }
    if (reader.overrun) throw new JpegDataError("entropy-coded data ends early (truncated file?)");
  }
}

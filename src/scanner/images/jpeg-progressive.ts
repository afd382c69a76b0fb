/**
 * Streaming decoder of progressive (SOF2, Huffman, 8-bit) JPEGs, one MCU row per call, with the scan
 * decoders' interface (jpeg-entropy.ts), so the strip decoder and the luminance coefficient pass read a
 * progressive file exactly like a baseline one.
 *
 * A progressive file sends every block several times (DC first, AC bands, refinement bits: G.1.2), so a
 * block is final only after the last scan. Instead of holding every coefficient of the picture (Int16 per
 * coefficient: 72 MB for 24 MP 4:2:0), each scan keeps its own bit reader open: for MCU row `r`, every
 * scan decodes its blocks of that row in file order, then the row is complete and handed out, and the
 * readers wait where they stopped for row `r + 1`. A scan's blocks of one MCU row are consecutive in its
 * data (interleaved DC scans go MCU row by MCU row, one-component scans block row by block row), so one
 * Huffman pass over the file decodes it, and memory is one MCU row of coefficients plus a bit reader,
 * DC predictions and an end-of-band run per scan: O(width × scans), ≈ 0.3 MB for a 24 MP photo.
 *
 * Work is bounded before anything is allocated: the header's size (MAX_STREAMED_JPEG_PIXELS) and the
 * number of scans (MAX_PROGRESSIVE_SCANS: each scan walks every block once); every block consumes bits
 * or an end-of-band run, a code the tables lack or data running out ends the decode with a reason.
 */
import { type BlockVisitor, BitReader, decodeSymbol, extend, HuffmanTable, type ScanComponent } from "./jpeg-entropy";
import { type HuffmanSpec, type JpegFrame, type JpegStructure, ZIGZAG } from "./jpeg-markers";
import { MAX_PROGRESSIVE_SCANS, MAX_STREAMED_JPEG_PIXELS } from "./pixel-budget";
import { scratch } from "./wasm-kernels";

/** A scan header (SOS payload) read against the frame: its components (frame indices) and parameters. */
export interface ProgressiveScanHeader {
  components: number[];
  /** DC and AC Huffman table ids per component. */
  dcTables: number[];
  acTables: number[];
  /** Spectral selection (zig-zag start and end) and successive approximation (high and low bit). */
  ss: number;
  se: number;
  ah: number;
  al: number;
}

/** The scan header, or why it cannot be a scan of this progressive frame (G.1.1.1's rules). */
export function readScanHeader(header: Uint8Array, frame: JpegFrame): ProgressiveScanHeader | string {
  const count = header[0] ?? 0;
  const at = 1 + count * 2;
  if (count < 1 || count > 4 || header.length < at + 3) return "malformed scan header";
  const scan: ProgressiveScanHeader = {
    components: [],
    dcTables: [],
    acTables: [],
    ss: header[at],
    se: header[at + 1],
    ah: header[at + 2] >> 4,
    al: header[at + 2] & 15,
  };
  for (let i = 0; i < count; i++) {
    const index = frame.components.findIndex((c) => c.id === header[1 + i * 2]);
    if (index < 0 || scan.components.includes(index)) return "scan refers to a missing component";
    scan.components.push(index);
    scan.dcTables.push(header[2 + i * 2] >> 4);
    scan.acTables.push(header[2 + i * 2] & 15);
  }
  if (scan.ss === 0 ? scan.se !== 0 : scan.se < scan.ss || scan.se > 63 || count !== 1)
    return "invalid spectral selection";
  if (scan.al > 13 || (scan.ah !== 0 && scan.al !== scan.ah - 1)) return "invalid successive approximation";
  return scan;
}

/** Tables built once per definition: scans share them, and a file may define thousands it never uses. */
const builtTables = new WeakMap<HuffmanSpec, HuffmanTable>();

/** Huffman tables of one class as defined when the scan at `offset` starts (a later DHT may reuse an id). */
export function tablesAt(structure: JpegStructure, tableClass: 0 | 1, offset: number): Map<number, HuffmanTable> {
  const latest = new Map<number, HuffmanSpec>();
  for (const spec of structure.huffmanTables)
    if (spec.tableClass === tableClass && spec.offset < offset) latest.set(spec.id, spec);
  const tables = new Map<number, HuffmanTable>();
  for (const [id, spec] of latest) {
    let table = builtTables.get(spec);
    if (!table) builtTables.set(spec, (table = new HuffmanTable(spec)));
    tables.set(id, table);
  }
  return tables;
}

/** The restart interval in force at `offset` (DRI may change between scans). */
export function restartIntervalAt(structure: JpegStructure, offset: number): number {
  let interval = 0;
  for (const s of structure.segments)
    if (s.marker === 0xdd && s.offset < offset && s.data.length >= 2) interval = (s.data[0] << 8) | s.data[1];
  return interval;
}

/** One frame component's place in the MCU row store. */
export interface ComponentLayout extends ScanComponent {
  /** Offset of its first block inside one MCU (blocks), and its blocks that cover the picture (A.2.2). */
  inMcu: number;
  blocksWide: number;
  blocksHigh: number;
}

export interface ScanComponentState {
  layout: ComponentLayout;
  dc: HuffmanTable | null;
  ac: HuffmanTable | null;
  pred: number;
}

/** A scan between two MCU rows: where its reader stands and what carries over (predictions, end-of-band run). */
export interface OpenScan {
  header: ProgressiveScanHeader;
  components: ScanComponentState[];
  reader: BitReader;
  restartInterval: number;
  /** MCUs of this scan decoded so far (one block each in a one-component scan). */
  mcus: number;
  eobrun: number;
}

/** Decoder of a progressive JPEG, pulled one MCU row at a time (the interface of ScanDecoder). */
export class ProgressiveScanDecoder {
  readonly components: readonly ScanComponent[];
  readonly mcusX: number;
  readonly mcusY: number;
  /** Blocks in one MCU row. */
  readonly blocksPerRow: number;
  readonly restartInterval = 0;
  mcusDecoded = 0;
  readonly layouts: ComponentLayout[];
  readonly blocksPerMcu: number;
  /** The current MCU row's coefficients, natural order, 64 per block in MCU order (as the wasm decoder writes them). */
  private readonly row: Int16Array;
  private failure: string | null = null;

  private constructor(
    frame: JpegFrame,
    readonly scans: OpenScan[],
    layouts: ComponentLayout[],
  ) {
    this.layouts = layouts;
    this.components = layouts;
    const single = layouts.length === 1;
    const hMax = single ? 1 : Math.max(...frame.components.map((c) => c.h));
    const vMax = single ? 1 : Math.max(...frame.components.map((c) => c.v));
    this.mcusX = Math.ceil(frame.width / (8 * hMax));
    this.mcusY = Math.ceil(frame.height / (8 * vMax));
    this.blocksPerMcu = layouts.reduce((n, c) => n + c.h * c.v, 0);
    this.blocksPerRow = this.mcusX * this.blocksPerMcu;
    this.row = new Int16Array(this.blocksPerRow * 64);
  }

  /**
   * The decoder, or why it cannot read the file. `wanted` (frame component indices) skips the scans
   * of other components (the luminance pass reads no chroma AC scan); their blocks then stay zero.
   */
  static open(
    bytes: Uint8Array,
    structure: JpegStructure,
    wanted?: readonly number[],
  ): ProgressiveScanDecoder | string {
    const frame = structure.frame;
    if (!frame) return "no frame header";
    if (frame.marker !== 0xc2) return "not a Huffman-coded progressive JPEG";
    if (frame.precision !== 8) return `${frame.precision}-bit precision`;
    if (!frame.components.length || frame.components.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4))
      return "invalid sampling factors";
    if (frame.width < 1 || frame.height < 1) return "no image size";
    // Before anything is allocated: the declared size and the number of scans bound memory and work.
    if (frame.width * frame.height > MAX_STREAMED_JPEG_PIXELS)
      return `too large to stream (${frame.width} × ${frame.height})`;
    if (structure.scanHeaders.length > MAX_PROGRESSIVE_SCANS)
      return `${structure.scanHeaders.length} scans (at most ${MAX_PROGRESSIVE_SCANS} are decoded)`;
    if (frame.components.some((c) => !structure.quantTables.has(c.tq))) return "missing quantisation table";
    const layouts = componentLayouts(frame);
    const scans: OpenScan[] = [];
    const seen = new Set<number>();
    for (let i = 0; i < structure.scanHeaders.length; i++) {
      const header = readScanHeader(structure.scanHeaders[i], frame);
      if (typeof header === "string") return header;
      header.components.forEach((c) => {
        if (header.ss === 0 && header.ah === 0) seen.add(c);
      });
      if (wanted && !header.components.some((c) => wanted.includes(c))) continue;
      const scan = openScan(bytes, structure, i, header, layouts);
      if (typeof scan === "string") return scan;
      scans.push(scan);
    }
    if (layouts.some((_, i) => !seen.has(i))) return "a component has no DC scan";
    return new ProgressiveScanDecoder(frame, scans, layouts);
  }

  get mcusTotal(): number {
    return this.mcusX * this.mcusY;
  }

  /** Decodes the next MCU row and visits all its blocks (padding blocks included); null, or why it stopped. */
  decodeRow(visit: BlockVisitor): string | null {
    const my = this.mcusDecoded / this.mcusX;
    const error = this.decodeNextRow();
    if (error) return error;
    for (let mx = 0, n = 0; mx < this.mcusX; mx++)
      for (const c of this.layouts)
        for (let by = 0; by < c.v; by++)
          for (let bx = 0; bx < c.h; bx++, n++)
            visit(c.index, my * c.v + by, mx * c.h + bx, this.row.subarray(n * 64, n * 64 + 64));
    return null;
  }

  /**
   * As WasmScanDecoder.decodeRowInto: the next MCU row's coefficients written into the kernels' scratch
   * area at `coefficientsAt` (64 i16 per block, MCU order). A progressive row is complete or missing.
   */
  decodeRowInto(reserve: number, coefficientsAt: number): { blocks: number; error: string | null } {
    const error = this.decodeNextRow();
    if (error) return { blocks: 0, error };
    const s = scratch(reserve);
    new Int16Array(s.buffer, s.base + coefficientsAt, this.row.length).set(this.row);
    return { blocks: this.blocksPerRow, error: null };
  }

  private decodeNextRow(): string | null {
    if (this.failure) return this.failure;
    const my = this.mcusDecoded / this.mcusX;
    if (my >= this.mcusY) return "no more MCU rows";
    this.row.fill(0);
    for (const scan of this.scans) {
      this.failure = this.decodeScanRow(scan, my);
      if (this.failure) return this.failure;
    }
    this.mcusDecoded += this.mcusX;
    return null;
  }

  /**
   * The scan's blocks of MCU row `my` into `out` (the row store's layout): one MCU row when interleaved, `v`
   * block rows of its component otherwise; from its `from`-th unit (MCU or block) on, when a row was begun.
   */
  decodeScanRow(scan: OpenScan, my: number, out = this.row, from = 0): string | null {
    if (scan.components.length > 1) {
      for (let mx = from; mx < this.mcusX; mx++) {
        if (!restart(scan)) return "restart marker missing";
        for (const c of scan.components)
          for (let by = 0; by < c.layout.v; by++)
            for (let bx = 0; bx < c.layout.h; bx++) {
              const error = decodeBlock(scan, c, out, this.blockAt(c.layout, mx * c.layout.h + bx, by));
              if (error) return error;
            }
        scan.mcus++;
        if (scan.reader.overrun) return "entropy-coded data ends early (truncated file?)";
      }
      return null;
    }
    const c = scan.components[0];
    const { v, blocksWide, blocksHigh } = c.layout;
    for (let by = Math.floor(from / blocksWide); by < v && my * v + by < blocksHigh; by++)
      for (let col = by === Math.floor(from / blocksWide) ? from % blocksWide : 0; col < blocksWide; col++) {
        if (!restart(scan)) return "restart marker missing";
        const error = decodeBlock(scan, c, out, this.blockAt(c.layout, col, by));
        if (error) return error;
        scan.mcus++;
        if (scan.reader.overrun) return "entropy-coded data ends early (truncated file?)";
      }
    return null;
  }

  /** Offset in the row store of block column `col`, block line `by` of the MCU row, of one component. */
  private blockAt(c: ComponentLayout, col: number, by: number): number {
    const mx = Math.floor(col / c.h);
    return (mx * this.blocksPerMcu + c.inMcu + by * c.h + (col - mx * c.h)) * 64;
  }
}

function componentLayouts(frame: JpegFrame): ComponentLayout[] {
  const single = frame.components.length === 1;
  const hMax = Math.max(...frame.components.map((c) => c.h));
  const vMax = Math.max(...frame.components.map((c) => c.v));
  let inMcu = 0;
  return frame.components.map((c, index) => {
    const h = single ? 1 : c.h;
    const v = single ? 1 : c.v;
    const layout = {
      index,
      h,
      v,
      inMcu,
      blocksWide: Math.ceil(Math.ceil((frame.width * c.h) / hMax) / 8),
      blocksHigh: Math.ceil(Math.ceil((frame.height * c.v) / vMax) / 8),
    };
    inMcu += h * v;
    return layout;
  });
}

function openScan(
  bytes: Uint8Array,
  structure: JpegStructure,
  i: number,
  header: ProgressiveScanHeader,
  layouts: ComponentLayout[],
): OpenScan | string {
  const start = structure.scanStarts[i];
  const dcTables = tablesAt(structure, 0, start);
  const acTables = tablesAt(structure, 1, start);
  const dcFirst = header.ss === 0 && header.ah === 0;
  const components: ScanComponentState[] = [];
  for (let k = 0; k < header.components.length; k++) {
    const dc = dcFirst ? (dcTables.get(header.dcTables[k]) ?? null) : null;
    const ac = header.ss > 0 ? (acTables.get(header.acTables[k]) ?? null) : null;
    if ((dcFirst && !dc) || (header.ss > 0 && !ac)) return "scan refers to a missing Huffman table";
    components.push({ layout: layouts[header.components[k]], dc, ac, pred: 0 });
  }
  return {
    header,
    components,
    reader: new BitReader(bytes, start),
    restartInterval: restartIntervalAt(structure, start),
    mcus: 0,
    eobrun: 0,
  };
}

/** Steps over the restart marker due before the scan's next MCU (resetting predictions and runs); false if missing. */
function restart(scan: OpenScan): boolean {
  if (!scan.restartInterval || scan.mcus === 0 || scan.mcus % scan.restartInterval !== 0) return true;
  if (!scan.reader.restart()) return false;
  for (const c of scan.components) c.pred = 0;
  scan.eobrun = 0;
  return true;
}

/** One block's contribution of the scan into `out` at `at` (G.1.2.1–G.1.2.3); null, or why the data is corrupt. */
function decodeBlock(scan: OpenScan, c: ScanComponentState, out: Int16Array, at: number): string | null {
  const { ss, ah, al } = scan.header;
  const r = scan.reader;
  if (ss === 0) {
    if (ah !== 0) {
      if (r.read(1)) out[at] |= 1 << al;
      return null;
    }
    const size = decodeSymbol(r, c.dc as HuffmanTable);
    if (size < 0 || size > 16) return "corrupt entropy-coded data";
    c.pred += size ? extend(r.read(size), size) : 0;
    out[at] = c.pred * (1 << al);
    return null;
  }
  return ah === 0
    ? decodeAcFirst(scan, c.ac as HuffmanTable, out, at)
    : decodeAcRefinement(scan, c.ac as HuffmanTable, out, at);
}

/** First AC scan of a band: run/size codes, end-of-band runs across blocks (G.1.2.2). */
function decodeAcFirst(scan: OpenScan, table: HuffmanTable, out: Int16Array, at: number): string | null {
  if (scan.eobrun > 0) {
    scan.eobrun--;
    return null;
  }
  const { ss, se, al } = scan.header;
  const r = scan.reader;
  for (let k = ss; k <= se; ) {
    const rs = decodeSymbol(r, table);
    if (rs < 0) return "corrupt entropy-coded data";
    const run = rs >> 4;
    const size = rs & 15;
    if (size === 0) {
      if (run < 15) {
        scan.eobrun = (1 << run) - 1 + (run ? r.read(run) : 0);
        return null;
      }
      k += 16;
      continue;
    }
    k += run;
    if (k > se) return "corrupt entropy-coded data";
    out[at + ZIGZAG[k]] = extend(r.read(size), size) * (1 << al);
    k++;
  }
  return null;
}

/**
 * AC refinement (G.1.2.3, as libjpeg's decode_mcu_AC_refine): one correction bit for each coefficient
 * already non-zero, newly non-zero ones (±1 at this bit) placed after `run` zero ones.
 */
function decodeAcRefinement(scan: OpenScan, table: HuffmanTable, out: Int16Array, at: number): string | null {
  const { ss, se, al } = scan.header;
  const r = scan.reader;
  const p1 = 1 << al;
  const m1 = -1 << al;
  let k = ss;
  if (scan.eobrun === 0) {
    for (; k <= se; k++) {
      const rs = decodeSymbol(r, table);
      if (rs < 0) return "corrupt entropy-coded data";
      let run = rs >> 4;
      let value = 0;
      // A size other than 1 is invalid here; read as 1, as libjpeg does (it only warns).
      if (rs & 15) value = r.read(1) ? p1 : m1;
      else if (run !== 15) {
        scan.eobrun = (1 << run) + (run ? r.read(run) : 0);
        break;
      }
      for (; k <= se; k++) {
        const z = at + ZIGZAG[k];
        if (out[z] !== 0) refine(r, out, z, p1);
        else if (--run < 0) break;
      }
      if (value) {
        if (k > se) return "corrupt entropy-coded data";
        out[at + ZIGZAG[k]] = value;
      }
    }
  }
  if (scan.eobrun > 0) {
    for (; k <= se; k++) {
      const z = at + ZIGZAG[k];
      if (out[z] !== 0) refine(r, out, z, p1);
    }
    scan.eobrun--;
  }
  return null;
}

/** The correction bit of a coefficient already non-zero: adds the bit `p1` away from zero unless it is set. */
function refine(r: BitReader, out: Int16Array, z: number, p1: number): void {
  if (r.read(1) && (out[z] & p1) === 0) out[z] += out[z] >= 0 ? p1 : -p1;
}

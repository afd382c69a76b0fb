/**
 * The one JPEG entropy decoder: Huffman tables, the bit reader and a scan decoder that
 * hands out the quantized DCT coefficients of every block of the first scan of a sequential
 * (SOF0/SOF1) JPEG, one MCU row per call. The DC scans of progressive files (jpeg-dc-scans.ts)
 * use the same tables and bit reader. Callers pull rows as they need them (the luminance
 * visitor of jpeg-coefficients.ts, the pixel strips of jpeg-strip-decoder.ts), so memory stays
 * O(one block) here. Work is bounded: every MCU consumes bits or ends the decode with an error.
 */
import { type HuffmanSpec, type JpegStructure, ZIGZAG } from "./jpeg-markers";

/** Receives one block: frame component index, block row/column in that component, coefficients in natural order. */
export type BlockVisitor = (component: number, row: number, col: number, coefficients: Int16Array) => void;

/** A component of the scan with its sampling factors as used for MCU layout. */
export interface ScanComponent {
  /** Index into the frame's components. */
  index: number;
  /** Blocks per MCU across / down (1 × 1 in a single-component scan). */
  h: number;
  v: number;
}

const LOOKAHEAD = 9;

/** Canonical Huffman table with a 9-bit lookup for short codes (JPEG spec F.2.2.3). */
export class HuffmanTable {
  readonly lookup = new Uint16Array(1 << LOOKAHEAD); // (length << 8) | symbol, 0 = not short
  readonly maxCode = new Int32Array(18).fill(-1);
  readonly valPtr = new Int32Array(17);
  readonly minCode = new Int32Array(17);
  constructor(readonly spec: HuffmanSpec) {
    let code = 0;
    let k = 0;
    for (let len = 1; len <= 16; len++) {
      const n = spec.counts[len - 1];
      this.valPtr[len] = k;
      this.minCode[len] = code;
      for (let i = 0; i < n; i++, k++, code++) {
        if (len <= LOOKAHEAD) {
          const shift = LOOKAHEAD - len;
          for (let j = 0; j < 1 << shift; j++) this.lookup[(code << shift) | j] = (len << 8) | spec.symbols[k];
        }
      }
      this.maxCode[len] = n ? code - 1 : -1;
      code <<= 1;
    }
    this.maxCode[17] = 0x7fffffff;
  }
}

/** MSB-first bit reader over entropy-coded data with 0xFF00 unstuffing; yields zeros at a marker. */
export class BitReader {
  private buffer = 0;
  private bits = 0;
  /** Zero bits inserted at the end of the buffer after a marker (not real data). */
  private synthetic = 0;
  markerHit = false;
  /** True once a read consumed inserted zero bits: the data ended before the image did. */
  overrun = false;
  constructor(
    private readonly bytes: Uint8Array,
    public pos: number,
  ) {}

  /** Position and bit buffer, to hand the scan to the wasm decoder and back (jpeg-entropy-wasm.ts). */
  get state(): [pos: number, buffer: number, bits: number, synthetic: number, markerHit: boolean, overrun: boolean] {
    return [this.pos, this.buffer, this.bits, this.synthetic, this.markerHit, this.overrun];
  }

  set state([pos, buffer, bits, synthetic, markerHit, overrun]: BitReader["state"]) {
    Object.assign(this, { pos, buffer, bits, synthetic, markerHit, overrun });
  }

  private fill(): void {
    while (this.bits <= 24) {
      let b = 0;
      if (!this.markerHit && this.pos < this.bytes.length) {
        b = this.bytes[this.pos];
        if (b === 0xff) {
          const next = this.bytes[this.pos + 1];
          if (next === 0x00) this.pos += 2;
          else {
            this.markerHit = true;
            this.synthetic += 8;
            b = 0;
          }
        } else this.pos++;
      } else {
        this.markerHit = true;
        this.synthetic += 8;
      }
      this.buffer = ((this.buffer << 8) | b) >>> 0;
      this.bits += 8;
    }
  }

  peek(n: number): number {
    if (this.bits < n) this.fill();
    return (this.buffer >>> (this.bits - n)) & ((1 << n) - 1);
  }

  skip(n: number): void {
    this.bits -= n;
    if (this.bits < this.synthetic) {
      this.overrun = true;
      this.synthetic = Math.max(0, this.bits);
    }
  }

  read(n: number): number {
    if (n === 0) return 0;
    const v = this.peek(n);
    this.skip(n);
    return v;
  }

  /** Drops buffered bits and steps over an RSTn marker at the current position. */
  restart(): boolean {
    this.buffer = 0;
    this.bits = 0;
    this.synthetic = 0;
    this.markerHit = false;
    while (
      this.pos < this.bytes.length - 1 &&
      !(this.bytes[this.pos] === 0xff && this.bytes[this.pos + 1] >= 0xd0 && this.bytes[this.pos + 1] <= 0xd7)
    ) {
      if (this.bytes[this.pos] === 0xff && this.bytes[this.pos + 1] !== 0x00 && this.bytes[this.pos + 1] !== 0xff)
        return false;
      this.pos++;
    }
    if (this.pos >= this.bytes.length - 1) return false;
    this.pos += 2;
    return true;
  }
}

/** The next Huffman symbol, or -1 for a code the table does not have. */
export function decodeSymbol(r: BitReader, t: HuffmanTable): number {
  const entry = t.lookup[r.peek(LOOKAHEAD)];
  if (entry) {
    r.skip(entry >> 8);
    return entry & 0xff;
  }
  let code = r.read(LOOKAHEAD);
  for (let len = LOOKAHEAD + 1; len <= 16; len++) {
    code = (code << 1) | r.read(1);
    if (code <= t.maxCode[len]) return t.spec.symbols[t.valPtr[len] + code - t.minCode[len]];
  }
  return -1;
}

/** The signed value of `s` magnitude bits (F.2.2.1). */
export function extend(v: number, s: number): number {
  return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
}

interface CodedComponent extends ScanComponent {
  dc: HuffmanTable;
  ac: HuffmanTable;
  pred: number;
}

/** Decodes one block into `out` (zig-zag → natural); false on a corrupt code. */
function decodeBlock(r: BitReader, c: CodedComponent, out: Int16Array): boolean {
  out.fill(0);
  const t = decodeSymbol(r, c.dc);
  if (t < 0 || t > 16) return false;
  c.pred += t ? extend(r.read(t), t) : 0;
  out[0] = c.pred;
  for (let k = 1; k < 64; ) {
    const rs = decodeSymbol(r, c.ac);
    if (rs < 0) return false;
    const run = rs >> 4;
    const size = rs & 15;
    if (size === 0) {
      if (run !== 15) break;
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) return false;
    out[ZIGZAG[k]] = extend(r.read(size), size);
    k++;
  }
  return true;
}

/** Huffman tables of one class (0 = DC, 1 = AC) by id, first definition wins. */
export function tablesFor(structure: JpegStructure, tableClass: 0 | 1): Map<number, HuffmanTable> {
  const map = new Map<number, HuffmanTable>();
  for (const spec of structure.huffmanTables)
    if (spec.tableClass === tableClass && !map.has(spec.id)) map.set(spec.id, new HuffmanTable(spec));
  return map;
}

/** Decoder of the first scan of a baseline JPEG, pulled one MCU row at a time. */
export class ScanDecoder {
  readonly components: readonly ScanComponent[];
  readonly mcusX: number;
  readonly mcusY: number;
  mcusDecoded = 0;
  /** Set once decoding failed: the bit position is lost, nothing after it can be decoded. */
  private failure: string | null = null;
  private readonly coded: CodedComponent[];
  private readonly reader: BitReader;
  private readonly block = new Int16Array(64);
  readonly restartInterval: number;
  /** Offset of the scan's first entropy-coded byte. */
  readonly start: number;

  private constructor(bytes: Uint8Array, structure: JpegStructure, coded: CodedComponent[]) {
    const frame = structure.frame as NonNullable<JpegStructure["frame"]>;
    const single = coded.length === 1;
    if (single) {
      // A single-component scan has one block per MCU over that component's own size (A.2.2).
      const hMax = Math.max(...frame.components.map((c) => c.h));
      const vMax = Math.max(...frame.components.map((c) => c.v));
      const c = frame.components[coded[0].index];
      this.mcusX = Math.ceil(Math.ceil((frame.width * c.h) / hMax) / 8);
      this.mcusY = Math.ceil(Math.ceil((frame.height * c.v) / vMax) / 8);
      coded[0].h = 1;
      coded[0].v = 1;
    } else {
      const hMax = Math.max(...frame.components.map((c) => c.h));
      const vMax = Math.max(...frame.components.map((c) => c.v));
      this.mcusX = Math.ceil(frame.width / (8 * hMax));
      this.mcusY = Math.ceil(frame.height / (8 * vMax));
    }
    this.coded = coded;
    this.components = coded;
    this.start = structure.scanStarts[0];
    this.reader = new BitReader(bytes, this.start);
    this.restartInterval = structure.restartInterval;
  }

  /** The decoder for the file's first scan, or why there is none (not baseline, missing tables…). */
  static open(bytes: Uint8Array, structure: JpegStructure): ScanDecoder | string {
    const frame = structure.frame;
    if (!frame) return "no frame header";
    if (!frame.baseline) {
      // Huffman progressive files are read by jpeg-progressive.ts; arithmetic coding by nothing here.
      if (frame.marker === 0xc2) return "progressive JPEG";
      return frame.progressive ? "arithmetic-coded progressive JPEG" : "unsupported JPEG coding";
    }
    if (frame.precision !== 8) return `${frame.precision}-bit precision`;
    if (!frame.components.length || frame.components.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4))
      return "invalid sampling factors";
    if (frame.width < 1 || frame.height < 1) return "no image size";
    if (!structure.scanStarts.length) return "no scan";
    const sos = structure.scanHeaders[0];
    const dcTables = tablesFor(structure, 0);
    const acTables = tablesFor(structure, 1);
    const coded: CodedComponent[] = [];
    for (let i = 0; i < (sos[0] ?? 0); i++) {
      const id = sos[1 + i * 2];
      const sel = sos[2 + i * 2];
      const index = frame.components.findIndex((c) => c.id === id);
      const dc = dcTables.get(sel >> 4);
      const ac = acTables.get(sel & 15);
      if (index < 0 || !dc || !ac) return "scan refers to a missing component or table";
      coded.push({ index, h: frame.components[index].h, v: frame.components[index].v, dc, ac, pred: 0 });
    }
    if (!coded.length) return "empty scan";
    return new ScanDecoder(bytes, structure, coded);
  }

  /** DC and AC table of each scan component, in scan order (for the wasm decoder, jpeg-entropy-wasm.ts). */
  get tables(): { dc: HuffmanTable; ac: HuffmanTable }[] {
    return this.coded.map(({ dc, ac }) => ({ dc, ac }));
  }

  get mcusTotal(): number {
    return this.mcusX * this.mcusY;
  }

  /**
   * Decodes the next MCU row and visits all its blocks (padding blocks included). Returns null,
   * or why decoding stopped (the blocks visited before the problem stay valid).
   */
  /**
   * Where the decoder stands (bit reader, MCUs decoded, DC predictions): the wasm decoder decodes the
   * same scan and hands a row it cannot hold to this one and takes the state back (jpeg-entropy-wasm.ts).
   */
  get state(): { reader: BitReader["state"]; mcusDecoded: number; predictions: number[] } {
    return { reader: this.reader.state, mcusDecoded: this.mcusDecoded, predictions: this.coded.map((c) => c.pred) };
  }

  set state(state: ScanDecoder["state"]) {
    this.reader.state = state.reader;
    this.mcusDecoded = state.mcusDecoded;
    this.coded.forEach((c, i) => {
      c.pred = state.predictions[i];
    });
  }

  decodeRow(visit: BlockVisitor): string | null {
    if (this.failure) return this.failure;
    const my = this.mcusDecoded / this.mcusX;
    if (my >= this.mcusY) return "no more MCU rows";
    this.failure = this.decodeMcus(my, visit);
    return this.failure;
  }

  private decodeMcus(my: number, visit: BlockVisitor): string | null {
    for (let mx = 0; mx < this.mcusX; mx++) {
      const m = my * this.mcusX + mx;
      if (this.restartInterval && m > 0 && m % this.restartInterval === 0) {
        if (!this.reader.restart()) return "restart marker missing";
        for (const c of this.coded) c.pred = 0;
      }
      for (const c of this.coded) {
        for (let by = 0; by < c.v; by++) {
          for (let bx = 0; bx < c.h; bx++) {
            if (!decodeBlock(this.reader, c, this.block)) return "corrupt entropy-coded data";
            visit(c.index, my * c.v + by, mx * c.h + bx, this.block);
          }
        }
      }
      if (this.reader.overrun) {
        this.mcusDecoded = m + 1;
        return "entropy-coded data ends early (truncated file?)";
      }
      this.mcusDecoded = m + 1;
    }
    return null;
  }
}

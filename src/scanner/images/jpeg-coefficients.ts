/**
 * Baseline JPEG entropy decoder: Huffman-decodes every block of a sequential (SOF0/SOF1) JPEG
 * and hands the luminance blocks' quantized DCT coefficients to a visitor, one block at a time.
 * Memory stays O(one block); nothing of the image is kept here. Progressive files are not
 * decoded (callers report that as "not assessed" or fall back to pixels).
 */
import { type HuffmanSpec, type JpegStructure, ZIGZAG } from "./jpeg-markers";

/** Receives one luminance block: block row/column and quantized coefficients in natural order. */
export type LumaBlockVisitor = (row: number, col: number, coefficients: Int16Array) => void;

/** Outcome of a coefficient decode. */
export interface CoefficientDecode {
  /** Luminance blocks per row / column that cover the image (padding blocks are not visited). */
  blocksWide: number;
  blocksHigh: number;
  mcusDecoded: number;
  mcusTotal: number;
  /** Why decoding stopped early, if it did. */
  error: string | null;
}

const LOOKAHEAD = 9;

/** Canonical Huffman table with a 9-bit lookup for short codes (JPEG spec F.2.2.3). */
class HuffmanTable {
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
class BitReader {
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
    while (this.pos < this.bytes.length - 1 && !(this.bytes[this.pos] === 0xff && this.bytes[this.pos + 1] >= 0xd0 && this.bytes[this.pos + 1] <= 0xd7)) {
      if (this.bytes[this.pos] === 0xff && this.bytes[this.pos + 1] !== 0x00 && this.bytes[this.pos + 1] !== 0xff) return false;
      this.pos++;
    }
    if (this.pos >= this.bytes.length - 1) return false;
    this.pos += 2;
    return true;
  }
}

function decodeSymbol(r: BitReader, t: HuffmanTable): number {
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

function extend(v: number, s: number): number {
  return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
}

interface ScanComponent {
  index: number;
  h: number;
  v: number;
  dc: HuffmanTable;
  ac: HuffmanTable;
  pred: number;
}

/** Decodes one block into `out` (zig-zag → natural); false on a corrupt code. */
function decodeBlock(r: BitReader, c: ScanComponent, out: Int16Array): boolean {
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

function tablesFor(structure: JpegStructure, tableClass: 0 | 1): Map<number, HuffmanTable> {
  const map = new Map<number, HuffmanTable>();
  for (const spec of structure.huffmanTables) if (spec.tableClass === tableClass && !map.has(spec.id)) map.set(spec.id, new HuffmanTable(spec));
  return map;
}

/**
 * Decodes the first scan of a baseline JPEG and visits every luminance block inside the image.
 * Returns the grid size; `error` says why it stopped early (corrupt data, unsupported layout).
 */
export function decodeLumaCoefficients(bytes: Uint8Array, structure: JpegStructure, visit: LumaBlockVisitor): CoefficientDecode {
  const frame = structure.frame;
  const empty = { blocksWide: 0, blocksHigh: 0, mcusDecoded: 0, mcusTotal: 0 };
  if (!frame) return { ...empty, error: "no frame header" };
  if (!frame.baseline) return { ...empty, error: frame.progressive ? "progressive JPEG" : "unsupported JPEG coding" };
  if (frame.precision !== 8) return { ...empty, error: `${frame.precision}-bit precision` };
  if (!structure.scanStarts.length) return { ...empty, error: "no scan" };
  const sos = structure.scanHeaders[0];
  const dcTables = tablesFor(structure, 0);
  const acTables = tablesFor(structure, 1);
  const hMax = Math.max(...frame.components.map((c) => c.h));
  const vMax = Math.max(...frame.components.map((c) => c.v));
  const components: ScanComponent[] = [];
  for (let i = 0; i < sos[0]; i++) {
    const id = sos[1 + i * 2];
    const sel = sos[2 + i * 2];
    const index = frame.components.findIndex((c) => c.id === id);
    const dc = dcTables.get(sel >> 4);
    const ac = acTables.get(sel & 15);
    if (index < 0 || !dc || !ac) return { ...empty, error: "scan refers to a missing component or table" };
    components.push({ index, h: frame.components[index].h, v: frame.components[index].v, dc, ac, pred: 0 });
  }
  const luma = components.find((c) => c.index === 0);
  if (!luma) return { ...empty, error: "first scan has no luminance" };
  const y = frame.components[0];
  const blocksWide = Math.ceil(Math.ceil((frame.width * y.h) / hMax) / 8);
  const blocksHigh = Math.ceil(Math.ceil((frame.height * y.v) / vMax) / 8);
  const single = components.length === 1;
  const mcusX = single ? blocksWide : Math.ceil(frame.width / (8 * hMax));
  const mcusY = single ? blocksHigh : Math.ceil(frame.height / (8 * vMax));
  const mcusTotal = mcusX * mcusY;
  const reader = new BitReader(bytes, structure.scanStarts[0]);
  const block = new Int16Array(64);
  let mcusDecoded = 0;
  for (let m = 0; m < mcusTotal; m++) {
    if (structure.restartInterval && m > 0 && m % structure.restartInterval === 0) {
      if (!reader.restart()) return { blocksWide, blocksHigh, mcusDecoded, mcusTotal, error: "restart marker missing" };
      for (const c of components) c.pred = 0;
    }
    const mx = m % mcusX;
    const my = (m / mcusX) | 0;
    for (const c of components) {
      const bh = single ? 1 : c.h;
      const bv = single ? 1 : c.v;
      for (let by = 0; by < bv; by++) {
        for (let bx = 0; bx < bh; bx++) {
          if (!decodeBlock(reader, c, block)) return { blocksWide, blocksHigh, mcusDecoded, mcusTotal, error: "corrupt entropy-coded data" };
          if (c !== luma) continue;
          const row = my * bv + by;
          const col = mx * bh + bx;
          if (row < blocksHigh && col < blocksWide) visit(row, col, block);
        }
      }
    }
    if (reader.overrun) {
      return { blocksWide, blocksHigh, mcusDecoded: m + 1, mcusTotal, error: "entropy-coded data ends early (truncated file?)" };
    }
    mcusDecoded = m + 1;
  }
  return { blocksWide, blocksHigh, mcusDecoded, mcusTotal, error: null };
}

/**
 * The scan decoder of jpeg-entropy.ts with its Huffman decoding in wasm (wasm/assembly/entropy.ts),
 * one MCU row per call: the same blocks, the same errors at the same place (the JavaScript
 * ScanDecoder is the reference, test/forensics/image/wasm-kernels.test.ts). The file stays in
 * JavaScript; each call copies a window of it into the kernels' scratch area (twice the last row's
 * bytes plus 4 KB) and repeats with a four times larger one when a row runs past it.
 */
import { type BlockVisitor, type HuffmanTable, type ScanComponent, ScanDecoder } from "./jpeg-entropy";
import type { JpegStructure } from "./jpeg-markers";
import { align16, kernels, scratch } from "./wasm-kernels";

export const TABLE_BYTES = 1024 + 72 + 68 + 68 + 512;
/** A baseline scan's table (entropy.ts decodeMcuRow): TABLE_BYTES, then its fast table (`fastDc`, `fastAc`). */
const BASELINE_TABLE_BYTES = TABLE_BYTES + 2048 * 4;
const STATE_BYTES = 48;
/** Small on purpose: the window adapts to the rows (and NEED_MORE is exercised by ordinary photos). */
export const MIN_WINDOW = 4096;
/**
 * Largest window copied into wasm memory. Real rows are far smaller (a 6000 px row of a q92 photo:
 * ≈ 30 KB); a longer one is decoded in JavaScript (decodeRowInJavaScript). Exported for the tests.
 */
export const MAX_WINDOW = 1 << 20;
export const ERRORS = [
  null,
  "corrupt entropy-coded data",
  "entropy-coded data ends early (truncated file?)",
  "restart marker missing",
] as const;
export const NEED_MORE = 4;

/** A Huffman table in the kernel's layout (entropy.ts TABLE_BYTES). */
export function tableBytes(t: HuffmanTable): Uint8Array {
  const out = new Uint8Array(TABLE_BYTES);
  const view = new DataView(out.buffer);
  new Uint16Array(out.buffer, 0, 512).set(t.lookup);
  new Int32Array(out.buffer, 1024, 18).set(t.maxCode);
  new Int32Array(out.buffer, 1024 + 72, 17).set(t.valPtr);
  new Int32Array(out.buffer, 1024 + 72 + 68, 17).set(t.minCode);
  for (let k = 0; k < 256; k++)
    view.setUint16(1024 + 72 + 68 + 68 + k * 2, k < t.spec.symbols.length ? t.spec.symbols[k] : 256, true);
  return out;
}

/**
 * Fast tables per table of a file (its parsed structure is cached, so every decoder of the file shares them), one
 * cache per kind: a table's entries depend on whether its symbols are read as AC or DC codes.
 */
const fastAcTables = new WeakMap<HuffmanTable["spec"], Int32Array>();
const fastDcTables = new WeakMap<HuffmanTable["spec"], Int32Array>();

/**
 * Per next 11 bits, the AC code (run, size > 0) they start with, as the reference's decodeSymbol reads it (the 9-bit
 * lookup, then codes of 10 and 11 bits), when its value's bits follow within them, decoded whole: (value << 8) |
 * (run << 4) | (code length + size); 0 otherwise (entropy.ts decodeBlock then decodes symbol and value one after the
 * other). 11 bits, not the lookup's 9: 24 MP Huffman 113 → 105 ms (docs/benchmarks.md).
 */
export function fastAc(t: HuffmanTable): Int32Array {
  return fastTable(t, fastAcTables, (symbol) => (symbol & 15 ? symbol & 15 : -1));
}

/**
 * The same for a DC table: per next 11 bits the DC code (size 0–16; a larger one is corrupt data) and its
 * difference's bits, when both lie within them: (difference << 8) | (code length + size), 0 otherwise.
 */
export function fastDc(t: HuffmanTable): Int32Array {
  return fastTable(t, fastDcTables, (symbol) => (symbol <= 16 ? symbol : -1));
}

/** The fast table of `t` (kept in `cache`), whose symbols have value bits of `sizeOf(symbol)` (−1: no entry). */
function fastTable(
  t: HuffmanTable,
  cache: WeakMap<HuffmanTable["spec"], Int32Array>,
  sizeOf: (symbol: number) => number,
): Int32Array {
  let fast = cache.get(t.spec);
  if (fast) return fast;
  fast = new Int32Array(2048);
  for (let bits = 0; bits < 2048; bits++) {
    const entry = t.lookup[bits >> 2];
    const code = entry ? entry : longCode(t, bits);
    const length = code >> 8;
    const size = code < 0 ? -1 : sizeOf(code & 0xff);
    if (size < 0 || length + size > 11) continue;
    const raw = (bits >> (11 - length - size)) & ((1 << size) - 1);
    const value = size === 0 ? 0 : raw < 1 << (size - 1) ? raw - (1 << size) + 1 : raw;
    fast[bits] = (value << 8) | (code & 0xf0) | (length + size);
  }
  cache.set(t.spec, fast);
  return fast;
}

/** The code of 10 or 11 bits that 11 `bits` start with as decodeSymbol reads it, as (length << 8) | symbol, or −1. */
function longCode(t: HuffmanTable, bits: number): number {
  for (let length = 10; length <= 11; length++) {
    const code = bits >> (11 - length);
    if (code <= t.maxCode[length]) {
      const k = t.valPtr[length] + code - t.minCode[length];
      return k >= 0 && k < t.spec.symbols.length ? (length << 8) | t.spec.symbols[k] : -1;
    }
  }
  return -1;
}

export class WasmScanDecoder {
  readonly components: readonly ScanComponent[];
  readonly mcusX: number;
  readonly mcusY: number;
  /** Blocks in one MCU row. */
  readonly blocksPerRow: number;
  private failure: string | null = null;
  /** The state between rows (entropy.ts: pos, buffer, bits, synthetic, markerHit, overrun, mcusDecoded, blocks, 4 predictions). */
  private readonly state = new Int32Array(STATE_BYTES / 4);
  private readonly tables: Uint8Array;
  private readonly layout: Int32Array;
  private window = MIN_WINDOW;
  /** One MCU row of coefficients in JavaScript memory, for decodeRow's visitor. */
  private readonly coefficients: Int16Array;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly scan: ScanDecoder,
  ) {
    this.components = scan.components;
    this.mcusX = scan.mcusX;
    this.mcusY = scan.mcusY;
    this.blocksPerRow = scan.mcusX * scan.components.reduce((n, c) => n + c.h * c.v, 0);
    this.coefficients = new Int16Array(this.blocksPerRow * 64);
    const tables = scan.tables;
    this.tables = new Uint8Array(tables.length * 2 * BASELINE_TABLE_BYTES);
    this.layout = new Int32Array(tables.length * 5);
    tables.forEach(({ dc, ac }, i) => {
      this.tables.set(tableBytes(dc), 2 * i * BASELINE_TABLE_BYTES);
      this.tables.set(tableBytes(ac), (2 * i + 1) * BASELINE_TABLE_BYTES);
      new Int32Array(this.tables.buffer, 2 * i * BASELINE_TABLE_BYTES + TABLE_BYTES, 2048).set(fastDc(dc));
      new Int32Array(this.tables.buffer, (2 * i + 1) * BASELINE_TABLE_BYTES + TABLE_BYTES, 2048).set(fastAc(ac));
      const c = scan.components[i];
      this.layout.set([c.index, c.h, c.v, 2 * i, 2 * i + 1], i * 5);
    });
    this.state[0] = scan.start;
  }

  /** The decoder for the file's first scan, or why there is none (ScanDecoder.open's reasons). */
  static open(bytes: Uint8Array, structure: JpegStructure): WasmScanDecoder | string {
    const scan = ScanDecoder.open(bytes, structure);
    return typeof scan === "string" ? scan : new WasmScanDecoder(bytes, scan);
  }

  get mcusDecoded(): number {
    return this.state[6];
  }

  get mcusTotal(): number {
    return this.mcusX * this.mcusY;
  }

  /** Scratch bytes the decoder itself needs behind the caller's `reserve` (the window excluded). */
  private regions(reserve: number): { state: number; tables: number; layout: number; window: number } {
    const state = align16(reserve);
    const tables = state + STATE_BYTES;
    const layout = align16(tables + this.tables.length);
    const window = align16(layout + this.layout.length * 4);
    return { state, tables, layout, window };
  }

  /**
   * Decodes the next MCU row into the scratch area at `coefficientsAt` (64 i16 per block, in MCU
   * order), leaving the first `reserve` bytes of the scratch area to the caller. Returns how many
   * blocks were decoded and why decoding stopped, if it did (those blocks stay valid).
   */
  decodeRowInto(reserve: number, coefficientsAt: number): { blocks: number; error: string | null } {
    if (this.failure) return { blocks: 0, error: this.failure };
    const my = this.state[6] / this.mcusX;
    if (my >= this.mcusY) return { blocks: 0, error: "no more MCU rows" };
    const r = this.regions(reserve);
    const pos = this.state[0];
    for (;;) {
      const end = Math.min(this.bytes.length, pos + this.window);
      const s = scratch(r.window + (end - pos));
      s.bytes.set(this.bytes.subarray(pos, end), s.base + r.window);
      s.bytes.set(this.tables, s.base + r.tables);
      new Int32Array(s.buffer, s.base + r.layout, this.layout.length).set(this.layout);
      const state = new Int32Array(s.buffer, s.base + r.state, this.state.length);
      state.set(this.state);
      const result = kernels().decodeMcuRow(
        s.base + r.state,
        my,
        this.mcusX,
        this.scan.restartInterval,
        this.components.length,
        s.base + r.layout,
        s.base + r.tables,
        s.base + r.window,
        pos,
        end,
        this.bytes.length,
        s.base + coefficientsAt,
      );
      if (result === NEED_MORE) {
        // A row longer than MAX_WINDOW (junk before a restart marker in a crafted file): decoded by the
        // JavaScript decoder from the same state, so wasm memory, which never shrinks, stays small.
        if (end - pos >= MAX_WINDOW) return this.decodeRowInJavaScript(coefficientsAt);
        this.window = Math.min(this.window * 4, MAX_WINDOW);
        continue;
      }
      this.state.set(state);
      this.window = Math.max(MIN_WINDOW, 2 * (this.state[0] - pos) + 4096);
      this.failure = ERRORS[result];
      return { blocks: this.state[7], error: this.failure };
    }
  }

  /** The next row by the JavaScript ScanDecoder, resumed from this decoder's state and handing it back. */
  private decodeRowInJavaScript(coefficientsAt: number): { blocks: number; error: string | null } {
    const [pos, buffer, bits, synthetic, markerHit, overrun, mcusDecoded] = this.state;
    this.scan.state = {
      reader: [pos, buffer >>> 0, bits, synthetic, markerHit !== 0, overrun !== 0],
      mcusDecoded,
      predictions: [...this.state.subarray(8, 8 + this.components.length)],
    };
    let blocks = 0;
    const error = this.scan.decodeRow((_component, _row, _col, coefficients) => {
      const s = scratch(coefficientsAt + this.blocksPerRow * 128);
      new Int16Array(s.buffer, s.base + coefficientsAt + blocks * 128, 64).set(coefficients);
      blocks++;
    });
    const state = this.scan.state;
    this.state.set([...state.reader.map(Number), state.mcusDecoded, blocks]);
    state.predictions.forEach((p, i) => {
      this.state[8 + i] = p;
    });
    this.failure = error;
    return { blocks, error };
  }

  /** As ScanDecoder.decodeRow: decodes the next MCU row and visits its blocks (the decoded ones when it fails). */
  decodeRow(visit: BlockVisitor): string | null {
    const my = this.state[6] / this.mcusX;
    const reserve = align16(this.blocksPerRow * 128);
    const { blocks, error } = this.decodeRowInto(reserve, 0);
    if (blocks > 0) {
      // Copied out first: a visitor may run other kernels, which reuse the scratch area.
      const s = scratch(reserve);
      const all = this.coefficients;
      all.set(new Int16Array(s.buffer, s.base, blocks * 64));
      let n = 0;
      for (let mx = 0; mx < this.mcusX && n < blocks; mx++)
        for (const c of this.components)
          for (let by = 0; by < c.v; by++)
            for (let bx = 0; bx < c.h && n < blocks; bx++, n++)
              visit(c.index, my * c.v + by, mx * c.h + bx, all.subarray(n * 64, n * 64 + 64));
    }
    return error;
  }
}

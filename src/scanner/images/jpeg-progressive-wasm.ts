/**
 * The progressive decoder of jpeg-progressive.ts with its Huffman decoding in wasm
 * (wasm/assembly/progressive.ts), one MCU row per call: the same blocks, the same errors at the same
 * place (the JavaScript ProgressiveScanDecoder is the reference, test/forensics/image/
 * wasm-progressive.test.ts). As for baseline scans (jpeg-entropy-wasm.ts) the file stays in JavaScript:
 * for each scan a window of its data is copied into the kernels' scratch area, grown when a row runs past
 * it; the row's coefficients stay in the scratch area while every scan adds its part.
 */
import type { BlockVisitor, HuffmanTable, ScanComponent } from "./jpeg-entropy";
import { ERRORS, MAX_WINDOW, MIN_WINDOW, NEED_MORE, TABLE_BYTES, tableBytes } from "./jpeg-entropy-wasm";
import type { JpegStructure } from "./jpeg-markers";
import { type OpenScan, ProgressiveScanDecoder } from "./jpeg-progressive";
import { align16, kernels, scratch } from "./wasm-kernels";

/** A scan's state in the kernel's layout (progressive.ts): reader (6), MCUs, end-of-band run, units, 4 predictions. */
const STATE_INTS = 13;
const UNITS = 8;
/** A scan's parameters (progressive.ts): 8 i32, then 7 per component. */
const PARAM_INTS = 8 + 7 * 4;
/**
 * The kernel's own scratch: the working predictions (16 bytes) and the write log of one unit, 8 bytes per
 * write: a unit writes each coefficient of its blocks at most once (an MCU of at most 10 blocks, or one block).
 */
const WORK_BYTES = 16 + 8 * 64 * 10;

/** Where the decoder's inputs lie in the scratch area (byte offsets from its base). */
interface Regions {
  params: number;
  tables: number;
  state: number;
  work: number;
  window: number;
}

export class WasmProgressiveScanDecoder {
  private failure: string | null = null;
  /** Every scan's state between rows, STATE_INTS each. */
  private readonly states: Int32Array;
  private readonly params: Int32Array;
  private readonly tables: Uint8Array;
  /** Each scan's window size, adapted to its rows. */
  private readonly windows: number[];
  /** One MCU row of coefficients in JavaScript memory, for decodeRow's visitor. */
  private readonly coefficients: Int16Array;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly reference: ProgressiveScanDecoder,
  ) {
    this.coefficients = new Int16Array(this.blocksPerRow * 64);
    const scans = reference.scans;
    this.windows = scans.map(() => MIN_WINDOW);
    this.states = new Int32Array(scans.length * STATE_INTS);
    this.params = new Int32Array(scans.length * PARAM_INTS);
    const tableIndex = new Map<HuffmanTable, number>();
    const indexOf = (t: HuffmanTable | null) => {
      if (!t) return -1;
      if (!tableIndex.has(t)) tableIndex.set(t, tableIndex.size);
      return tableIndex.get(t) as number;
    };
    scans.forEach((scan, i) => {
      const { ss, se, ah, al } = scan.header;
      const p = [ss, se, ah, al, scan.restartInterval, scan.components.length, this.mcusX, reference.blocksPerMcu];
      for (const c of scan.components) {
        const l = c.layout;
        p.push(indexOf(c.dc), indexOf(c.ac), l.h, l.v, l.inMcu, l.blocksWide, l.blocksHigh);
      }
      this.params.set(p, i * PARAM_INTS);
      this.states.set(kernelState(scan), i * STATE_INTS);
    });
    this.tables = new Uint8Array(tableIndex.size * TABLE_BYTES);
    for (const [t, i] of tableIndex) this.tables.set(tableBytes(t), i * TABLE_BYTES);
  }

  /** The decoder, or why the file cannot be read (ProgressiveScanDecoder.open's reasons). */
  static open(
    bytes: Uint8Array,
    structure: JpegStructure,
    wanted?: readonly number[],
  ): WasmProgressiveScanDecoder | string {
    const reference = ProgressiveScanDecoder.open(bytes, structure, wanted);
    return typeof reference === "string" ? reference : new WasmProgressiveScanDecoder(bytes, reference);
  }

  // The picture's layout and progress are the reference decoder's (its MCU row count is advanced here).
  get components(): readonly ScanComponent[] {
    return this.reference.components;
  }

  get mcusX(): number {
    return this.reference.mcusX;
  }

  get mcusY(): number {
    return this.reference.mcusY;
  }

  get blocksPerRow(): number {
    return this.reference.blocksPerRow;
  }

  get mcusDecoded(): number {
    return this.reference.mcusDecoded;
  }

  get mcusTotal(): number {
    return this.mcusX * this.mcusY;
  }

  /** Scratch regions behind the caller's `reserve`: parameters, tables, scan state, the kernel's work area, the window. */
  private regions(reserve: number): Regions {
    const params = align16(reserve);
    const tables = align16(params + this.params.length * 4);
    const state = align16(tables + this.tables.length);
    const work = align16(state + STATE_INTS * 4);
    return { params, tables, state, work, window: align16(work + WORK_BYTES) };
  }

  /**
   * As WasmScanDecoder.decodeRowInto: the next MCU row's coefficients written into the kernels' scratch
   * area at `coefficientsAt` (64 i16 per block, MCU order), behind the caller's first `reserve` bytes.
   * A progressive row is complete or missing.
   */
  decodeRowInto(reserve: number, coefficientsAt: number): { blocks: number; error: string | null } {
    if (this.failure) return { blocks: 0, error: this.failure };
    const my = this.reference.mcusDecoded / this.mcusX;
    if (my >= this.mcusY) return { blocks: 0, error: "no more MCU rows" };
    const r = this.regions(reserve);
    const s = scratch(r.window);
    s.bytes.fill(0, s.base + coefficientsAt, s.base + coefficientsAt + this.blocksPerRow * 128);
    s.bytes.set(this.tables, s.base + r.tables);
    new Int32Array(s.buffer, s.base + r.params, this.params.length).set(this.params);
    for (let i = 0; i < this.reference.scans.length; i++) {
      this.failure = this.decodeScanRow(i, my, r, coefficientsAt);
      if (this.failure) return { blocks: 0, error: this.failure };
    }
    this.reference.mcusDecoded += this.mcusX;
    return { blocks: this.blocksPerRow, error: null };
  }

  /** Scan `i`'s blocks of MCU row `my`, its window grown until the row fits; null, or why it stopped. */
  private decodeScanRow(i: number, my: number, r: Regions, rowAt: number): string | null {
    const saved = this.states.subarray(i * STATE_INTS, (i + 1) * STATE_INTS);
    for (;;) {
      const pos = saved[0];
      const end = Math.min(this.bytes.length, pos + this.windows[i]);
      const s = scratch(r.window + (end - pos));
      s.bytes.set(this.bytes.subarray(pos, end), s.base + r.window);
      const state = new Int32Array(s.buffer, s.base + r.state, STATE_INTS);
      state.set(saved);
      const result = kernels().decodeProgressiveScanRow(
        s.base + r.state,
        s.base + r.params + i * PARAM_INTS * 4,
        s.base + r.tables,
        my,
        s.base + r.window,
        pos,
        end,
        this.bytes.length,
        s.base + rowAt,
        s.base + r.work,
      );
      saved.set(state); // the units it completed, also on NEED_MORE
      if (result !== NEED_MORE) {
        this.windows[i] = Math.max(MIN_WINDOW, 2 * (saved[0] - pos) + 4096);
        return ERRORS[result];
      }
      // A row longer than MAX_WINDOW (junk before a restart marker in a crafted file): the rest of the row by
      // the JavaScript decoder from the same state, so wasm memory, which never shrinks, stays small.
      if (end - pos >= MAX_WINDOW) return this.decodeScanRowInJavaScript(i, my, rowAt);
      if (saved[0] === pos) this.windows[i] = Math.min(this.windows[i] * 4, MAX_WINDOW);
    }
  }

  /** The rest of scan `i`'s row by the reference decoder, resumed from this decoder's state and handing it back. */
  private decodeScanRowInJavaScript(i: number, my: number, rowAt: number): string | null {
    const saved = this.states.subarray(i * STATE_INTS, (i + 1) * STATE_INTS);
    const scan = this.reference.scans[i];
    fromKernelState(scan, saved);
    const s = scratch(rowAt + this.blocksPerRow * 128);
    const row = new Int16Array(s.buffer, s.base + rowAt, this.blocksPerRow * 64);
    const error = this.reference.decodeScanRow(scan, my, row, saved[UNITS]);
    saved.set(kernelState(scan));
    return error;
  }

  /** As ProgressiveScanDecoder.decodeRow: decodes the next MCU row and visits all its blocks. */
  decodeRow(visit: BlockVisitor): string | null {
    const my = this.reference.mcusDecoded / this.mcusX;
    const { error } = this.decodeRowInto(align16(this.blocksPerRow * 128), 0);
    if (error) return error;
    // Copied out first: a visitor may run other kernels, which reuse the scratch area.
    const s = scratch(this.blocksPerRow * 128);
    this.coefficients.set(new Int16Array(s.buffer, s.base, this.blocksPerRow * 64));
    let n = 0;
    for (let mx = 0; mx < this.mcusX; mx++)
      for (const c of this.components)
        for (let by = 0; by < c.v; by++)
          for (let bx = 0; bx < c.h; bx++, n++)
            visit(c.index, my * c.v + by, mx * c.h + bx, this.coefficients.subarray(n * 64, n * 64 + 64));
    return null;
  }
}

/** A scan's state in the kernel's layout, its unit count 0 (between rows). */
function kernelState(scan: OpenScan): number[] {
  const preds = scan.components.map((c) => c.pred);
  const [pos, buffer, bits, synthetic, markerHit, overrun] = scan.reader.state;
  return [pos, buffer | 0, bits, synthetic, +markerHit, +overrun, scan.mcus, scan.eobrun, 0, ...preds];
}

/** The kernel's state back into the reference's scan (the unit count stays with the caller). */
function fromKernelState(scan: OpenScan, state: Int32Array): void {
  const [pos, buffer, bits, synthetic, markerHit, overrun, mcus, eobrun] = state;
  scan.reader.state = [pos, buffer >>> 0, bits, synthetic, markerHit !== 0, overrun !== 0];
  scan.mcus = mcus;
  scan.eobrun = eobrun;
  scan.components.forEach((c, k) => {
    c.pred = state[9 + k];
  });
}

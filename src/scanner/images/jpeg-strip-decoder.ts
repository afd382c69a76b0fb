/**
 * Streaming pixel decoder for baseline (SOF0/SOF1, 8-bit, Huffman) and progressive (SOF2) JPEGs: one
 * MCU row at a time, Huffman (jpeg-entropy.ts; a progressive file's scans in step, jpeg-progressive.ts)
 * → dequantise + IDCT (jpeg-idct.ts) → chroma upsampling
 * (jpeg-upsample.ts) → YCbCr→RGB (JFIF, jpeg-color.ts), emitted as full-width RGBA rows. It holds
 * two MCU rows of component samples (the next one is needed for the vertical chroma filter) and one
 * band of RGBA, O(width × MCU height): a 24 MP photo needs well under 1 MB instead of photon's ~176 MB.
 * Grayscale and 3-component YCbCr (or Adobe RGB) with any integer sampling; everything else
 * (CMYK, 12-bit, arithmetic, lossless, a sequential file of several scans) is refused so callers can fall back.
 * IDCT, upsampling and colour conversion run in the SIMD wasm kernels (wasm-kernels.ts) unless the
 * decoder is opened with `{ reference: true }`: then the JavaScript functions above do it, which the
 * tests compare against (identical bytes).
 */
import { componentsToRgba, isRgb } from "./jpeg-color";
import {
  gatherLumaRowsInScratch,
  type LumaBlockVisitor,
  type LumaRowsVisitor,
  lumaBlockGrid,
  lumaGridIsPicture,
  lumaRowsInScratch,
  openRowDecoder,
  type RowDecoder,
  type RowsLayout,
  rowsAt,
  rowsLayout,
} from "./jpeg-coefficients";
import type { ScanDecoder } from "./jpeg-entropy";
import { idctBlockToBytes } from "./jpeg-idct";
import { type JpegStructure, parseJpegStructure } from "./jpeg-markers";
import { MAX_STREAMED_JPEG_PIXELS } from "./pixel-budget";
import { ImageDataError, type RgbaBand, type RgbaBandSource } from "./rgba-band";
import { sourceLines, type UpsampleKind, upsampleKind, upsampleRow } from "./jpeg-upsample";
import { align16, kernels, scratch, UPSAMPLE_CODES } from "./wasm-kernels";

/** The entropy-coded data is corrupt or truncated; thrown while decoding rows. */
export class JpegDataError extends ImageDataError {
  override name = "JpegDataError";
}

interface ComponentPlane {
  kind: UpsampleKind;
  table: Uint16Array;
  /** Samples per line in the buffers (whole blocks) and lines per band. */
  stride: number;
  lines: number;
  /** Real samples across / down (ceil(size × sampling / max sampling)). */
  width: number;
  height: number;
  hFactor: number;
  vFactor: number;
  current: Uint8Array;
  following: Uint8Array;
  /** Last line of the previous band (the vertical filter of the band's first row needs it). */
  above: Uint8Array;
  /** One upsampled output line. */
  line: Uint8Array;
}

/** i32 fields of one plane's description for the band kernel (color.ts emitRgbaRows). */
const PLANE_FIELDS = 10;

/** Where each part of one MCU row's IDCT lives in the kernels' scratch area (byte offsets from its base). */
interface WasmLayout {
  /** The luminance block rows handed to `lumaRows` (last in the area: their sinks' regions follow them). */
  rows: RowsLayout | null;
  tables: number;
  /** Per block of an MCU row, in MCU order: quantisation table, output offset, stride (the same every row). */
  layout: Int32Array;
  layoutAt: number;
  coefficients: number;
  /** Per plane: its IDCT output (stride × lines), then its band input (above, current, following). */
  planeOut: number[];
  planeIn: number[];
  lineOut: number[];
  /** The planes' descriptions for color.ts emitRgbaRows (PLANE_FIELDS i32 each). */
  planes: number;
  rgba: number;
  bytes: number;
  blocksPerRow: number;
}

/** How the decoder runs its pixel kernels: the wasm ones, or the JavaScript reference. */
export interface StripDecoderOptions {
  reference?: boolean;
  /**
   * Also given every luminance block inside the image as it is Huffman-decoded (block row, column,
   * quantised coefficients in natural order, as jpeg-coefficients.ts `decodeLumaCoefficients` visits
   * them): one entropy pass for both pixels and coefficients.
   */
  luma?: LumaBlockVisitor;
  /**
   * Also given the luminance's whole block rows of each MCU row in the kernels' scratch area (as jpeg-coefficients.ts
   * `decodeLumaCoefficients` hands them): gathered in wasm, no call or copy per block. Only for a frame whose
   * luminance block grid is the picture's (`lumaGridIsPicture`); `open` refuses it otherwise.
   */
  lumaRows?: LumaRowsVisitor;
}

/** Where a decoder hands its luminance blocks, and which of them lie inside the image. */
interface LumaTap {
  visit: LumaBlockVisitor;
  blocksWide: number;
  blocksHigh: number;
  /** One MCU row's coefficients, copied out of the kernels' memory before the IDCT reuses it. */
  row: Int16Array;
}

/** Where a decoder hands its luminance block rows. */
interface LumaRowsTap {
  visit: LumaRowsVisitor;
  blocksWide: number;
  blocksHigh: number;
  /** Block rows per MCU row (the luminance's vertical sampling factor in the scan). */
  perMcu: number;
  /** The JavaScript reference's rows of the MCU row being decoded (the wasm path gathers them in wasm memory). */
  gathered: Int16Array | null;
}

export class JpegStripDecoder implements RgbaBandSource {
  readonly width: number;
  readonly height: number;
  /** Output rows per band (the MCU height). */
  readonly bandHeight: number;
  private readonly planes: ComponentPlane[];
  /** Each plane's upsampled output line, in component order. */
  private readonly outputLines: Uint8Array[];
  private readonly rgb: boolean;
  private readonly rgba: Uint8Array;
  /** Next band to emit. */
  private band = 0;
  /** Scratch layout of the wasm kernels; null = the JavaScript reference. */
  private readonly wasm: WasmLayout | null;
  private readonly luma: LumaTap | null;
  private readonly lumaRows: LumaRowsTap | null;
  /** MCU rows decoded so far. */
  private mcuRow = 0;

  private constructor(
    private readonly scan: RowDecoder,
    structure: JpegStructure,
    planes: ComponentPlane[],
    options: StripDecoderOptions,
  ) {
    const frame = structure.frame as NonNullable<JpegStructure["frame"]>;
    this.width = frame.width;
    this.height = frame.height;
    this.planes = planes;
    this.outputLines = planes.map((p) => p.line);
    this.bandHeight = planes[0].lines * planes[0].vFactor;
    this.rgb = planes.length === 3 && isRgb(structure);
    this.rgba = new Uint8Array(this.width * this.bandHeight * 4);
    const grid = lumaBlockGrid(frame);
    const perMcu = this.scan.components.find((c) => c.index === 0)?.v ?? 1;
    this.lumaRows = options.lumaRows
      ? {
          visit: options.lumaRows,
          ...grid,
          perMcu,
          gathered: options.reference ? new Int16Array(perMcu * grid.blocksWide * 64) : null,
        }
      : null;
    this.wasm = options.reference ? null : this.wasmLayout();
    const blocksPerRow = this.scan.mcusX * this.scan.components.reduce((n, c) => n + c.h * c.v, 0);
    this.luma = options.luma ? { visit: options.luma, ...grid, row: new Int16Array(blocksPerRow * 64) } : null;
  }

  private wasmLayout(): WasmLayout {
    const blocksPerRow = this.scan.mcusX * this.scan.components.reduce((n, c) => n + c.h * c.v, 0);
    let at = 0;
    const take = (bytes: number) => {
      const start = at;
      at = align16(at + bytes);
      return start;
    };
    const tables = take(this.planes.length * 128);
    const layoutAt = take(blocksPerRow * 12);
    const coefficients = take(blocksPerRow * 128);
    const planeOut = this.planes.map((p) => take(p.stride * p.lines));
    const planeIn = this.planes.map((p) => take(p.stride * (2 * p.lines + 1)));
    const lineOut = this.planes.map((p) => take(p.line.length));
    const planes = take(this.planes.length * PLANE_FIELDS * 4);
    const rgba = take(this.rgba.length);
    // The luminance rows last: their sinks' regions start behind them and leave the decoder's own regions alone.
    const rows = this.lumaRows ? rowsLayout(this.lumaRows.perMcu, this.lumaRows.blocksWide, take(0)) : null;
    if (rows) at = rows.reserve;
    // Blocks come in MCU order: per MCU, per scan component, its v × h blocks.
    const layout = new Int32Array(blocksPerRow * 3);
    let n = 0;
    for (let mx = 0; mx < this.scan.mcusX; mx++)
      for (const c of this.scan.components)
        for (let by = 0; by < c.v; by++)
          for (let bx = 0; bx < c.h; bx++, n++) {
            const p = this.planes[c.index];
            layout[n * 3] = c.index;
            layout[n * 3 + 1] = planeOut[c.index] + by * 8 * p.stride + (mx * c.h + bx) * 8;
            layout[n * 3 + 2] = p.stride;
          }
    return {
      rows,
      tables,
      layout,
      layoutAt,
      coefficients,
      planeOut,
      planeIn,
      lineOut,
      planes,
      rgba,
      bytes: at,
      blocksPerRow,
    };
  }

  /** A decoder for `bytes`, or why this decoder cannot read the file (callers fall back). */
  static open(
    bytes: Uint8Array,
    structure: JpegStructure = parseJpegStructure(bytes),
    options: StripDecoderOptions = {},
  ): JpegStripDecoder | string {
    const frame = structure.frame;
    // Before anything is allocated: the declared size alone decides (a header may claim any size).
    if (frame && frame.width * frame.height > MAX_STREAMED_JPEG_PIXELS)
      return `too large to stream (${frame.width} × ${frame.height})`;
    if (frame && frame.components.length !== 1 && frame.components.length !== 3)
      return `${frame.components.length} colour components`;
    const scan = openRowDecoder(bytes, structure, options);
    if (typeof scan === "string") return scan;
    if (structure.scanStarts.length > 1 && frame?.marker !== 0xc2) return "several scans";
    if (!frame || scan.components.length !== frame.components.length) return "scan without all components";
    if (options.lumaRows && !lumaGridIsPicture(frame)) return "luminance block grid is not the picture's";
    const single = frame.components.length === 1;
    const hMax = single ? 1 : Math.max(...frame.components.map((c) => c.h));
    const vMax = single ? 1 : Math.max(...frame.components.map((c) => c.v));
    const planes: ComponentPlane[] = [];
    for (const c of scan.components) {
      const component = frame.components[c.index];
      const table = structure.quantTables.get(component.tq);
      if (!table) return "missing quantisation table";
      const h = single ? 1 : component.h;
      const v = single ? 1 : component.v;
      const kind = upsampleKind(h, v, hMax, vMax);
      if (!kind) return "non-integer chroma subsampling";
      const stride = scan.mcusX * c.h * 8;
      const lines = c.v * 8;
      planes[c.index] = {
        kind,
        table,
        stride,
        lines,
        width: Math.ceil((frame.width * h) / hMax),
        height: Math.ceil((frame.height * v) / vMax),
        hFactor: hMax / h,
        vFactor: vMax / v,
        current: new Uint8Array(stride * lines),
        following: new Uint8Array(stride * lines),
        above: new Uint8Array(stride),
        line: new Uint8Array(stride * (hMax / h)),
      };
    }
    return new JpegStripDecoder(scan, structure, planes, options);
  }

  /** The next band of RGBA rows, or null after the last. Throws JpegDataError on corrupt data. */
  next(): RgbaBand | null {
    const y = this.band * this.bandHeight;
    if (y >= this.height) return null;
    if (this.band === 0) this.decodeInto("current");
    if (this.band + 1 < this.scan.mcusY) this.decodeInto("following");
    const rows = Math.min(this.bandHeight, this.height - y);
    if (this.wasm) this.emitBandWasm(this.wasm, y, rows);
    else
      for (let r = 0; r < rows; r++)
        this.emitRow(y + r, this.rgba.subarray(r * this.width * 4, (r + 1) * this.width * 4));
    for (const p of this.planes) {
      p.above.set(p.current.subarray((p.lines - 1) * p.stride, p.lines * p.stride));
      [p.current, p.following] = [p.following, p.current];
    }
    this.band++;
    return { y, rows, rgba: this.rgba.subarray(0, rows * this.width * 4) };
  }

  private decodeInto(target: "current" | "following"): void {
    if (this.wasm) {
      this.decodeIntoWasm(this.wasm, target);
      return;
    }
    const luma = this.luma;
    const rows = this.lumaRows;
    const first = this.mcuRow * (rows?.perMcu ?? 0);
    const error = this.scan.decodeRow((component, row, col, coefficients) => {
      const p = this.planes[component];
      const line = (row % (p.lines / 8)) * 8;
      if (luma && component === 0 && row < luma.blocksHigh && col < luma.blocksWide) luma.visit(row, col, coefficients);
      if (rows?.gathered && component === 0 && row < rows.blocksHigh && col < rows.blocksWide)
        rows.gathered.set(coefficients, ((row - first) * rows.blocksWide + col) * 64);
      idctBlockToBytes(coefficients, p.table, p[target], line * p.stride + col * 8, p.stride);
    });
    this.mcuRow++;
    if (error) throw new JpegDataError(error);
    if (rows?.gathered && first < rows.blocksHigh) {
      const count = Math.min(rows.perMcu, rows.blocksHigh - first);
      rows.visit(lumaRowsInScratch(first, count, rows.blocksWide, rows.gathered, this.planes[0].table));
    }
  }

  /** One MCU row: Huffman decoding and IDCT in wasm, the coefficients never leave its memory. */
  private decodeIntoWasm(w: WasmLayout, target: "current" | "following"): void {
    const { blocks: n, error } = (this.scan as Exclude<RowDecoder, ScanDecoder>).decodeRowInto(w.bytes, w.coefficients);
    const s = scratch(w.bytes);
    this.luma?.row.set(new Int16Array(s.buffer, s.base + w.coefficients, n * 64));
    const tables = new Uint16Array(s.buffer, s.base + w.tables, this.planes.length * 64);
    this.planes.forEach((p, i) => tables.set(p.table, i * 64));
    new Int32Array(s.buffer, s.base + w.layoutAt, w.layout.length).set(w.layout);
    kernels().idctBlocks(n, s.base + w.coefficients, s.base + w.layoutAt, s.base + w.tables, s.base);
    this.planes.forEach((p, i) => {
      const start = s.base + w.planeOut[i];
      p[target].set(s.bytes.subarray(start, start + p.stride * p.lines));
    });
    // After the IDCT: the visitors may run kernels of their own, which reuse the scratch area (the rows' samples
    // are read from the IDCT's output first; the blocks were copied out above).
    if (this.lumaRows && w.rows && !error) this.visitLumaRows(this.lumaRows, w.rows, w.coefficients, w.planeOut[0]);
    if (this.luma) this.visitLuma(this.luma, n);
    this.mcuRow++;
    if (error) throw new JpegDataError(error);
  }

  /**
   * The MCU row's luminance block rows (those inside the picture) gathered from its coefficients at `mcu` into
   * the rows' place behind the decoder's own regions, where every row sink's kernel reads them; their samples are
   * the lines the IDCT just wrote to the luminance plane at `planeOut` (the same idctBlock of the same blocks and
   * table), copied, not computed again.
   */
  private visitLumaRows(tap: LumaRowsTap, rows: RowsLayout, mcu: number, planeOut: number): void {
    const first = this.mcuRow * tap.perMcu;
    if (first >= tap.blocksHigh) return;
    const count = Math.min(tap.perMcu, tap.blocksHigh - first);
    gatherLumaRowsInScratch(this.scan as Exclude<RowDecoder, ScanDecoder>, mcu, rows, tap.blocksWide);
    const s = scratch(rows.reserve);
    const { stride } = this.planes[0];
    const width = tap.blocksWide * 8;
    for (let line = 0; line < count * 8; line++) {
      const from = s.base + planeOut + line * stride;
      s.bytes.copyWithin(s.base + rows.samples + line * width, from, from + width);
    }
    tap.visit(rowsAt(rows, first, count, tap.blocksWide, this.planes[0].table, true));
  }

  /** The luminance blocks among the MCU row's first `n` blocks (MCU order, as WasmScanDecoder.decodeRow visits them). */
  private visitLuma(luma: LumaTap, n: number): void {
    const my = this.mcuRow;
    let b = 0;
    for (let mx = 0; mx < this.scan.mcusX && b < n; mx++)
      for (const c of this.scan.components)
        for (let by = 0; by < c.v; by++)
          for (let bx = 0; bx < c.h && b < n; bx++, b++) {
            const row = my * c.v + by;
            const col = mx * c.h + bx;
            if (c.index === 0 && row < luma.blocksHigh && col < luma.blocksWide)
              luma.visit(row, col, luma.row.subarray(b * 64, b * 64 + 64));
          }
  }

  /** One band of RGBA rows: the planes' band lines copied in, upsampled and converted in wasm (one call), copied out. */
  private emitBandWasm(w: WasmLayout, y: number, rows: number): void {
    const s = scratch(w.bytes);
    const planes = new Int32Array(s.buffer, s.base + w.planes, this.planes.length * PLANE_FIELDS);
    this.planes.forEach((p, i) => {
      const start = s.base + w.planeIn[i];
      s.bytes.set(p.above, start);
      s.bytes.set(p.current, start + p.stride);
      s.bytes.set(p.following, start + p.stride * (p.lines + 1));
      // color.ts emitRgbaRows' plane description.
      const d = i * PLANE_FIELDS;
      planes[d] = UPSAMPLE_CODES[p.kind];
      planes[d + 1] = start;
      planes[d + 2] = p.stride;
      planes[d + 3] = p.lines;
      planes[d + 4] = this.band * p.lines;
      planes[d + 5] = p.height;
      planes[d + 6] = p.width;
      planes[d + 7] = p.hFactor;
      planes[d + 8] = p.vFactor;
      planes[d + 9] = s.base + w.lineOut[i];
    });
    const rowsAt = s.base + w.rgba;
    kernels().emitRgbaRows(this.planes.length, this.rgb ? 1 : 0, s.base + w.planes, y, rows, this.width, rowsAt);
    this.rgba.set(s.bytes.subarray(rowsAt, rowsAt + rows * this.width * 4));
  }

  /** Component line `r` (clamped) from the band buffers; `band` is the band being emitted. */
  private componentLine(p: ComponentPlane, r: number): Uint8Array {
    const first = this.band * p.lines;
    const line = Math.min(Math.max(r, 0), p.height - 1) - first;
    if (line < 0) return p.above;
    if (line >= p.lines) return p.following.subarray((line - p.lines) * p.stride, (line - p.lines + 1) * p.stride);
    return p.current.subarray(line * p.stride, (line + 1) * p.stride);
  }

  private emitRow(y: number, out: Uint8Array): void {
    const width = this.width;
    for (const p of this.planes) {
      const { near, far } = sourceLines(p.kind, y, p.vFactor, p.height);
      upsampleRow(p.kind, this.componentLine(p, near), this.componentLine(p, far), p.width, p.hFactor, width, p.line);
    }
    componentsToRgba(this.outputLines, this.rgb, width, out);
  }
}

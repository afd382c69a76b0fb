/**
 * Luminance coefficients of a baseline or progressive JPEG: runs the scan decoder (jpeg-entropy.ts,
 * or jpeg-progressive.ts over the scans that carry luminance) over the picture and hands each
 * luminance block inside the image to a visitor, one at a time. Memory stays O(one MCU row); nothing
 * of the image is kept here. Other codings (lossless, arithmetic, hierarchical) are not decoded
 * (callers report that as "not assessed" or fall back to pixels).
 */
import { countDecode } from "./decode-count";
import { type ScanComponent, ScanDecoder } from "./jpeg-entropy";
import { WasmScanDecoder } from "./jpeg-entropy-wasm";
import type { JpegFrame, JpegStructure } from "./jpeg-markers";
import { ProgressiveScanDecoder } from "./jpeg-progressive";
import { WasmProgressiveScanDecoder } from "./jpeg-progressive-wasm";
import { cooperative } from "../../lib/cooperate";
import { align16, kernels, scratch } from "./wasm-kernels";

/** A decoder of a JPEG's blocks, one MCU row per call. */
export type RowDecoder = ScanDecoder | WasmScanDecoder | ProgressiveScanDecoder | WasmProgressiveScanDecoder;

/** Whether the coefficient decoders read this frame: Huffman-coded 8-bit baseline/sequential (SOF0/1) or progressive (SOF2). */
export function readsCoefficients(frame: JpegFrame | null | undefined): boolean {
  return frame ? frame.baseline || frame.marker === 0xc2 : false;
}

/**
 * The row decoder for the file, with its Huffman decoding in wasm (`reference`: the JavaScript one);
 * progressive ones over the scans of the `wanted` components (all when omitted).
 */
export function openRowDecoder(
  bytes: Uint8Array,
  structure: JpegStructure,
  options: { reference?: boolean; wanted?: readonly number[] } = {},
): RowDecoder | string {
  if (structure.frame?.marker === 0xc2)
    return options.reference
      ? ProgressiveScanDecoder.open(bytes, structure, options.wanted)
      : WasmProgressiveScanDecoder.open(bytes, structure, options.wanted);
  return options.reference ? ScanDecoder.open(bytes, structure) : WasmScanDecoder.open(bytes, structure);
}

/** MCU rows decoded between two turns given to other requests (a 16-line row of a 7000 px photo ≈ 10 ms). */
const ROWS_PER_TURN = 8;

/** Receives one luminance block: block row/column and quantized coefficients in natural order. */
export type LumaBlockVisitor = (row: number, col: number, coefficients: Int16Array) => void;

/**
 * Whole luminance block rows of one MCU row in the kernels' scratch area, where every row sink's kernel reads
 * them (no copy per sink). Valid only until the visitor returns: the pass gives other requests a turn between
 * MCU rows, and they use the scratch area too.
 */
export interface WasmLumaRows {
  /** Block rows `first`…`first + count − 1`, `blocksWide` blocks each. */
  readonly first: number;
  readonly count: number;
  readonly blocksWide: number;
  /** Byte address (kernels' memory) of the rows' coefficients: 64 i16 per block, natural order, row-major. */
  readonly coefficients: number;
  /** Byte address of the luminance table (64 u16). */
  readonly table: number;
  /** Scratch bytes (from its base) the rows and their samples take: a sink's own regions start behind them. */
  readonly reserve: number;
  /**
   * Byte address of the rows' integer IDCT samples (jpeg-idct.ts idctBlockToBytes per block): 8 lines of
   * blocksWide × 8 bytes per block row, computed on the first call (once for every sink that reads them).
   */
  samples(): number;
}

/** Receives the whole block rows of each MCU row (the shared pass's row sinks). */
export type LumaRowsVisitor = (rows: WasmLumaRows) => void;

/** Where one MCU row's block rows, their samples and the table lie in the scratch area (offsets from its base). */
export interface RowsLayout {
  coefficients: number;
  samples: number;
  table: number;
  /** End of the rows, samples and table. */
  reserve: number;
}

/** The layout of `rows` block rows of `blocksWide` blocks from offset `at` (16-byte aligned) of the scratch area on. */
export function rowsLayout(rows: number, blocksWide: number, at = 0): RowsLayout {
  const samples = at + align16(rows * blocksWide * 128);
  const table = align16(samples + rows * blocksWide * 64);
  return { coefficients: at, samples, table, reserve: table + 128 };
}

/**
 * Rows `first`…`first + count − 1` at the layout's place (written there by the caller), the table copied in:
 * the visitor's view of them, computing their samples at most once (`samplesDone`: the caller wrote them too).
 */
export function rowsAt(
  layout: RowsLayout,
  first: number,
  count: number,
  blocksWide: number,
  table: Uint16Array,
  samplesDone = false,
) {
  const s = scratch(layout.reserve);
  new Uint16Array(s.buffer, s.base + layout.table, 64).set(table);
  let done = samplesDone;
  const rows: WasmLumaRows = {
    first,
    count,
    blocksWide,
    coefficients: s.base + layout.coefficients,
    table: s.base + layout.table,
    reserve: layout.reserve,
    samples() {
      if (!done) kernels().lumaRowSamples(rows.coefficients, count, blocksWide, rows.table, s.base + layout.samples);
      done = true;
      return s.base + layout.samples;
    },
  };
  return rows;
}

/**
 * Block rows held in JavaScript (`coefficients`: `count` rows of `blocksWide` × 64) copied into the scratch
 * area as the shared pass leaves them: for the decoders in JavaScript, and for benchmarks.
 */
export function lumaRowsInScratch(
  first: number,
  count: number,
  blocksWide: number,
  coefficients: Int16Array,
  table: Uint16Array,
): WasmLumaRows {
  const layout = rowsLayout(count, blocksWide);
  const s = scratch(layout.reserve);
  new Int16Array(s.buffer, s.base + layout.coefficients, count * blocksWide * 64).set(
    coefficients.subarray(0, count * blocksWide * 64),
  );
  return rowsAt(layout, first, count, blocksWide, table);
}

/**
 * The wasm decoder's next MCU row decoded behind the layout's rows (`reserve` on) and its luminance blocks
 * gathered into them in wasm (wasm/assembly/luma-rows.ts); the error, as decodeRow (the rows are then incomplete).
 */
function decodeRowsInScratch(
  scan: WasmScanDecoder | WasmProgressiveScanDecoder,
  layout: RowsLayout,
  blocksWide: number,
): string | null {
  const mcu = layout.reserve;
  const { error } = scan.decodeRowInto(align16(mcu + scan.blocksPerRow * 128), mcu);
  if (error) return error;
  gatherLumaRowsInScratch(scan, mcu, layout, blocksWide);
  return null;
}

/**
 * The luminance blocks of an MCU row decoded at `mcu` (offset in the scratch area, MCU order) gathered in wasm
 * into the layout's whole block rows (wasm/assembly/luma-rows.ts).
 */
export function gatherLumaRowsInScratch(
  scan: { readonly components: readonly ScanComponent[]; readonly mcusX: number; readonly blocksPerRow: number },
  mcu: number,
  layout: RowsLayout,
  blocksWide: number,
): void {
  // The luminance's blocks in each MCU: after the blocks of the scan's components before it.
  const luma = scan.components.findIndex((c) => c.index === 0);
  const lumaAt = scan.components.slice(0, luma).reduce((n, c) => n + c.h * c.v, 0);
  const { h, v } = scan.components[luma];
  const base = scratch(0).base;
  const perMcu = scan.blocksPerRow / scan.mcusX;
  kernels().gatherLumaRows(base + mcu, scan.mcusX, perMcu, lumaAt, h, v, blocksWide, base + layout.coefficients);
}

/**
 * Whether the decoder's luminance block grid is the picture's, ceil(width / 8) × ceil(height / 8): when the
 * luminance has the largest sampling factors (always, but for unusual files). Only then do sinks sized by
 * the picture take whole rows (`decodeLumaCoefficients`' `rows`).
 */
export function lumaGridIsPicture(frame: JpegFrame): boolean {
  const y = frame.components[0];
  return frame.components.every((c) => c.h <= y.h && c.v <= y.v);
}

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

/** Luminance blocks per row and column that cover the image (the MCUs' padding blocks left out). */
export function lumaBlockGrid(frame: JpegFrame): { blocksWide: number; blocksHigh: number } {
  const hMax = Math.max(...frame.components.map((c) => c.h));
  const vMax = Math.max(...frame.components.map((c) => c.v));
  const y = frame.components[0];
  return {
    blocksWide: Math.ceil(Math.ceil((frame.width * y.h) / hMax) / 8),
    blocksHigh: Math.ceil(Math.ceil((frame.height * y.v) / vMax) / 8),
  };
}

/**
 * Decodes a baseline or progressive JPEG's luminance and visits every luminance block inside the image,
 * and/or hands whole block rows to `rows.visit` (the luminance `rows.table` dequantises their samples).
 * Returns the grid size; `error` says why it stopped early (corrupt data, unsupported layout).
 */
export async function decodeLumaCoefficients(
  bytes: Uint8Array,
  structure: JpegStructure,
  visit: LumaBlockVisitor | null,
  options: { reference?: boolean; rows?: { table: Uint16Array; visit: LumaRowsVisitor } } = {},
): Promise<CoefficientDecode> {
  const empty = { blocksWide: 0, blocksHigh: 0, mcusDecoded: 0, mcusTotal: 0 };
  // Huffman decoding in wasm; `reference` = the JavaScript ScanDecoder (same blocks, same errors).
  const scan = openRowDecoder(bytes, structure, { reference: options.reference, wanted: [0] });
  if (typeof scan === "string") return { ...empty, error: scan };
  if (!scan.components.some((c) => c.index === 0)) return { ...empty, error: "first scan has no luminance" };
  countDecode(bytes, "coefficients");
  const { blocksWide, blocksHigh } = lumaBlockGrid(structure.frame as JpegFrame);
  const visitLuma = (component: number, row: number, col: number, coefficients: Int16Array) => {
    if (component === 0 && row < blocksHigh && col < blocksWide) visit?.(row, col, coefficients);
  };
  // Whole rows: gathered in wasm memory from the wasm decoder's output, or from the visited blocks.
  const wanted = options.rows;
  // Block rows per MCU row: the luminance's v in an interleaved scan, 1 in a scan of its own.
  const rowsPerMcu = scan.components.find((c) => c.index === 0)?.v ?? 1;
  const inWasm =
    wanted && !visit && (scan instanceof WasmScanDecoder || scan instanceof WasmProgressiveScanDecoder) ? scan : null;
  const layout = rowsLayout(rowsPerMcu, blocksWide);
  const rows = wanted && !inWasm ? new Int16Array(rowsPerMcu * blocksWide * 64) : null;
  let firstRow = 0;
  const gather = (component: number, row: number, col: number, coefficients: Int16Array) => {
    if (component !== 0 || row >= blocksHigh || col >= blocksWide) return;
    visit?.(row, col, coefficients);
    (rows as Int16Array).set(coefficients, ((row - firstRow) * blocksWide + col) * 64);
  };
  const turn = cooperative(ROWS_PER_TURN);
  for (let row = 0; row < scan.mcusY; row++) {
    await turn();
    firstRow = row * rowsPerMcu;
    const error = inWasm ? decodeRowsInScratch(inWasm, layout, blocksWide) : scan.decodeRow(rows ? gather : visitLuma);
    if (error) return { blocksWide, blocksHigh, mcusDecoded: scan.mcusDecoded, mcusTotal: scan.mcusTotal, error };
    if (!wanted || firstRow >= blocksHigh) continue;
    const count = Math.min(rowsPerMcu, blocksHigh - firstRow);
    wanted.visit(
      rows
        ? lumaRowsInScratch(firstRow, count, blocksWide, rows, wanted.table)
        : rowsAt(layout, firstRow, count, blocksWide, wanted.table),
    );
  }
  return { blocksWide, blocksHigh, mcusDecoded: scan.mcusDecoded, mcusTotal: scan.mcusTotal, error: null };
}

/**
 * Luminance coefficients of a baseline or progressive JPEG: runs the scan decoder (jpeg-entropy.ts,
 * or jpeg-progressive.ts over the scans that carry luminance) over the picture and hands each
 * luminance block inside the image to a visitor, one at a time. Memory stays O(one MCU row); nothing
 * of the image is kept here. Other codings (lossless, arithmetic, hierarchical) are not decoded
 * (callers report that as "not assessed" or fall back to pixels).
 */
import { countDecode } from "./decode-count";
import { ScanDecoder } from "./jpeg-entropy";
import { WasmScanDecoder } from "./jpeg-entropy-wasm";
import type { JpegFrame, JpegStructure } from "./jpeg-markers";
import { ProgressiveScanDecoder } from "./jpeg-progressive";
import { WasmProgressiveScanDecoder } from "./jpeg-progressive-wasm";
import { cooperative } from "../../lib/cooperate";

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
 * Receives `count` whole block rows from `first` on (the rows of one MCU row): `blocksWide` blocks of 64
 * coefficients each per row, row-major, in natural order. The array is reused for the next MCU row.
 */
export type LumaRowsVisitor = (first: number, count: number, coefficients: Int16Array) => void;

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
 * Decodes a baseline or progressive JPEG's luminance and visits every luminance block inside the image.
 * Returns the grid size; `error` says why it stopped early (corrupt data, unsupported layout).
 */
export async function decodeLumaCoefficients(
  bytes: Uint8Array,
  structure: JpegStructure,
  visit: LumaBlockVisitor | null,
  options: { reference?: boolean; rows?: LumaRowsVisitor } = {},
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
  // Whole rows: each luminance block copied once into the MCU row's block rows, handed on when it is complete.
  const rowsVisitor = options.rows;
  // Block rows per MCU row: the luminance's v in an interleaved scan, 1 in a scan of its own.
  const rowsPerMcu = scan.components.find((c) => c.index === 0)?.v ?? 1;
  const rows = rowsVisitor ? new Int16Array(rowsPerMcu * blocksWide * 64) : null;
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
    // Rows alone from the wasm decoder: copied out of its output without a call per block.
    const error =
      rows && !visit && (scan instanceof WasmScanDecoder || scan instanceof WasmProgressiveScanDecoder)
        ? scan.decodeLumaRows(rows, blocksWide)
        : scan.decodeRow(rows ? gather : visitLuma);
    if (error) return { blocksWide, blocksHigh, mcusDecoded: scan.mcusDecoded, mcusTotal: scan.mcusTotal, error };
    if (rowsVisitor && rows && firstRow < blocksHigh)
      rowsVisitor(firstRow, Math.min(rowsPerMcu, blocksHigh - firstRow), rows);
  }
  return { blocksWide, blocksHigh, mcusDecoded: scan.mcusDecoded, mcusTotal: scan.mcusTotal, error: null };
}

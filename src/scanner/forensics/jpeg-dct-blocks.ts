/**
 * What the two localised JPEG detectors (double quantisation, JPEG ghosts) need from a baseline or
 * progressive JPEG's luminance coefficients, gathered in one streaming pass of the coefficient decoder and shared by both
 * (cached per byte array): the quantised values of the first AC frequencies of every block (Int16) with
 * their histograms, and per block the error of re-quantising it at a range of qualities (ghosts, computed
 * in the DCT domain: the JPEG DCT is orthonormal, so the coefficient error is the pixel error before
 * rounding). A 24 MP photo holds ≈ 375 000 blocks × ((DQ_FREQUENCIES + GHOST_QUALITIES.length) × 2 + 2) bytes ≈ 26 MB.
 */
import {
  type CoefficientFailure,
  coefficientProduct,
  coefficientProductOf,
  type CoefficientSink,
} from "../images/file-decode";
import { idctBlockToBytes } from "../images/jpeg-idct";
import { ZIGZAG } from "../images/jpeg-markers";
import { LumaBlockRows } from "../images/luma-block-rows";
import { STANDARD_LUMA, scaledTable } from "../images/quant-tables";
import { ensureConstants, kernels, scratchRegions } from "../images/wasm-kernels";

/** Zig-zag positions 1..DQ_FREQUENCIES (the low and middle AC frequencies) are modelled. */
export const DQ_FREQUENCIES = 20;
/** Histograms cover quantised values −DQ_RANGE..DQ_RANGE (larger ones are rare and skipped). */
export const DQ_RANGE = 64;
/** Re-compression qualities of the ghost maps (libjpeg-scaled standard tables). */
export const GHOST_QUALITIES = [50, 60, 65, 70, 75, 80, 85, 88, 90, 92, 94, 96, 98] as const;
/** Ghost errors are stored as Uint16 in units of 1/GHOST_SCALE of a squared grey level. */
export const GHOST_SCALE = 16;
/** Larger pictures are refused (`-`): the per-block arrays would grow past ≈ 25 MB. */
export const MAX_DCT_BLOCK_PIXELS = 25_000_000;

export interface DctBlocks {
  width: number;
  height: number;
  blocksWide: number;
  blocksHigh: number;
  /** Luminance quantisation table (natural order). */
  table: Uint16Array;
  /** Quantised coefficient of zig-zag frequency f + 1 of block i at i * DQ_FREQUENCIES + f. */
  coefficients: Int16Array;
  /** Histogram of frequency f at f * (2 * DQ_RANGE + 1) + value + DQ_RANGE. */
  histograms: Int32Array;
  /** Mean squared re-quantisation error of block i at quality GHOST_QUALITIES[q], at i * qualities + q (× GHOST_SCALE). */
  ghost: Uint16Array;
  /** Darkest and brightest decoded pixel of each block (clipped blocks break the quantisation lattice). */
  low: Uint8Array;
  high: Uint8Array;
}

export type DctBlocksResult = { ok: true; blocks: DctBlocks } | CoefficientFailure;

const ghostTables = GHOST_QUALITIES.map((q) => Float64Array.from(scaledTable(STANDARD_LUMA, q)));
/** 1 / step of each ghost table (a multiplication is cheaper than a division, ≈ 10⁸ of them at 24 MP). */
const ghostInverse = ghostTables.map((t) => t.map((step) => 1 / step));

/**
 * Mean squared error (× GHOST_SCALE) of re-quantising one dequantised block with each ghost table. Only
 * the block's `count` non-zero coefficients (positions `at`, values `values`) can change: a zero stays zero.
 */
function ghostErrors(positions: Uint8Array, values: Float64Array, count: number, out: Uint16Array, at: number): void {
  for (let q = 0; q < ghostTables.length; q++) {
    const t = ghostTables[q];
    const inverse = ghostInverse[q];
    let e = 0;
    for (let j = 0; j < count; j++) {
      const k = positions[j];
      const c = values[j];
      const d = c - t[k] * Math.round(c * inverse[k]);
      e += d * d;
    }
    out[at + q] = Math.min(65535, Math.round((e / 64) * GHOST_SCALE));
  }
}

async function decode(bytes: Uint8Array): Promise<DctBlocksResult> {
  const built = await coefficientProduct(bytes, dctBlockStatistics);
  return built.ok ? { ok: true, blocks: built.value } : built;
}

/** The ghost tables and the zig-zag order into the wasm kernel's static memory (once per isolate). */
function ensureStatisticsConstants(): void {
  const tableBytes = GHOST_QUALITIES.length * 64 * 8;
  ensureConstants("dct-statistics", 2 * tableBytes + 64, (s) => {
    ghostTables.forEach((t, q) => new Float64Array(s.buffer, s.base + q * 512, 64).set(t));
    ghostInverse.forEach((t, q) => new Float64Array(s.buffer, s.base + tableBytes + q * 512, 64).set(t));
    s.bytes.set(ZIGZAG.subarray(1, 1 + DQ_FREQUENCIES), s.base + 2 * tableBytes);
    kernels().setDctStatisticsConstants(s.base, s.base + tableBytes, s.base + 2 * tableBytes);
  });
}

/**
 * The per-block statistics, fed one luminance block at a time in decoding order: gathered into block
 * rows for the wasm kernel (wasm/assembly/dct-statistics.ts), or measured block by block by the
 * JavaScript reference (`reference`; the tests compare both).
 */
export function statisticsSink(
  width: number,
  height: number,
  table: Uint16Array,
  options: { reference?: boolean } = {},
): CoefficientSink<DctBlocks> {
  const blocksWide = Math.ceil(width / 8);
  const blocksHigh = Math.ceil(height / 8);
  const n = blocksWide * blocksHigh;
  const bins = 2 * DQ_RANGE + 1;
  const blocks: DctBlocks = {
    width,
    height,
    blocksWide,
    blocksHigh,
    table,
    coefficients: new Int16Array(n * DQ_FREQUENCIES),
    histograms: new Int32Array(DQ_FREQUENCIES * bins),
    ghost: new Uint16Array(n * GHOST_QUALITIES.length),
    low: new Uint8Array(n),
    high: new Uint8Array(n),
  };
  if (options.reference) {
    const measure = referenceBlock(blocks);
    return {
      block(row, col, q) {
        // The decoder's grid may be wider than ceil(width / 8) for odd sampling: keep the picture's blocks.
        if (row < blocksHigh && col < blocksWide) measure(row, col, q);
      },
      finish: () => blocks,
    };
  }
  const measure = wasmRows(blocks);
  return {
    block(row, col, q) {
      if (row < blocksHigh && col < blocksWide) measure.block(row, col, q);
    },
    rows: measure.rows,
    finish: () => blocks,
  };
}

/** The JavaScript reference: one block at a time. */
function referenceBlock(blocks: DctBlocks): (row: number, col: number, q: Int16Array) => void {
  const { blocksWide, table, coefficients, histograms, ghost, low, high } = blocks;
  const bins = 2 * DQ_RANGE + 1;
  const positions = new Uint8Array(64);
  const values = new Float64Array(64);
  const samples = new Uint8Array(64);
  return (row, col, q) => {
    const i = row * blocksWide + col;
    for (let f = 0; f < DQ_FREQUENCIES; f++) {
      const v = q[ZIGZAG[f + 1]];
      coefficients[i * DQ_FREQUENCIES + f] = v;
      if (v >= -DQ_RANGE && v <= DQ_RANGE) histograms[f * bins + v + DQ_RANGE]++;
    }
    let count = 0;
    for (let k = 0; k < 64; k++)
      if (q[k] !== 0) {
        positions[count] = k;
        values[count++] = q[k] * table[k];
      }
    idctBlockToBytes(q, table, samples, 0, 8);
    let lo = 255;
    let hi = 0;
    for (let k = 0; k < 64; k++) {
      lo = Math.min(lo, samples[k]);
      hi = Math.max(hi, samples[k]);
    }
    low[i] = lo;
    high[i] = hi;
    ghostErrors(positions, values, count, ghost, i * GHOST_QUALITIES.length);
  };
}

/**
 * Each whole block row measured by one wasm call, its results copied out at once (the scratch area is the
 * next caller's): rows where the shared pass left them in wasm memory (`rows`, with their samples, shared
 * with jpeg-grid), or blocks gathered into rows (a ring of 4: at most two rows are in progress), copied in.
 */
function wasmRows(blocks: DctBlocks): Required<Pick<CoefficientSink<DctBlocks>, "block" | "rows">> {
  ensureStatisticsConstants();
  const { blocksWide: n, table } = blocks;
  const qualities = GHOST_QUALITIES.length;
  const histogramLength = blocks.histograms.length;
  /**
   * Block rows `first`…`first + count − 1` from their coefficients (n × 64 i16 per row) and samples (8 lines of
   * n × 8 bytes per row) in the kernels' memory, dequantised with the table at `tableAt`; scratch regions from
   * `after` on. The histograms are copied in and out once for all the rows (the kernel adds each row's counts).
   */
  const measureAt = (
    first: number,
    count: number,
    coefficients: number,
    samples: number,
    tableAt: number,
    after: number,
  ) => {
    const s = scratchRegions(
      {
        frequencies: n * DQ_FREQUENCIES * 2,
        ghost: n * qualities * 2,
        low: n,
        high: n,
        histograms: histogramLength * 4,
      },
      kernels(),
      after,
    );
    const { at, buffer } = s;
    const histograms = new Int32Array(buffer, at.histograms, histogramLength);
    histograms.set(blocks.histograms);
    for (let i = 0; i < count; i++) {
      const row = first + i;
      kernels().dctStatisticsRow(
        n,
        coefficients + i * n * 128,
        samples + i * n * 64,
        tableAt,
        at.frequencies,
        at.ghost,
        at.low,
        at.high,
        at.histograms,
      );
      blocks.coefficients.set(new Int16Array(buffer, at.frequencies, n * DQ_FREQUENCIES), row * n * DQ_FREQUENCIES);
      blocks.ghost.set(new Uint16Array(buffer, at.ghost, n * qualities), row * n * qualities);
      blocks.low.set(s.bytes.subarray(at.low, at.low + n), row * n);
      blocks.high.set(s.bytes.subarray(at.high, at.high + n), row * n);
    }
    blocks.histograms.set(histograms);
  };
  /** Block row `row` from its coefficients in JavaScript: copied in, its samples computed. */
  const measureRow = (row: number, coefficients: Int16Array) => {
    const s = scratchRegions({ table: 128, coefficients: n * 128, samples: n * 64 });
    const { at, buffer } = s;
    new Uint16Array(buffer, at.table, 64).set(table);
    new Int16Array(buffer, at.coefficients, n * 64).set(coefficients);
    kernels().lumaRowSamples(at.coefficients, 1, n, at.table, at.samples);
    measureAt(row, 1, at.coefficients, at.samples, at.table, s.end);
  };
  const ring = new LumaBlockRows(n, 4, (row) => measureRow(row, ring.row(row)));
  return {
    block: (row, col, q) => ring.add(row, col, q),
    rows: (rows) => measureAt(rows.first, rows.count, rows.coefficients, rows.samples(), rows.table, rows.reserve),
  };
}

/** The statistics as a product of the file's shared Huffman pass (baseline and progressive JPEGs within MAX_DCT_BLOCK_PIXELS). */
export const dctBlockStatistics = coefficientProductOf(
  "dct-block-statistics",
  "coefficient analysis",
  MAX_DCT_BLOCK_PIXELS,
  statisticsSink,
);

const cache = new WeakMap<Uint8Array, Promise<DctBlocksResult>>();

/** The coefficient statistics of a JPEG, decoded once per byte array. */
export function dctBlocks(bytes: Uint8Array): Promise<DctBlocksResult> {
  let result = cache.get(bytes);
  if (!result) {
    result = decode(bytes);
    cache.set(bytes, result);
  }
  return result;
}

/**
 * The measurement of jpeg-grid-map.ts: per 8×8 cell of a row of blocks the pixel sums of the 64 squares
 * starting at each offset inside it (box sums over the cell's block row and the one below, from the
 * decoded luminance), and per judged (not flat) cell the phase of each candidate offset's sum on the
 * lattice of each candidate step, added to its tile's sums. Two implementations giving the same f32
 * sums: the wasm kernel (wasm/assembly/grid-phases.ts, a row of tiles per call) and the JavaScript
 * reference (a cell row at a time, `{ reference: true }`; the tests compare both).
 */
import { idctBlockToBytes } from "../images/jpeg-idct";
import type { WasmLumaRows } from "../images/jpeg-coefficients";
import { LumaBlockRows } from "../images/luma-block-rows";
import { type KernelExports, kernels, ownKernels, scratch, scratchRegions } from "../images/wasm-kernels";

/** DC steps of the earlier save that are looked for (finer ones drown in the last save's rounding). */
export const GRID_STEPS = [4, 5, 6, 8, 10, 12, 16] as const;
/** Cells (8×8 blocks) per tile side; a window is the 3 × 3 tiles around one (96 × 96 px). */
export const GRID_TILE = 4;
/** Cells whose 64 square sums span less than this are flat: every offset would line up there. */
const FLAT_RANGE = 32;

const near = (d: number) => d === 0 || d === 1 || d === 7;
/** Candidate offsets dy * 8 + dx: every one but the picture's own grid and its neighbours (55). */
export const GRID_SHIFTS = Array.from({ length: 64 }, (_, s) => s).filter((s) => !(near(s >> 3) && near(s & 7)));
const SHIFTS = GRID_SHIFTS.length;
const STEPS = GRID_STEPS.length;
/** Phase sums per tile: (cos, sin) of each offset/step pair k * SHIFTS + s. */
export const TILE_STRIDE = SHIFTS * STEPS * 2;

/** Largest 8×8 pixel sum. */
const MAX_SUM = 64 * 255;
let phaseTables: Float32Array[] | null = null;
/**
 * cos, sin (interleaved) of each possible square sum on the lattice of each step (the DC coefficient is
 * (sum − 8192) / 8).
 */
function phases(): Float32Array[] {
  phaseTables ??= GRID_STEPS.map((q) => {
    const table = new Float32Array(2 * (MAX_SUM + 1));
    for (let s = 0; s <= MAX_SUM; s++) {
      const a = (2 * Math.PI * (s - 8192)) / (8 * q);
      table[2 * s] = Math.cos(a);
      table[2 * s + 1] = Math.sin(a);
    }
    return table;
  });
  return phaseTables;
}

/** Where the measurement puts its results: three rows of tiles of sums, used in turn (slot t % 3). */
export interface PhaseSums {
  blocksWide: number;
  blocksHigh: number;
  table: Uint16Array;
  /** Per slot: TILE_STRIDE f32 per tile. */
  acc: Float32Array[];
  /** Per slot: judged cells per tile. */
  cells: Int32Array[];
  /** The picture's phase sums (f64 per value of a tile); the wasm feed adds each tile row as it measures it. */
  picture: Float64Array;
  /** Tile row `t` has all its GRID_TILE cell rows (called before the next tile row is measured). */
  closeTileRow(t: number): void;
}

/** Receives the luminance blocks in decoding order. */
export type BlockFeed = (row: number, col: number, q: Int16Array) => void;

/**
 * The JavaScript reference: four block rows of pixels (a 2×2-sampled MCU row delivers two at once; a cell
 * row needs the one below), each cell row measured and added as soon as it and the row below are complete.
 */
export function referencePhaseSums(out: PhaseSums): BlockFeed {
  const { blocksWide, blocksHigh, table, acc, cells } = out;
  const rowWidth = blocksWide * 8;
  const tables = phases();
  const pixels = new Uint8Array(4 * 8 * rowWidth);
  const rowIn = new Int32Array(4).fill(-1);
  const filled = new Int32Array(4);
  const columnSums = new Int32Array(rowWidth);
  const boxSums = new Int32Array(rowWidth);
  const squares = new Int32Array(blocksWide * 64);
  /** One cell's sums at the candidate offsets, × 2 (an index into the interleaved phase tables). */
  const cellSums = new Int32Array(SHIFTS);
  let nextCellRow = 0;

  const complete = (row: number) => rowIn[row & 3] === row && filled[row & 3] === blocksWide;

  /** Square sums of the 64 offsets in every cell of block row `r` (needs rows r and r + 1). */
  function measureCellRow(r: number): void {
    const top = (r & 3) * 8 * rowWidth;
    const below = ((r + 1) & 3) * 8 * rowWidth;
    const line = (y: number) => (y < 8 ? top + y * rowWidth : below + (y - 8) * rowWidth);
    columnSums.fill(0);
    for (let y = 0; y < 8; y++) {
      const at = line(y);
      for (let x = 0; x < rowWidth; x++) columnSums[x] += pixels[at + x];
    }
    for (let dy = 0; dy < 8; dy++) {
      if (dy > 0) {
        const out = line(dy - 1);
        const inn = line(dy + 7);
        for (let x = 0; x < rowWidth; x++) columnSums[x] += pixels[inn + x] - pixels[out + x];
      }
      let run = 0;
      for (let x = 0; x < 8; x++) run += columnSums[x];
      for (let x = 0; x + 8 <= rowWidth; x++) {
        boxSums[x] = run;
        if (x + 8 < rowWidth) run += columnSums[x + 8] - columnSums[x];
      }
      for (let j = 0; j + 1 < blocksWide; j++)
        for (let dx = 0; dx < 8; dx++) squares[j * 64 + dy * 8 + dx] = boxSums[j * 8 + dx];
    }
  }

  /** Adds the phases of every judged cell of block row `r` to its tile. */
  function addCellRow(r: number): void {
    const slot = Math.floor(r / GRID_TILE) % 3;
    const a = acc[slot];
    for (let j = 0; j + 1 < blocksWide; j++) {
      const base = j * 64;
      let lo = MAX_SUM;
      let hi = 0;
      for (let k = 0; k < 64; k++) {
        const v = squares[base + k];
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      if (hi - lo < FLAT_RANGE) continue;
      const tile = Math.floor(j / GRID_TILE);
      cells[slot][tile]++;
      for (let s = 0; s < SHIFTS; s++) cellSums[s] = squares[base + GRID_SHIFTS[s]] << 1;
      let p = tile * TILE_STRIDE;
      for (let k = 0; k < STEPS; k++) {
        const table = tables[k];
        for (let s = 0; s < SHIFTS; s++, p += 2) {
          const i = cellSums[s];
          a[p] += table[i];
          a[p + 1] += table[i + 1];
        }
      }
    }
  }

  return (row, col, q) => {
    const slot = row & 3;
    if (rowIn[slot] !== row) {
      rowIn[slot] = row;
      filled[slot] = 0;
    }
    idctBlockToBytes(q, table, pixels, slot * 8 * rowWidth + col * 8, rowWidth);
    filled[slot]++;
    while (nextCellRow + 1 < blocksHigh && complete(nextCellRow) && complete(nextCellRow + 1)) {
      const r = nextCellRow++;
      measureCellRow(r);
      addCellRow(r);
      if ((r + 1) % GRID_TILE === 0) out.closeTileRow(Math.floor(r / GRID_TILE));
    }
  };
}

/** Instances whose static memory holds the phase tables and the offsets. */
const withConstants = new WeakSet<KernelExports>();

/** The phase tables and the offsets into the instance's static memory (once per instance). */
function setGridConstants(k: KernelExports): void {
  if (withConstants.has(k)) return;
  const tables = phases();
  const tableBytes = tables[0].length * 4;
  const s = scratch(STEPS * tableBytes + SHIFTS * 4, k);
  tables.forEach((t, i) => new Float32Array(s.buffer, s.base + i * tableBytes, t.length).set(t));
  new Int32Array(s.buffer, s.base + STEPS * tableBytes, SHIFTS).set(GRID_SHIFTS);
  k.setGridConstants(s.base, s.base + STEPS * tableBytes);
  withConstants.add(k);
}

/**
 * An instance of the kernels for one grid sink: its memory holds the sink's state from call to call (the pass
 * gives other requests turns between MCU rows, and they use the isolate's scratch area). One is kept for the
 * next sink when its memory stayed small (smaller pictures: no new instance and garbage per file); a larger
 * picture's goes with its sink, as does one whose pass stopped (damaged data).
 */
let spare: KernelExports | null = null;
/**
 * Memory of an instance that is kept for the next sink: its 1.7 MB of static data and a picture's state up to
 * ≈ 3 500 px wide (≈ 2.8 KB per block of width, most of it three rows of tile sums).
 */
const SPARE_BYTES = 3 << 20;

function takeKernels(): KernelExports {
  const k = spare ?? ownKernels();
  spare = null;
  setGridConstants(k);
  return k;
}

/**
 * One grid sink's state in its kernels' memory, laid out once (the memory never grows after, so the views stay
 * valid): the samples of the tile row being gathered (its GRID_TILE + 1 block rows), three rows of tiles of phase sums and judged cells (slot t % 3; `acc` and `cells` are views on
 * them), the picture's sums, and the window scores' inputs and outputs.
 */
export interface GridMemory {
  k: KernelExports;
  at: Record<
    "lines" | "block" | "table" | "sums" | "cells" | "picture" | "allowed" | "windowCells" | "score" | "shift" | "step",
    number
  >;
  acc: Float32Array[];
  cells: Int32Array[];
  /** The instance back for the next sink (after the last score). */
  release(): void;
}

/** The grid state of a picture `blocksWide` blocks wide (luminance `table`; its allowed offset/step pairs, u8 each). */
export function gridMemory(blocksWide: number, table: Uint16Array, allowed: Uint8Array): GridMemory {
  const k = takeKernels();
  const tilesWide = Math.ceil(blocksWide / GRID_TILE);
  const rowSums = tilesWide * TILE_STRIDE * 4;
  const s = scratchRegions(
    {
      lines: (GRID_TILE + 1) * blocksWide * 64,
      block: blocksWide * 128,
      table: 128,
      sums: 3 * rowSums,
      cells: 3 * tilesWide * 4,
      picture: TILE_STRIDE * 8,
      allowed: allowed.length,
      windowCells: tilesWide * 4,
      score: tilesWide * 8,
      shift: tilesWide,
      step: tilesWide,
    },
    k,
  );
  const { at, buffer, bytes } = s;
  // The kernel stores each tile's sums and cells whole (jpeg-grid-map.ts clears the slots of rows it did not
  // measure); only the picture's sums are added to.
  bytes.fill(0, at.picture, at.picture + TILE_STRIDE * 8);
  bytes.set(allowed, at.allowed);
  new Uint16Array(buffer, at.table, 64).set(table);
  return {
    k,
    at,
    acc: [0, 1, 2].map((i) => new Float32Array(buffer, at.sums + i * rowSums, tilesWide * TILE_STRIDE)),
    cells: [0, 1, 2].map((i) => new Int32Array(buffer, at.cells + i * tilesWide * 4, tilesWide)),
    release() {
      if (k.memory.buffer.byteLength <= SPARE_BYTES) spare = k;
    },
  };
}

/**
 * The wasm kernel in the sink's own instance (`memory`, whose `acc` and `cells` are the sums' slots): each block
 * row's samples (the integer IDCT, computed once per block: by the shared pass for its row sinks, copied over
 * from the isolate's instance; else here from blocks gathered into rows) written into the tile row's lines,
 * each tile row measured by one call once its rows and the one below have arrived, which also adds them to the
 * picture's sums (in tile row order, as the reference's closing does); the row below is then the next tile
 * row's first. The last tile row may have fewer cell rows (its closing is left to the caller's finish, as the
 * reference's).
 */
export function wasmPhaseSums(
  out: PhaseSums,
  memory: GridMemory,
): { block: BlockFeed; rows: (rows: WasmLumaRows) => void; tileRowsMeasured: () => number } {
  const { blocksWide, blocksHigh } = out;
  const { k, at } = memory;
  const tilesWide = Math.ceil(blocksWide / GRID_TILE);
  /** Samples of one block row: 8 lines of blocksWide × 8 bytes. */
  const rowBytes = blocksWide * 64;
  const picture = new Float64Array(k.memory.buffer, at.picture, TILE_STRIDE);
  const lines = new Uint8Array(k.memory.buffer, at.lines, (GRID_TILE + 1) * rowBytes);
  let nextTileRow = 0;

  function measure(t: number, blockRows: number): void {
    const slot = t % 3;
    k.gridTileRow(
      at.lines,
      blockRows,
      blocksWide,
      at.sums + slot * tilesWide * TILE_STRIDE * 4,
      at.cells + slot * tilesWide * 4,
      at.picture,
    );
    out.picture.set(picture);
    if (blockRows === GRID_TILE + 1) out.closeTileRow(t);
  }

  /** Block row `row`'s samples are in its line slot: the tile row it completes is measured. */
  function arrived(row: number): void {
    const first = nextTileRow * GRID_TILE;
    const last = Math.min(first + GRID_TILE, blocksHigh - 1);
    if (row !== last || first + 1 >= blocksHigh) return;
    measure(nextTileRow++, last - first + 1);
    // The row below this tile row is the next one's first.
    lines.copyWithin(0, GRID_TILE * rowBytes, (GRID_TILE + 1) * rowBytes);
  }

  /** Where block row `row`'s samples go: its place among the lines of the tile row being gathered. */
  const slotOf = (row: number) => at.lines + (row - nextTileRow * GRID_TILE) * rowBytes;

  const rows = new LumaBlockRows(blocksWide, 4, (row) => {
    new Int16Array(k.memory.buffer, at.block, blocksWide * 64).set(rows.row(row));
    k.lumaRowSamples(at.block, 1, blocksWide, at.table, slotOf(row));
    arrived(row);
  });
  return {
    block: (row, col, q) => rows.add(row, col, q),
    tileRowsMeasured: () => nextTileRow,
    rows(wasmRows) {
      const samples = wasmRows.samples();
      const from = new Uint8Array(kernels().memory.buffer, samples, wasmRows.count * rowBytes);
      for (let i = 0; i < wasmRows.count; i++) {
        const row = wasmRows.first + i;
        new Uint8Array(k.memory.buffer).set(from.subarray(i * rowBytes, (i + 1) * rowBytes), slotOf(row));
        arrived(row);
      }
    },
  };
}

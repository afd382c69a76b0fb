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
import { ensureConstants, kernels, scratchRegions } from "../images/wasm-kernels";

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

/** The phase tables and the offsets into the wasm kernel's static memory (once per isolate). */
function ensureGridConstants(): void {
  const tables = phases();
  const tableBytes = tables[0].length * 4;
  ensureConstants("grid-phases", STEPS * tableBytes + SHIFTS * 4, (s) => {
    tables.forEach((t, k) => new Float32Array(s.buffer, s.base + k * tableBytes, t.length).set(t));
    new Int32Array(s.buffer, s.base + STEPS * tableBytes, SHIFTS).set(GRID_SHIFTS);
    kernels().setGridConstants(s.base, s.base + STEPS * tableBytes);
  });
}

/**
 * The wasm kernel: each block row's samples (the integer IDCT, computed once per block: by the shared pass for
 * its row sinks, else here from blocks gathered into rows) kept in a ring of 8 (a tile row's GRID_TILE + 1 rows
 * while the next MCU row may be arriving), each tile row measured by one call once its rows and the one below
 * have arrived, which also adds them to the picture's sums (in tile row order, as the reference's closing
 * does); its sums are copied out into their slot at once (the scratch area is the next caller's). The last
 * tile row may have fewer cell rows (its closing is left to the caller's finish, as the reference's).
 */
export function wasmPhaseSums(out: PhaseSums): { block: BlockFeed; rows: (rows: WasmLumaRows) => void } {
  ensureGridConstants();
  const { blocksWide, blocksHigh, table, acc, cells } = out;
  const tilesWide = Math.ceil(blocksWide / GRID_TILE);
  /** Samples of one block row: 8 lines of blocksWide × 8 bytes. */
  const rowBytes = blocksWide * 64;
  const slots = 2 * GRID_TILE;
  const samples = new Uint8Array(slots * rowBytes);
  /** Block rows whose samples have arrived (the last `slots` of them are held). */
  let held = 0;
  let nextTileRow = 0;

  function measure(t: number, first: number, last: number): void {
    const blockRows = last - first + 1;
    const s = scratchRegions({
      lines: blockRows * rowBytes,
      columns: blocksWide * 16,
      squares: (blockRows - 1) * blocksWide * 128,
      sums: tilesWide * TILE_STRIDE * 4,
      cells: tilesWide * 4,
      picture: TILE_STRIDE * 8,
    });
    const { at, buffer, bytes } = s;
    new Float64Array(buffer, at.picture, TILE_STRIDE).set(out.picture);
    for (let r = first; r <= last; r++) {
      const slot = (r % slots) * rowBytes;
      bytes.set(samples.subarray(slot, slot + rowBytes), at.lines + (r - first) * rowBytes);
    }
    kernels().gridTileRow(at.lines, blockRows, blocksWide, at.columns, at.squares, at.sums, at.cells, at.picture);
    out.picture.set(new Float64Array(buffer, at.picture, TILE_STRIDE));
    acc[t % 3].set(new Float32Array(buffer, at.sums, tilesWide * TILE_STRIDE));
    cells[t % 3].set(new Int32Array(buffer, at.cells, tilesWide));
    if (last === first + GRID_TILE) out.closeTileRow(t);
  }

  /** `count` block rows' samples from the kernels' memory at `from` kept, then the tile rows they complete measured. */
  function addSamples(from: number, count: number): void {
    const memory = new Uint8Array(kernels().memory.buffer);
    for (let i = 0; i < count; i++, held++)
      samples.set(memory.subarray(from + i * rowBytes, from + (i + 1) * rowBytes), (held % slots) * rowBytes);
    for (;;) {
      const first = nextTileRow * GRID_TILE;
      const last = Math.min(first + GRID_TILE, blocksHigh - 1);
      if (first + 1 >= blocksHigh || last >= held) return;
      measure(nextTileRow++, first, last);
    }
  }

  const rows = new LumaBlockRows(blocksWide, 4, (row) => {
    const s = scratchRegions({ table: 128, coefficients: blocksWide * 128, samples: rowBytes });
    new Uint16Array(s.buffer, s.at.table, 64).set(table);
    new Int16Array(s.buffer, s.at.coefficients, blocksWide * 64).set(rows.row(row));
    kernels().lumaRowSamples(s.at.coefficients, 1, blocksWide, s.at.table, s.at.samples);
    addSamples(s.at.samples, 1);
  });
  return {
    block: (row, col, q) => rows.add(row, col, q),
    rows: (wasmRows) => addSamples(wasmRows.samples(), wasmRows.count),
  };
}

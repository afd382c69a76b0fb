/**
 * Where the 8×8 grid of an earlier JPEG save sits, window by window (non-aligned double JPEG compression:
 * Bianchi & Piva 2012, "integer periodicity maps"; Li, Yuan & Yu 2009, "block artifact grid"). A JPEG
 * save rounds each 8×8 block's DC coefficient (its pixel sum / 8) to a multiple of the DC step. Content
 * that was saved as JPEG before, on a grid shifted by (dx, dy) against the picture's own grid, still has
 * pixel sums over the 8×8 squares of *that* grid close to multiples of 8 × its DC step, after the last save.
 * So per 8×8 cell of the picture's grid the sums of the 64 squares starting at each offset (dx, dy) inside
 * it are measured (box sums over two rows of blocks, from the decoded luminance), and each is turned into a
 * phase on the lattice of every candidate step (a point on the unit circle); summed over a window, the
 * phases of the offset and step of an earlier grid line up, the others cancel. A window's score is how far
 * the best offset's alignment stands above the median of all offsets (× √cells, so ≈ a z-score).
 *
 * The picture's own grid and its neighbours (offsets 0, 1 and 7 in both directions) are not candidates:
 * the last save itself lines them up. Neither are offsets and steps whose lattice the last save's own DC
 * step produces in flat blocks (a square over flat blocks sums their rounded DC values), nor steps no
 * coarser than the last save's DC step, nor, after a coarse last save, offsets along one axis (see
 * MAX_DC_STEP_ONE_AXIS).
 *
 * Streaming: one luminance block at a time in decoding order (the file's shared coefficient pass, or its
 * own), measured a row of tiles at a time by a wasm kernel (jpeg-grid-phases.ts: a tile row's block rows and
 * the one below), three rows of tiles of phase sums; the result is one score, offset and step per tile of
 * TILE × TILE cells (≈ 23 500 tiles for 24 MP).
 */
import {
  type CoefficientFailure,
  coefficientProduct,
  coefficientProductOf,
  type CoefficientSink,
} from "../images/file-decode";
import {
  GRID_SHIFTS,
  GRID_STEPS,
  GRID_TILE,
  type GridMemory,
  gridMemory,
  type PhaseSums,
  referencePhaseSums,
  TILE_STRIDE,
  wasmPhaseSums,
} from "./jpeg-grid-phases";

export { GRID_SHIFTS, GRID_STEPS, GRID_TILE };

/** A window needs this many judged cells (not flat) for a score. */
const MIN_WINDOW_CELLS = 48;
/** Larger pictures are refused like the other coefficient checks (the tiles are small, the pass is not). */
export const MAX_GRID_PIXELS = 50_000_000;

const SHIFTS = GRID_SHIFTS.length;
const STEPS = GRID_STEPS.length;
const PAIRS = SHIFTS * STEPS;

/**
 * Offsets on the picture's grid along one axis (dx = 0 or dy = 0) are judged only when the last save was fine
 * (DC step ≤ 3, quality ≳ 90): the squares then cover whole block columns or rows, whose sums a coarse last
 * save reduces to a few rounded low-frequency values, a lattice of its own (coarse camera originals and
 * web pictures, docs/forensics.md "Earlier JPEG grids").
 */
const MAX_DC_STEP_ONE_AXIS = 3;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Offset/step pairs the last save lines up by itself: over flat blocks a square's sum is a sum of their
 * rounded DC values weighted by the areas it covers, a lattice of lastDcStep × gcd(areas) / 8.
 */
function allowedPairs(lastDcStep: number): Uint8Array {
  const allowed = new Uint8Array(PAIRS);
  GRID_SHIFTS.forEach((s, i) => {
    const dy = s >> 3;
    const dx = s & 7;
    const areas = [(8 - dx) * (8 - dy), dx * (8 - dy), (8 - dx) * dy, dx * dy].filter((a) => a > 0);
    const g = areas.reduce(gcd);
    GRID_STEPS.forEach((q, k) => {
      const flatLattice = (lastDcStep * g) % (32 * q) === 0;
      const alongOneAxis = (dx === 0 || dy === 0) && lastDcStep > MAX_DC_STEP_ONE_AXIS;
      // A lattice no coarser than the last save's own DC step drowns in its rounding (coarse web pictures).
      const drowned = q <= lastDcStep;
      allowed[k * SHIFTS + i] = flatLattice || alongOneAxis || drowned ? 0 : 1;
    });
  });
  return allowed;
}

/** One tile per TILE × TILE cells: the best window's score, offset index (into GRID_SHIFTS) and step index. */
export interface GridTiles {
  width: number;
  height: number;
  blocksWide: number;
  blocksHigh: number;
  tilesWide: number;
  tilesHigh: number;
  /** Score of the window centred on the tile (NaN: too few judged cells). */
  score: Float32Array;
  shift: Uint8Array;
  step: Uint8Array;
  /** The tile's own phase sum (re, im) at its window's best offset and step, and its judged cells. */
  tileSum: Float64Array;
  tileCells: Int32Array;
  /** Phase sums of the whole picture (pair k * GRID_SHIFTS.length + s: re, im), its judged cells, each step's median alignment. */
  pictureSum: Float64Array;
  pictureCells: number;
  pictureMedian: Float64Array;
  /** The whole picture as one window: an earlier grid of the picture as a whole (score, offset, step). */
  picture: { score: number; shift: number; step: number };
}

/** |re + i·im| (Math.hypot guards against overflow these sums cannot reach, at several times the cost). */
const magnitude = (re: number, im: number) => Math.sqrt(re * re + im * im);

/** Median alignment over the allowed offsets of each step. */
function medians(acc: Float64Array, cells: number, allowed: Uint8Array, scratch: Float64Array): Float64Array {
  const out = new Float64Array(STEPS);
  for (let k = 0; k < STEPS; k++) {
    let n = 0;
    for (let s = 0; s < SHIFTS; s++) {
      const p = k * SHIFTS + s;
      if (allowed[p]) scratch[n++] = magnitude(acc[2 * p], acc[2 * p + 1]) / Math.max(1, cells);
    }
    out[k] = n ? scratch.subarray(0, n).sort()[n >> 1] : 0;
  }
  return out;
}

/**
 * Best offset/step of summed phases over `cells` judged cells: (best alignment − median) × √cells (exported
 * for the wasm kernel's test).
 */
export function bestPair(acc: Float64Array, at: number, cells: number, allowed: Uint8Array, scratch: Float64Array) {
  let best = { score: Number.NaN, shift: 0, step: 0 };
  if (cells < 1) return best;
  for (let k = 0; k < STEPS; k++) {
    let n = 0;
    let top = -1;
    let topShift = 0;
    for (let s = 0; s < SHIFTS; s++) {
      const p = k * SHIFTS + s;
      if (!allowed[p]) continue;
      const c = magnitude(acc[at + 2 * p], acc[at + 2 * p + 1]) / cells;
      scratch[n++] = c;
      if (c > top) {
        top = c;
        topShift = s;
      }
    }
    if (n < 8) continue;
    const sorted = scratch.subarray(0, n).sort();
    const score = (top - sorted[n >> 1]) * Math.sqrt(cells);
    if (!(score <= best.score)) best = { score, shift: topShift, step: k };
  }
  return best;
}

/**
 * The streaming measurement, fed one luminance block at a time in decoding order: the phase sums by the
 * wasm kernel, or by the JavaScript reference (`reference`; the tests compare both), then the windows scored.
 */
export function gridSink(
  width: number,
  height: number,
  table: Uint16Array,
  options: { reference?: boolean } = {},
): CoefficientSink<GridTiles> {
  const blocksWide = Math.ceil(width / 8);
  const blocksHigh = Math.ceil(height / 8);
  const tilesWide = Math.ceil(blocksWide / GRID_TILE);
  const tilesHigh = Math.ceil(blocksHigh / GRID_TILE);
  const allowed = allowedPairs(table[0]);
  // The kernels' state in an instance of their own (jpeg-grid-phases.ts gridMemory), the reference's in JavaScript.
  const memory = options.reference ? null : gridMemory(blocksWide, table, allowed);
  // Three rows of tiles of phase sums (a window spans the tile rows above and below), judged cells per tile.
  const tileStride = TILE_STRIDE;
  const acc = memory?.acc ?? Array.from({ length: 3 }, () => new Float32Array(tilesWide * tileStride));
  const cells = memory?.cells ?? Array.from({ length: 3 }, () => new Int32Array(tilesWide));
  const picture = new Float64Array(tileStride);
  let pictureCells = 0;
  const score = new Float32Array(tilesWide * tilesHigh).fill(Number.NaN);
  const shift = new Uint8Array(tilesWide * tilesHigh);
  const step = new Uint8Array(tilesWide * tilesHigh);
  // The tile's own phase sum at its window's best offset and step: what an area of tiles takes from the rest.
  const tileSum = new Float64Array(tilesWide * tilesHigh * 2);
  const tileCells = new Int32Array(tilesWide * tilesHigh);
  const window = new Float64Array(tileStride);
  const columns = Array.from({ length: 3 }, () => new Float64Array(tileStride));
  const scratch = new Float64Array(SHIFTS);

  /** Column `v`'s sums over tile rows t − 1..t + 1 (the missing ones absent) into `out`; its judged cells. */
  function columnOfTiles(t: number, v: number, out: Float64Array): number {
    out.fill(0);
    let n = 0;
    for (let u = Math.max(0, t - 1); u <= Math.min(tilesHigh - 1, t + 1); u++) {
      const a = acc[u % 3];
      const at = v * tileStride;
      for (let p = 0; p < tileStride; p++) out[p] += a[at + p];
      n += cells[u % 3][v];
    }
    return n;
  }

  /**
   * Scores the windows centred on tile row `t`: each window is the sum of three columns of three tiles,
   * held in a ring of three, so every column is summed once per row instead of once per window.
   */
  function scoreTileRow(t: number): void {
    const columnCells = [0, 0, 0];
    for (let v = 0; v < Math.min(2, tilesWide); v++) columnCells[v % 3] = columnOfTiles(t, v, columns[v % 3]);
    for (let c = 0; c < tilesWide; c++) {
      if (c + 1 < tilesWide && c >= 1) columnCells[(c + 1) % 3] = columnOfTiles(t, c + 1, columns[(c + 1) % 3]);
      window.fill(0);
      let n = 0;
      for (let v = Math.max(0, c - 1); v <= Math.min(tilesWide - 1, c + 1); v++) {
        const column = columns[v % 3];
        for (let p = 0; p < tileStride; p++) window[p] += column[p];
        n += columnCells[v % 3];
      }
      if (n >= MIN_WINDOW_CELLS) storeTile(t, c, bestPair(window, 0, n, allowed, scratch));
    }
  }

  /** The same scores by the wasm kernel (wasm/assembly/grid-score.ts), from the sums where they are, in its instance. */
  function scoreTileRowWasm(t: number): void {
    const { k, at } = memory as GridMemory;
    const first = Math.max(0, t - 1);
    const rows = Math.min(tilesHigh - 1, t + 1) - first + 1;
    k.gridScoreTileRow(
      at.sums,
      at.cells,
      first,
      rows,
      tilesWide,
      at.allowed,
      MIN_WINDOW_CELLS,
      at.windowCells,
      at.score,
      at.shift,
      at.step,
    );
    const { buffer } = k.memory;
    const windowCells = new Int32Array(buffer, at.windowCells, tilesWide);
    const scores = new Float64Array(buffer, at.score, tilesWide);
    const bytes = new Uint8Array(buffer);
    for (let c = 0; c < tilesWide; c++)
      if (windowCells[c] >= MIN_WINDOW_CELLS)
        storeTile(t, c, { score: scores[c], shift: bytes[at.shift + c], step: bytes[at.step + c] });
  }

  /** Tile (t, c)'s window result, and the tile's own phase sum at its best offset and step. */
  function storeTile(t: number, c: number, best: { score: number; shift: number; step: number }): void {
    const i = t * tilesWide + c;
    score[i] = best.score;
    shift[i] = best.shift;
    step[i] = best.step;
    const own = c * tileStride + 2 * (best.step * SHIFTS + best.shift);
    tileSum[2 * i] = acc[t % 3][own];
    tileSum[2 * i + 1] = acc[t % 3][own + 1];
    tileCells[i] = cells[t % 3][c];
  }

  /**
   * A tile row is complete: into the picture's sums (by the wasm feed as it measured the row, here for
   * the reference), the row above it can be scored, its slot is reused later: cleared for the reference,
   * which adds cell rows into it; the kernel stores each tile's sums and judged cells whole.
   */
  function closeTileRow(t: number): void {
    const a = acc[t % 3];
    if (options.reference)
      for (let tile = 0; tile < a.length; tile += tileStride)
        for (let p = 0; p < tileStride; p++) picture[p] += a[tile + p];
    for (const n of cells[t % 3]) pictureCells += n;
    if (t >= 1) scoreRow(t - 1);
    if (options.reference) clearSlot(t + 1);
  }

  /** Tile row `t`'s slot emptied (no sums, no judged cells). */
  function clearSlot(t: number): void {
    acc[t % 3].fill(0);
    cells[t % 3].fill(0);
  }

  const sums: PhaseSums = { blocksWide, blocksHigh, table, acc, cells, picture, closeTileRow };
  const feed = memory
    ? wasmPhaseSums(sums, memory)
    : { block: referencePhaseSums(sums), rows: undefined, tileRowsMeasured: undefined };
  const scoreRow = options.reference ? scoreTileRow : scoreTileRowWasm;
  return {
    block(row, col, q) {
      if (row < blocksHigh && col < blocksWide) feed.block(row, col, q);
    },
    rows: feed.rows,
    finish() {
      // The last cell row has no row below; its tile row (if not closed yet) and the last one are scored now.
      const lastTileRow = Math.floor((blocksHigh - 2) / GRID_TILE);
      // Tile rows the kernel did not measure (the last when it has no cell row) are empty in the scores below:
      // their slots hold an earlier tile row's sums.
      if (feed.tileRowsMeasured) {
        const lastRead = Math.min(lastTileRow + 1, tilesHigh - 1);
        for (let u = Math.max(feed.tileRowsMeasured(), lastTileRow - 2); u <= lastRead; u++) clearSlot(u);
      }
      if ((blocksHigh - 1) % GRID_TILE !== 0 && blocksHigh >= 2) closeTileRow(lastTileRow);
      if (lastTileRow >= 0) scoreRow(lastTileRow);
      memory?.release();
      const whole = bestPair(picture, 0, pictureCells, allowed, scratch);
      return {
        width,
        height,
        blocksWide,
        blocksHigh,
        tilesWide,
        tilesHigh,
        score,
        shift,
        step,
        tileSum,
        tileCells,
        pictureSum: picture,
        pictureCells,
        pictureMedian: medians(picture, pictureCells, allowed, scratch),
        picture: whole,
      };
    },
  };
}

/** The grid measurement as a product of the file's shared coefficient pass (baseline and progressive JPEGs). */
export const gridTilesProduct = coefficientProductOf("jpeg-grid-tiles", "grid analysis", MAX_GRID_PIXELS, gridSink);

export type GridTilesResult = { ok: true; tiles: GridTiles } | CoefficientFailure;

/** The grid tiles of a JPEG: from the shared pass when planned, else from a pass of its own. */
export async function gridTiles(bytes: Uint8Array): Promise<GridTilesResult> {
  const built = await coefficientProduct(bytes, gridTilesProduct);
  return built.ok ? { ok: true, tiles: built.value } : built;
}

// The phase sums of the earlier-JPEG-grid detector for one row of tiles: src/scanner/forensics/
// jpeg-grid-map.ts `gridSink` (its measureCellRow and addCellRow) is the JavaScript reference. The
// block rows of the tile row (and the one below it) go through the integer IDCT (jpeg-idct.ts, the
// reference's idctBlockToBytes); per cell row the 8×8 box sums at every offset (i16x8: 8 offsets per
// vector, sums ≤ 64·255 fit), the flat test, and per judged cell the (cos, sin) of its square sums
// on the lattice of each step added to its tile's f32 sums. Each sum starts from 0 and gets the
// cells in the reference's order (cell rows top down, cells left to right), one f32 addition each
// (JavaScript's Float32Array `+=` rounds the double sum of two floats to the same float), so the
// sums are bit-identical; the tables are the reference's own, copied in.

import { idctBlock } from "./jpeg-idct";

const SHIFTS: i32 = 55;
const STEPS: i32 = 7;
/** Offset/step pairs per tile, k * SHIFTS + s: a (cos, sin) f32 pair each. */
const PAIRS: i32 = SHIFTS * STEPS;
const TILE: i32 = 4;
const TILE_BYTES: usize = <usize>PAIRS * 8;
/** Square sums 0..64·255: one (cos, sin) f32 pair each, per step. */
const TABLE_BYTES: usize = (64 * 255 + 1) * 8;
const FLAT_RANGE: i32 = 32;

const PHASES = memory.data(7 * (64 * 255 + 1) * 8, 16);
/** Offset dy * 8 + dx of each candidate shift, × 2 (a byte offset into a cell's i16 square sums). */
const SHIFT_AT = memory.data(55 * 4, 16);
/** Per judged cell of one tile (at most TILE × TILE), the address of each offset's (cos, sin) in the first table. */
const CELL_PHASES = memory.data(16 * 55 * 4, 16);

/** Copies the caller's tables in: STEPS tables of (cos, sin) f32 pairs, the SHIFTS offsets (i32). */
export function setGridConstants(phases: usize, shifts: usize): void {
  memory.copy(PHASES, phases, <usize>STEPS * TABLE_BYTES);
  for (let s = 0; s < SHIFTS; s++) store<i32>(SHIFT_AT + <usize>s * 4, load<i32>(shifts + <usize>s * 4) * 2);
}

/**
 * Square sums of the 64 offsets in every cell of one cell row (`lines`: its 16 lines of `rowWidth`
 * bytes) into `squares` (64 i16 per cell, dy * 8 + dx), with `columns` (rowWidth i16) for the sums of
 * 8 lines.
 */
function measureCellRow(lines: usize, rowWidth: i32, blocksWide: i32, columns: usize, squares: usize): void {
  memory.fill(columns, 0, <usize>rowWidth * 2);
  for (let y = 0; y < 8; y++) {
    const line = lines + <usize>(y * rowWidth);
    for (let x = 0; x < rowWidth; x += 8) {
      const at = columns + <usize>x * 2;
      v128.store(at, i16x8.add(v128.load(at), v128.load8x8_u(line + <usize>x)));
    }
  }
  for (let dy = 0; dy < 8; dy++) {
    if (dy > 0) {
      const out = lines + <usize>((dy - 1) * rowWidth);
      const inn = lines + <usize>((dy + 7) * rowWidth);
      for (let x = 0; x < rowWidth; x += 8) {
        const at = columns + <usize>x * 2;
        const sum = i16x8.add(v128.load(at), v128.load8x8_u(inn + <usize>x));
        v128.store(at, i16x8.sub(sum, v128.load8x8_u(out + <usize>x)));
      }
    }
    // The cell's 8 offsets dx of this dy: the sums of columns x + dx … x + dx + 7.
    for (let j = 0; j + 1 < blocksWide; j++) {
      const at = columns + <usize>j * 16;
      let box = v128.load(at);
      for (let i = 1; i < 8; i++) box = i16x8.add(box, v128.load(at + <usize>i * 2));
      v128.store(squares + <usize>j * 128 + <usize>dy * 16, box);
    }
  }
}

/** Largest minus smallest of the 8 i16 lanes of `hi` and `lo` (their max and min). */
@inline function spread(lo: v128, hi: v128): i32 {
  lo = i16x8.min_s(lo, i16x8.shuffle(lo, lo, 4, 5, 6, 7, 0, 1, 2, 3));
  hi = i16x8.max_s(hi, i16x8.shuffle(hi, hi, 4, 5, 6, 7, 0, 1, 2, 3));
  lo = i16x8.min_s(lo, i16x8.shuffle(lo, lo, 2, 3, 0, 1, 2, 3, 0, 1));
  hi = i16x8.max_s(hi, i16x8.shuffle(hi, hi, 2, 3, 0, 1, 2, 3, 0, 1));
  lo = i16x8.min_s(lo, i16x8.shuffle(lo, lo, 1, 0, 1, 0, 1, 0, 1, 0));
  hi = i16x8.max_s(hi, i16x8.shuffle(hi, hi, 1, 0, 1, 0, 1, 0, 1, 0));
  return i16x8.extract_lane_s(hi, 0) - i16x8.extract_lane_s(lo, 0);
}

/** Whether the 64 square sums of a cell span less than FLAT_RANGE (every offset would line up). */
function isFlat(square: usize): bool {
  let lo = v128.load(square);
  let hi = lo;
  for (let r = 1; r < 8; r++) {
    const v = v128.load(square + <usize>r * 16);
    lo = i16x8.min_s(lo, v);
    hi = i16x8.max_s(hi, v);
  }
  return spread(lo, hi) < FLAT_RANGE;
}

/** The address of each offset's (cos, sin) in the first table for the cell's square sums at `square`, into `out`. */
function cellAddresses(square: usize, out: usize): void {
  for (let s = 0; s < SHIFTS; s++) {
    const sum = <usize>load<u16>(square + <usize>load<i32>(SHIFT_AT + <usize>s * 4));
    store<u32>(out + <usize>s * 4, <u32>(PHASES + sum * 8));
  }
}

/**
 * The tile's sums (PAIRS × (cos, sin) f32 at `out`) over its `judged` cells in order, each from 0; pair
 * k * SHIFTS + s reads step k's table at the cell's address of offset s.
 */
function accumulate(judged: i32, out: usize): void {
  let k = 0;
  let s = 0;
  for (let p = 0; p + 1 < PAIRS; p += 2) {
    const k1 = s + 1 == SHIFTS ? k + 1 : k;
    const s1 = s + 1 == SHIFTS ? 0 : s + 1;
    const first = CELL_PHASES + <usize>s * 4;
    const second = CELL_PHASES + <usize>s1 * 4;
    const table = <usize>k * TABLE_BYTES;
    const table1 = <usize>k1 * TABLE_BYTES;
    let sum = f32x4.splat(0);
    for (let c = 0; c < judged; c++) {
      const cell = <usize>(c * SHIFTS) * 4;
      const a = <usize>load<u32>(first + cell) + table;
      const b = <usize>load<u32>(second + cell) + table1;
      sum = f32x4.add(sum, v128.load64_lane(b, v128.load64_zero(a), 1));
    }
    v128.store(out + <usize>p * 8, sum);
    k = s1 + 1 == SHIFTS ? k1 + 1 : k1;
    s = s1 + 1 == SHIFTS ? 0 : s1 + 1;
  }
  // The last pair (PAIRS is odd): step k, offset s.
  let sum = f32x4.splat(0);
  for (let c = 0; c < judged; c++)
    sum = f32x4.add(
      sum,
      v128.load64_zero(<usize>load<u32>(CELL_PHASES + <usize>(c * SHIFTS + s) * 4) + <usize>k * TABLE_BYTES),
    );
  v128.store64_lane(out + <usize>(PAIRS - 1) * 8, sum, 0);
}

/**
 * The tile row's sums added to the picture's (PAIRS × (cos, sin) f64 at `picture`): tile by tile, as
 * the reference's closeTileRow adds them (f32 promoted, one f64 addition each).
 */
function addToPicture(sums: usize, tilesWide: i32, picture: usize): void {
  for (let t = 0; t < tilesWide; t++) {
    const tile = sums + <usize>t * TILE_BYTES;
    for (let p = 0; p < PAIRS; p++) {
      const at = picture + <usize>p * 16;
      v128.store(at, f64x2.add(v128.load(at), f64x2.promote_low_f32x4(v128.load64_zero(tile + <usize>p * 8))));
    }
  }
}

/**
 * One tile row: `blockRows` block rows of coefficients (64 i16 per block, `blocksWide` per row; the tile
 * row's cell rows and the block row below the last), dequantised with `table` (64 u16). Scratch:
 * `lines` (blockRows × 8 lines of blocksWide × 8 bytes), `columns` (blocksWide × 8 i16), `squares`
 * (blockRows − 1 rows of blocksWide × 64 i16). Out: per tile TILE_BYTES of sums at `sums`, judged
 * cells (i32) at `cells`, and the sums added to the picture's at `picture`.
 */
export function gridTileRow(
  coefficients: usize,
  blockRows: i32,
  blocksWide: i32,
  table: usize,
  lines: usize,
  columns: usize,
  squares: usize,
  sums: usize,
  cells: usize,
  picture: usize,
): void {
  const rowWidth = blocksWide * 8;
  for (let r = 0; r < blockRows; r++)
    for (let c = 0; c < blocksWide; c++)
      idctBlock(
        coefficients + <usize>(r * blocksWide + c) * 128,
        table,
        lines + <usize>(r * 8 * rowWidth + c * 8),
        rowWidth,
      );
  const cellRows = blockRows - 1;
  const rowSquares = <usize>blocksWide * 128;
  for (let r = 0; r < cellRows; r++)
    measureCellRow(lines + <usize>(r * 8 * rowWidth), rowWidth, blocksWide, columns, squares + <usize>r * rowSquares);
  const tilesWide = (blocksWide + TILE - 1) / TILE;
  for (let t = 0; t < tilesWide; t++) {
    let judged = 0;
    const end = min(t * TILE + TILE, blocksWide - 1);
    for (let r = 0; r < cellRows; r++)
      for (let j = t * TILE; j < end; j++) {
        const square = squares + <usize>r * rowSquares + <usize>j * 128;
        if (isFlat(square)) continue;
        cellAddresses(square, CELL_PHASES + <usize>(judged * SHIFTS) * 4);
        judged++;
      }
    store<i32>(cells + <usize>t * 4, judged);
    accumulate(judged, sums + <usize>t * TILE_BYTES);
  }
  addToPicture(sums, tilesWide, picture);
}

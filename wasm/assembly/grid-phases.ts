// The phase sums of the earlier-JPEG-grid detector for one row of tiles: src/scanner/forensics/
// jpeg-grid-map.ts `gridSink` (its measureCellRow and addCellRow) is the JavaScript reference. From the
// samples of the tile row's block rows (and the one below it; the integer IDCT of luma-rows.ts, the
// reference's idctBlockToBytes), tile by tile and per cell row the 8×8 box sums at every offset (i16x8:
// 8 offsets per vector, sums ≤ 64·255 fit), the flat test, and per judged cell the (cos, sin) of its
// square sums on the lattice of each step added to its tile's f32 sums. Each sum starts from 0 and gets the
// cells in the reference's order (cell rows top down, cells left to right), one f32 addition each
// (JavaScript's Float32Array `+=` rounds the double sum of two floats to the same float), so the
// sums are bit-identical; the tables are the reference's own, copied in (each distinct line once).

const SHIFTS: i32 = 55;
const STEPS: i32 = 7;
/** Offset/step pairs per tile, k * SHIFTS + s: a (cos, sin) f32 pair each. */
const PAIRS: i32 = SHIFTS * STEPS;
const TILE: i32 = 4;
const TILE_BYTES: usize = <usize>PAIRS * 8;
/** The caller's tables: per step, square sums 0..64·255 with one (cos, sin) f32 pair each. */
const TABLE_BYTES: usize = (64 * 255 + 1) * 8;
/**
 * Per square sum, the (cos, sin) of every step side by side (7 pairs and a zero pair: one 64-byte cache
 * line), so that a cell's offset reads one line for all steps instead of seven lines 130 KB apart.
 */
const ENTRY_BYTES: usize = 64;
const FLAT_RANGE: i32 = 32;
const SUMS: i32 = 64 * 255 + 1;
/**
 * The phases repeat with the square sum: every step's period 8q divides 1920 (2⁷·3·5). The lines are kept
 * once per distinct content (≈ 5 300 of 16 321: 1 MB would not stay in the cache beside the pass's other
 * work); only where a phase is 0 in exact arithmetic do the doubles' sin and cos leave a tiny value that
 * differs from one period to the next, so those sums keep a line of their own.
 */
const PERIOD: i32 = 1920;

const PHASES = memory.data((64 * 255 + 1) * 64, 64);
/** Per square sum, the address of its line in PHASES (u32: no multiplication per lookup). */
const PHASE_LINE = memory.data((64 * 255 + 1) * 4, 16);
/** Offset dy * 8 + dx of each candidate shift, × 2 (a byte offset into a cell's i16 square sums). */
const SHIFT_AT = memory.data(55 * 4, 16);
/** Per judged cell of one tile (at most TILE × TILE), the address of its 64 square sums. */
const JUDGED = memory.data(16 * 4, 16);

/** Square sum `sum`'s line from the caller's tables into PHASES at `line` (the eighth pair 0). */
function copyLine(phases: usize, sum: i32, line: i32): void {
  const at = PHASES + <usize>line * ENTRY_BYTES;
  for (let k = 0; k < STEPS; k++)
    store<u64>(at + <usize>k * 8, load<u64>(phases + <usize>k * TABLE_BYTES + <usize>sum * 8));
  store<u64>(at + <usize>STEPS * 8, 0);
}

/** Whether lines `a` and `b` of PHASES hold the same bits. */
function sameLine(a: i32, b: i32): bool {
  const x = PHASES + <usize>a * ENTRY_BYTES;
  const y = PHASES + <usize>b * ENTRY_BYTES;
  let differ = v128.xor(v128.load(x), v128.load(y));
  differ = v128.or(differ, v128.xor(v128.load(x, 16), v128.load(y, 16)));
  differ = v128.or(differ, v128.xor(v128.load(x, 32), v128.load(y, 32)));
  differ = v128.or(differ, v128.xor(v128.load(x, 48), v128.load(y, 48)));
  return !v128.any_true(differ);
}

/**
 * Copies the caller's tables in: STEPS tables of (cos, sin) f32 pairs, the SHIFTS offsets (i32). One
 * period's lines first (sums 8192 … 8192 + PERIOD − 1), then every other sum shares the line of its sum
 * in that period when the bits are the same, else gets a line of its own.
 */
export function setGridConstants(phases: usize, shifts: usize): void {
  for (let i = 0; i < PERIOD; i++) {
    copyLine(phases, 8192 + i, i);
    store<u32>(PHASE_LINE + <usize>(8192 + i) * 4, PHASES + <usize>i * ENTRY_BYTES);
  }
  let lines = PERIOD;
  for (let sum = 0; sum < SUMS; sum++) {
    if (sum >= 8192 && sum < 8192 + PERIOD) continue;
    const same = ((sum - 8192) % PERIOD + PERIOD) % PERIOD;
    copyLine(phases, sum, lines);
    const own = !sameLine(lines, same);
    store<u32>(PHASE_LINE + <usize>sum * 4, PHASES + <usize>(own ? lines : same) * ENTRY_BYTES);
    if (own) lines++;
  }
  for (let s = 0; s < SHIFTS; s++) store<i32>(SHIFT_AT + <usize>s * 4, load<i32>(shifts + <usize>s * 4) * 2);
}

/** Column sums (8 lines each) of one tile's cell row: its cells' 8·(cells + 1) columns, ≤ 40 (five i16x8). */
const TILE_COLUMNS = memory.data(5 * 16, 16);
/** The 64 square sums (i16, dy * 8 + dx) of each cell of one tile, cell row r and cell i at (r * TILE + i) * 128. */
const TILE_SQUARES = memory.data(16 * 128, 16);

/**
 * Square sums of the 64 offsets in `cells` cells of one cell row from column `x0` on (`lines`: its 16 lines
 * of `rowWidth` bytes; the columns up to x0 + 8·(cells + 1) exist) into `squares` (128 bytes per cell). A
 * tile at a time, so that its squares stay in the first-level cache until they are added up (a whole row's
 * did not, beside the other sinks' work in the pass).
 */
function measureCells(lines: usize, rowWidth: i32, x0: i32, cells: i32, squares: usize): void {
  const first = lines + <usize>x0;
  for (let v = 0; v <= cells; v++) {
    let column = i16x8.splat(0);
    for (let y = 0; y < 8; y++) column = i16x8.add(column, v128.load8x8_u(first + <usize>(y * rowWidth + v * 8)));
    v128.store(TILE_COLUMNS + <usize>v * 16, column);
  }
  for (let dy = 0; dy < 8; dy++) {
    if (dy > 0) {
      const out = first + <usize>((dy - 1) * rowWidth);
      const inn = first + <usize>((dy + 7) * rowWidth);
      for (let v = 0; v <= cells; v++) {
        const at = TILE_COLUMNS + <usize>v * 16;
        const sum = i16x8.add(v128.load(at), v128.load8x8_u(inn + <usize>v * 8));
        v128.store(at, i16x8.sub(sum, v128.load8x8_u(out + <usize>v * 8)));
      }
    }
    // The cell's 8 offsets dx of this dy: the sums of columns x + dx … x + dx + 7.
    for (let j = 0; j < cells; j++) {
      const at = TILE_COLUMNS + <usize>j * 16;
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

/** Adds the pair (cos, sin) f32 in `lanes` (its low half) to the picture's f64 pair at `at`. */
@inline function addToPicture(at: usize, lanes: v128): void {
  v128.store(at, f64x2.add(v128.load(at), f64x2.promote_low_f32x4(lanes)));
}

/**
 * The tile's sums (PAIRS × (cos, sin) f32 at `out`, pair k * SHIFTS + s) over its `judged` cells in order,
 * each from 0: per offset s, the PHASES entry of each cell's square sum at that offset (all steps at once:
 * four f32x4 of two pairs each; the zero pair's sum is not stored) added one cell after the other, so every
 * sum gets its cells in the reference's order. Each sum is also added to the picture's (PAIRS × (cos, sin)
 * f64 at `picture`) while in registers: tile after tile, as the reference's closeTileRow adds them (f32
 * promoted, one f64 addition each).
 */
function accumulate(judged: i32, out: usize, picture: usize): void {
  for (let s = 0; s < SHIFTS; s++) {
    let steps01 = f32x4.splat(0);
    let steps23 = steps01;
    let steps45 = steps01;
    let steps6 = steps01;
    const shift = <usize>load<i32>(SHIFT_AT + <usize>s * 4);
    for (let c = 0; c < judged; c++) {
      const square = <usize>load<u32>(JUDGED + <usize>c * 4);
      const entry = <usize>load<u32>(PHASE_LINE + <usize>load<u16>(square + shift) * 4);
      steps01 = f32x4.add(steps01, v128.load(entry));
      steps23 = f32x4.add(steps23, v128.load(entry, 16));
      steps45 = f32x4.add(steps45, v128.load(entry, 32));
      steps6 = f32x4.add(steps6, v128.load(entry, 48));
    }
    const at = out + <usize>s * 8;
    const step = <usize>SHIFTS * 8;
    v128.store64_lane(at, steps01, 0);
    v128.store64_lane(at + step, steps01, 1);
    v128.store64_lane(at + 2 * step, steps23, 0);
    v128.store64_lane(at + 3 * step, steps23, 1);
    v128.store64_lane(at + 4 * step, steps45, 0);
    v128.store64_lane(at + 5 * step, steps45, 1);
    v128.store64_lane(at + 6 * step, steps6, 0);
    const whole = picture + <usize>s * 16;
    const pictureStep = <usize>SHIFTS * 16;
    addToPicture(whole, steps01);
    addToPicture(whole + pictureStep, i64x2.shuffle(steps01, steps01, 1, 1));
    addToPicture(whole + 2 * pictureStep, steps23);
    addToPicture(whole + 3 * pictureStep, i64x2.shuffle(steps23, steps23, 1, 1));
    addToPicture(whole + 4 * pictureStep, steps45);
    addToPicture(whole + 5 * pictureStep, i64x2.shuffle(steps45, steps45, 1, 1));
    addToPicture(whole + 6 * pictureStep, steps6);
  }
}

/**
 * One tile row: the samples of `blockRows` block rows (the tile row's cell rows and the block row below the
 * last; 8 lines of blocksWide × 8 bytes each, luma-rows.ts `lumaRowSamples`) at `lines`, measured tile by
 * tile. Out: per tile TILE_BYTES of sums at `sums`, judged cells (i32) at `cells`, and the sums added to the
 * picture's at `picture`.
 */
export function gridTileRow(
  lines: usize,
  blockRows: i32,
  blocksWide: i32,
  sums: usize,
  cells: usize,
  picture: usize,
): void {
  const rowWidth = blocksWide * 8;
  const cellRows = blockRows - 1;
  const tilesWide = (blocksWide + TILE - 1) / TILE;
  for (let t = 0; t < tilesWide; t++) {
    // The last block column is no cell's left edge (its squares would reach past the picture).
    const tileCells = min(t * TILE + TILE, blocksWide - 1) - t * TILE;
    let judged = 0;
    for (let r = 0; r < cellRows; r++) {
      const squares = TILE_SQUARES + <usize>(r * TILE) * 128;
      if (tileCells > 0) measureCells(lines + <usize>(r * 8 * rowWidth), rowWidth, t * TILE * 8, tileCells, squares);
      for (let j = 0; j < tileCells; j++) {
        const square = squares + <usize>j * 128;
        if (isFlat(square)) continue;
        store<u32>(JUDGED + <usize>judged * 4, <u32>square);
        judged++;
      }
    }
    store<i32>(cells + <usize>t * 4, judged);
    accumulate(judged, sums + <usize>t * TILE_BYTES, picture);
  }
}

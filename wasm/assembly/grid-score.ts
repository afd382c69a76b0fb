// The window scores of the earlier-JPEG-grid detector for one row of tiles: src/scanner/forensics/
// jpeg-grid-map.ts `gridSink` (its scoreTileRow, columnOfTiles and bestPair) is the JavaScript
// reference. Per tile column the f32 phase sums of the tile rows above, at and below are summed in f64
// (from 0, rows top down), per window the three columns (from 0, left to right), two values per
// f64x2; per step the alignments |sum| / cells of the allowed offsets, the best and the median (the
// middle value after sorting: a selection gives the same value). The same f64 operations in the same
// order as the reference, so the scores are bit-identical.

const SHIFTS: i32 = 55;
const STEPS: i32 = 7;
const PAIRS: i32 = SHIFTS * STEPS;
/** f32 per tile in the sums, f64 per window. */
const VALUES: i32 = PAIRS * 2;
const TILE_BYTES: usize = <usize>VALUES * 4;
const WINDOW_BYTES: usize = <usize>VALUES * 8;

/** Three column sums (a ring: each column is summed once per tile row) and the window. */
const COLUMNS = memory.data(3 * 770 * 8, 16);
const COLUMN_CELLS = memory.data(3 * 4, 16);
const WINDOW = memory.data(770 * 8, 16);
const ALIGNMENTS = memory.data(55 * 8, 16);

/** Column `v` of the `rows` tile rows at `sums` summed into ring slot v % 3; its judged cells. */
function sumColumn(sums: usize, cells: usize, rows: i32, tilesWide: i32, v: i32): void {
  const out = COLUMNS + <usize>(v % 3) * WINDOW_BYTES;
  memory.fill(out, 0, WINDOW_BYTES);
  let n = 0;
  for (let u = 0; u < rows; u++) {
    const row = sums + <usize>(u * tilesWide + v) * TILE_BYTES;
    for (let p = 0; p < VALUES; p += 2) {
      const at = out + <usize>p * 8;
      const values = f64x2.promote_low_f32x4(v128.load64_zero(row + <usize>p * 4));
      v128.store(at, f64x2.add(v128.load(at), values));
    }
    n += load<i32>(cells + <usize>(u * tilesWide + v) * 4);
  }
  store<i32>(COLUMN_CELLS + <usize>(v % 3) * 4, n);
}

/** The (n >> 1)-th smallest of the `n` f64 at ALIGNMENTS (reordered): the reference's sorted[n >> 1]. */
function median(n: i32): f64 {
  const k = n >> 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = load<f64>(ALIGNMENTS + <usize>((lo + hi) >> 1) * 8);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (load<f64>(ALIGNMENTS + <usize>i * 8) < pivot) i++;
      while (load<f64>(ALIGNMENTS + <usize>j * 8) > pivot) j--;
      if (i <= j) {
        const a = load<f64>(ALIGNMENTS + <usize>i * 8);
        store<f64>(ALIGNMENTS + <usize>i * 8, load<f64>(ALIGNMENTS + <usize>j * 8));
        store<f64>(ALIGNMENTS + <usize>j * 8, a);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return load<f64>(ALIGNMENTS + <usize>k * 8);
}

/**
 * The best offset/step of the window (WINDOW, over `cells` judged cells; `allowed` PAIRS u8): the
 * reference's bestPair, score (f64) at `score`, offset and step (u8) at `shift`, `step`.
 */
function bestPair(cells: i32, allowed: usize, score: usize, shift: usize, step: usize): void {
  let best = NaN;
  let bestShift = 0;
  let bestStep = 0;
  const count = <f64>cells;
  for (let k = 0; k < STEPS; k++) {
    let n = 0;
    let top: f64 = -1;
    let topShift = 0;
    for (let s = 0; s < SHIFTS; s++) {
      const p = k * SHIFTS + s;
      if (!load<u8>(allowed + <usize>p)) continue;
      const re = load<f64>(WINDOW + <usize>p * 16);
      const im = load<f64>(WINDOW + <usize>p * 16, 8);
      const c = Math.sqrt(re * re + im * im) / count;
      store<f64>(ALIGNMENTS + <usize>n * 8, c);
      n++;
      if (c > top) {
        top = c;
        topShift = s;
      }
    }
    if (n < 8) continue;
    const value = (top - median(n)) * Math.sqrt(count);
    if (!(value <= best)) {
      best = value;
      bestShift = topShift;
      bestStep = k;
    }
  }
  store<f64>(score, best);
  store<u8>(shift, <u8>bestShift);
  store<u8>(step, <u8>bestStep);
}

/**
 * The windows centred on one tile row: `rows` (1–3) tile rows of sums at `sums` (tilesWide × VALUES f32
 * each: the rows above, at and below that exist) and their judged cells (i32) at `cells`. Per tile out:
 * the window's judged cells (i32) at `windowCells`, and when at least `minCells`, its score (f64),
 * offset and step (u8).
 */
export function gridScoreTileRow(
  sums: usize,
  cells: usize,
  rows: i32,
  tilesWide: i32,
  allowed: usize,
  minCells: i32,
  windowCells: usize,
  score: usize,
  shift: usize,
  step: usize,
): void {
  for (let v = 0; v < min(2, tilesWide); v++) sumColumn(sums, cells, rows, tilesWide, v);
  for (let c = 0; c < tilesWide; c++) {
    if (c + 1 < tilesWide && c >= 1) sumColumn(sums, cells, rows, tilesWide, c + 1);
    memory.fill(WINDOW, 0, WINDOW_BYTES);
    let n = 0;
    for (let v = max(0, c - 1); v <= min(tilesWide - 1, c + 1); v++) {
      const column = COLUMNS + <usize>(v % 3) * WINDOW_BYTES;
      for (let p: usize = 0; p < WINDOW_BYTES; p += 16)
        v128.store(WINDOW + p, f64x2.add(v128.load(WINDOW + p), v128.load(column + p)));
      n += load<i32>(COLUMN_CELLS + <usize>(v % 3) * 4);
    }
    store<i32>(windowCells + <usize>c * 4, n);
    if (n >= minCells) bestPair(n, allowed, score + <usize>c * 8, shift + <usize>c, step + <usize>c);
  }
}

// The window scores of the earlier-JPEG-grid detector for one row of tiles: src/scanner/forensics/
// jpeg-grid-map.ts `gridSink` (its scoreTileRow, columnOfTiles and bestPair) is the JavaScript
// reference. Per tile column the f32 phase sums of the tile rows above, at and below are summed in f64
// (from 0, rows top down), per window the three columns (from 0, left to right), two values per
// f64x2: the reference's operations in its order. Per step the alignments |sum| / cells of the allowed
// offsets, the best and the median (the middle value after sorting: a selection gives the same value;
// bestPair says why they can be taken from the squared sums), so the scores are bit-identical.

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
const SQUARES = memory.data(385 * 8, 16);
/** Two buffers of a smaller and a larger side each (the median's passes). */
const SIDES = memory.data(4 * 56 * 8, 16);

/**
 * Column `v` of the `rows` tile rows from `first` on summed into ring slot v % 3; its judged cells. Tile row u
 * lies in slot u % 3 of `sums` (tilesWide × TILE_BYTES each) and of `cells` (tilesWide i32 each).
 */
function sumColumn(sums: usize, cells: usize, first: i32, rows: i32, tilesWide: i32, v: i32): void {
  const out = COLUMNS + <usize>(v % 3) * WINDOW_BYTES;
  // The first row is the reference's 0 + value: the value itself (a −0 would become +0 there, but phase
  // sums are added up from +0, so none is −0; and the scores see only squares).
  const top = sums + (<usize>((first % 3) * tilesWide) + <usize>v) * TILE_BYTES;
  for (let p = 0; p < VALUES; p += 2)
    v128.store(out + <usize>p * 8, f64x2.promote_low_f32x4(v128.load64_zero(top + <usize>p * 4)));
  let n = load<i32>(cells + <usize>((first % 3) * tilesWide + v) * 4);
  for (let u = first + 1; u < first + rows; u++) {
    const slot = u % 3;
    const row = sums + (<usize>(slot * tilesWide) + <usize>v) * TILE_BYTES;
    for (let p = 0; p < VALUES; p += 2) {
      const at = out + <usize>p * 8;
      const values = f64x2.promote_low_f32x4(v128.load64_zero(row + <usize>p * 4));
      v128.store(at, f64x2.add(v128.load(at), values));
    }
    n += load<i32>(cells + <usize>(slot * tilesWide + v) * 4);
  }
  store<i32>(COLUMN_CELLS + <usize>(v % 3) * 4, n);
}

/**
 * The (n >> 1)-th smallest of the `n` f64 at ALIGNMENTS: the reference's sorted[n >> 1]. Quickselect
 * without jumps on the data: each pass writes every value to both the smaller and the larger side and
 * advances the side it belongs to (two halves of one of two buffers, used in turn), and continues on
 * the side that holds the wanted rank, or ends on the pivot when the rank falls among its equals.
 */
function median(n: i32): f64 {
  let k = n >> 1;
  let from = ALIGNMENTS;
  let len = n;
  let into = SIDES;
  let pivot: f64 = 0;
  for (;;) {
    pivot = load<f64>(from + <usize>(len >> 1) * 8);
    const larger = into + 56 * 8;
    let smaller = 0;
    let greater = 0;
    for (let i = 0; i < len; i++) {
      const x = load<f64>(from + <usize>i * 8);
      store<f64>(into + <usize>smaller * 8, x);
      store<f64>(larger + <usize>greater * 8, x);
      smaller += <i32>(x < pivot);
      greater += <i32>(x > pivot);
    }
    const equal = len - smaller - greater;
    if (k >= smaller && k < smaller + equal) break;
    if (k < smaller) {
      from = into;
      len = smaller;
    } else {
      from = larger;
      len = greater;
      k -= smaller + equal;
    }
    into = into == SIDES ? SIDES + 2 * 56 * 8 : SIDES;
  }
  return pivot;
}

/** How many of the `n` f64 at ALIGNMENTS are below `x`. */
function countBelow(x: f64, n: i32): i32 {
  let below = 0;
  for (let i = 0; i < n; i++) below += <i32>(load<f64>(ALIGNMENTS + <usize>i * 8) < x);
  return below;
}

/**
 * Whether this step's score (top − √median / cells) · √cells is sure not to exceed `best` (then the
 * reference keeps `best`, and the median need not be found). The floor is the squared sum at which the
 * score would equal `best`; when at most n >> 1 values lie below it, the median is not below it, and as
 * each operation of the score is correctly rounded and monotone, the score is at most the one computed at
 * the floor, which is checked to be at most `best` with the same operations.
 */
function cannotBeat(top: f64, count: f64, n: i32, best: f64): bool {
  if (best != best) return false;
  const root = (top - best / Math.sqrt(count)) * count;
  const floor = root > 0 ? root * root : 0;
  if (!((top - Math.sqrt(floor) / count) * Math.sqrt(count) <= best)) return false;
  return countBelow(floor, n) <= n >> 1;
}

/** re² + im² of every pair of the window into SQUARES, two pairs per f64x2. */
function squaredSums(): void {
  for (let p = 0; p < PAIRS - 1; p += 2) {
    const a = v128.load(WINDOW + <usize>p * 16);
    const b = v128.load(WINDOW + <usize>p * 16, 16);
    const re = i64x2.shuffle(a, b, 0, 2);
    const im = i64x2.shuffle(a, b, 1, 3);
    v128.store(SQUARES + <usize>p * 8, f64x2.add(f64x2.mul(re, re), f64x2.mul(im, im)));
  }
  const re = load<f64>(WINDOW + <usize>(PAIRS - 1) * 16);
  const im = load<f64>(WINDOW + <usize>(PAIRS - 1) * 16, 8);
  store<f64>(SQUARES + <usize>(PAIRS - 1) * 8, re * re + im * im);
}

/**
 * The best offset/step of the window (WINDOW, over `cells` judged cells; `allowed` PAIRS u8): the
 * reference's bestPair, score (f64) at `score`, offset and step (u8) at `shift`, `step`.
 *
 * The reference's alignment of a pair is √(re² + im²) / cells, a non-decreasing function of re² + im²
 * (a correctly rounded square root and division), so the best and the median alignment are that
 * function of the largest and the median squared sum: only those two are taken to alignments. The
 * reference keeps the first offset whose alignment is the largest; an earlier offset with a slightly
 * smaller squared sum can round to the same alignment, so the offsets whose squared sum is within
 * 10⁻⁹ of the largest are looked at in order.
 */
function bestPair(cells: i32, allowed: usize, score: usize, shift: usize, step: usize): void {
  let best = NaN;
  let bestShift = 0;
  let bestStep = 0;
  const count = <f64>cells;
  squaredSums();
  for (let k = 0; k < STEPS; k++) {
    let n = 0;
    let largest: f64 = -1;
    for (let s = 0; s < SHIFTS; s++) {
      const p = k * SHIFTS + s;
      if (!load<u8>(allowed + <usize>p)) continue;
      const c = load<f64>(SQUARES + <usize>p * 8);
      store<f64>(ALIGNMENTS + <usize>n * 8, c);
      n++;
      // A select, not f64.max (NaN- and zero-sign-safe, a longer sequence in V8): the squared sums are ≥ +0.
      largest = select<f64>(c, largest, c > largest);
    }
    if (n < 8) continue;
    const top = Math.sqrt(largest) / count;
    if (cannotBeat(top, count, n, best)) continue;
    let topShift = 0;
    for (let s = 0; s < SHIFTS; s++) {
      const p = k * SHIFTS + s;
      const c = load<f64>(SQUARES + <usize>p * 8);
      if (load<u8>(allowed + <usize>p) && c >= largest * (1 - 1e-9) && Math.sqrt(c) / count == top) {
        topShift = s;
        break;
      }
    }
    const value = (top - Math.sqrt(median(n)) / count) * Math.sqrt(count);
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
 * The windows centred on one tile row: `rows` (1–3) tile rows of sums from `first` on (the rows above, at and
 * below that exist), tile row u in slot u % 3 of `sums` (tilesWide × VALUES f32 each) and of `cells` (their
 * judged cells, tilesWide i32 each). Per tile out:
 * the window's judged cells (i32) at `windowCells`, and when at least `minCells`, its score (f64),
 * offset and step (u8).
 */
export function gridScoreTileRow(
  sums: usize,
  cells: usize,
  first: i32,
  rows: i32,
  tilesWide: i32,
  allowed: usize,
  minCells: i32,
  windowCells: usize,
  score: usize,
  shift: usize,
  step: usize,
): void {
  for (let v = 0; v < min(2, tilesWide); v++) sumColumn(sums, cells, first, rows, tilesWide, v);
  for (let c = 0; c < tilesWide; c++) {
    if (c + 1 < tilesWide && c >= 1) sumColumn(sums, cells, first, rows, tilesWide, c + 1);
    // The first column likewise: 0 + its sums are its sums.
    const left = max(0, c - 1);
    memory.copy(WINDOW, COLUMNS + <usize>(left % 3) * WINDOW_BYTES, WINDOW_BYTES);
    let n = load<i32>(COLUMN_CELLS + <usize>(left % 3) * 4);
    for (let v = left + 1; v <= min(tilesWide - 1, c + 1); v++) {
      const column = COLUMNS + <usize>(v % 3) * WINDOW_BYTES;
      for (let p: usize = 0; p < WINDOW_BYTES; p += 16)
        v128.store(WINDOW + p, f64x2.add(v128.load(WINDOW + p), v128.load(column + p)));
      n += load<i32>(COLUMN_CELLS + <usize>(v % 3) * 4);
    }
    store<i32>(windowCells + <usize>c * 4, n);
    if (n >= minCells) bestPair(n, allowed, score + <usize>c * 8, shift + <usize>c, step + <usize>c);
  }
}

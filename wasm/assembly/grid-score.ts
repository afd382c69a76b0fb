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
const COLUMN_BYTES: usize = <usize>VALUES * 8;
/** A step's row of squared sums: SHIFTS f64. */
const ROW_BYTES: usize = <usize>SHIFTS * 8;

/** Three column sums (a ring: each column is summed once per tile row). */
const COLUMNS = memory.data(3 * 770 * 8 + 16, 16);
const COLUMN_CELLS = memory.data(3 * 4, 16);
/**
 * The window's squared sums re² + im², pair k * SHIFTS + s (a row of SHIFTS per step); −1 where the pair is
 * not allowed (below every squared sum: the largest and the ranks of the allowed ones do not see it).
 */
const SQUARES = memory.data(385 * 8 + 8, 16);
/** Per pair, all ones where allowed (the mask that keeps its squared sum), else 0. */
const ALLOWED_MASK = memory.data(386 * 8, 16);
/** Per step, its allowed offsets (i32). */
const ALLOWED_COUNT = memory.data(7 * 4, 16);
/** Per step, its largest squared sum and best alignment in the window (f64), and the order the steps are scored in (i32). */
const LARGEST = memory.data(7 * 8, 16);
const TOPS = memory.data(7 * 8, 16);
const ORDER = memory.data(7 * 4, 16);
/** Two buffers of a smaller and a larger side each (the median's passes). */
const SIDES = memory.data(4 * 56 * 8, 16);

/** The allowed pairs (`allowed`: PAIRS u8) as lane masks, and each step's count of them. */
function setAllowed(allowed: usize): void {
  for (let k = 0; k < STEPS; k++) {
    let n = 0;
    for (let s = 0; s < SHIFTS; s++) {
      const on = load<u8>(allowed + <usize>(k * SHIFTS + s)) != 0;
      store<i64>(ALLOWED_MASK + <usize>(k * SHIFTS + s) * 8, on ? -1 : 0);
      n += <i32>on;
    }
    store<i32>(ALLOWED_COUNT + <usize>k * 4, n);
  }
}

/**
 * Column `v` of the `rows` tile rows from `first` on summed into ring slot v % 3; its judged cells. Tile row u
 * lies in slot u % 3 of `sums` (tilesWide × TILE_BYTES each) and of `cells` (tilesWide i32 each). Four f32
 * (two pairs) per load, promoted into two f64x2.
 */
function sumColumn(sums: usize, cells: usize, first: i32, rows: i32, tilesWide: i32, v: i32): void {
  const out = COLUMNS + <usize>(v % 3) * COLUMN_BYTES;
  // The first row is the reference's 0 + value: the value itself (a −0 would become +0 there, but phase
  // sums are added up from +0, so none is −0; and the scores see only squares).
  const top = sums + (<usize>((first % 3) * tilesWide) + <usize>v) * TILE_BYTES;
  for (let p = 0; p < VALUES - 2; p += 4) {
    const four = v128.load(top + <usize>p * 4);
    v128.store(out + <usize>p * 8, f64x2.promote_low_f32x4(four));
    v128.store(out + <usize>p * 8, f64x2.promote_low_f32x4(v128.shuffle<u32>(four, four, 2, 3, 2, 3)), 16);
  }
  const tail = <usize>(VALUES - 2);
  v128.store(out + tail * 8, f64x2.promote_low_f32x4(v128.load64_zero(top + tail * 4)));
  let n = load<i32>(cells + <usize>((first % 3) * tilesWide + v) * 4);
  for (let u = first + 1; u < first + rows; u++) {
    const slot = u % 3;
    const row = sums + (<usize>(slot * tilesWide) + <usize>v) * TILE_BYTES;
    for (let p = 0; p < VALUES - 2; p += 4) {
      const at = out + <usize>p * 8;
      const four = v128.load(row + <usize>p * 4);
      v128.store(at, f64x2.add(v128.load(at), f64x2.promote_low_f32x4(four)));
      const high = f64x2.promote_low_f32x4(v128.shuffle<u32>(four, four, 2, 3, 2, 3));
      v128.store(at, f64x2.add(v128.load(at, 16), high), 16);
    }
    const at = out + tail * 8;
    v128.store(at, f64x2.add(v128.load(at), f64x2.promote_low_f32x4(v128.load64_zero(row + tail * 4))));
    n += load<i32>(cells + <usize>(slot * tilesWide + v) * 4);
  }
  store<i32>(COLUMN_CELLS + <usize>(v % 3) * 4, n);
}

/** Pairs p and p + 1's squared sums from their window sums `one` and `two` (re, im each), −1 where not allowed. */
@inline function storeSquares(p: i32, one: v128, two: v128): void {
  one = f64x2.mul(one, one);
  two = f64x2.mul(two, two);
  const squared = f64x2.add(v128.shuffle<u64>(one, two, 0, 2), v128.shuffle<u64>(one, two, 1, 3));
  const allowed = v128.load(ALLOWED_MASK + <usize>p * 8);
  v128.store(SQUARES + <usize>p * 8, v128.bitselect(squared, f64x2.splat(-1), allowed));
}

/**
 * The window of columns `left` … `left + count − 1` (ring slots; 1–3 of them, added from the left as the
 * reference adds them) as squared sums re² + im² into SQUARES, two pairs per step, −1 where not allowed.
 * The last pass reads one pair beyond the 385th (its square is not kept).
 */
function windowSquares(left: i32, count: i32): void {
  const a = COLUMNS + <usize>(left % 3) * COLUMN_BYTES;
  const b = COLUMNS + <usize>((left + 1) % 3) * COLUMN_BYTES;
  const c = COLUMNS + <usize>((left + 2) % 3) * COLUMN_BYTES;
  if (count == 3) {
    // Inside the row: no test per pair.
    for (let p = 0; p <= PAIRS; p += 2) {
      const at = <usize>p * 16;
      const one = f64x2.add(f64x2.add(v128.load(a + at), v128.load(b + at)), v128.load(c + at));
      const two = f64x2.add(f64x2.add(v128.load(a + at, 16), v128.load(b + at, 16)), v128.load(c + at, 16));
      storeSquares(p, one, two);
    }
    return;
  }
  for (let p = 0; p <= PAIRS; p += 2) {
    const at = <usize>p * 16;
    let one = v128.load(a + at);
    let two = v128.load(a + at, 16);
    if (count > 1) {
      one = f64x2.add(one, v128.load(b + at));
      two = f64x2.add(two, v128.load(b + at, 16));
    }
    storeSquares(p, one, two);
  }
}

/** The largest of step `k`'s squared sums (−1 for the pairs not allowed). */
function largestOf(k: i32): f64 {
  const row = SQUARES + <usize>k * ROW_BYTES;
  // Squared sums are ≥ +0 and never NaN: pmax (one instruction) is max here.
  let most = v128.load(row);
  for (let s = 2; s < SHIFTS - 1; s += 2) most = f64x2.pmax(most, v128.load(row + <usize>s * 8));
  const two = f64x2.pmax(most, v128.shuffle<u64>(most, most, 1, 0));
  const last = load<f64>(row + <usize>(SHIFTS - 1) * 8);
  const lane = f64x2.extract_lane(two, 0);
  return last > lane ? last : lane;
}

/** How many of step `k`'s SHIFTS squared sums are below `x` (the pairs not allowed among them when x > −1). */
function countBelow(k: i32, x: f64): i32 {
  const row = SQUARES + <usize>k * ROW_BYTES;
  const bound = f64x2.splat(x);
  let below = i64x2.splat(0);
  for (let s = 0; s < SHIFTS - 1; s += 2) below = i64x2.sub(below, f64x2.lt(v128.load(row + <usize>s * 8), bound));
  const last = <i32>(load<f64>(row + <usize>(SHIFTS - 1) * 8) < x);
  return <i32>(i64x2.extract_lane(below, 0) + i64x2.extract_lane(below, 1)) + last;
}

/**
 * The (n >> 1)-th smallest of step `k`'s `n` allowed squared sums: the reference's sorted[n >> 1], the
 * rank shifted past the pairs not allowed (−1, below all). Quickselect without jumps on the data: each
 * pass writes every value to both the smaller and the larger side and advances the side it belongs to
 * (two halves of one of two buffers, used in turn), and continues on the side that holds the wanted rank,
 * or ends on the pivot when the rank falls among its equals.
 */
function median(k: i32, n: i32): f64 {
  let rank = (n >> 1) + (SHIFTS - n);
  let from = SQUARES + <usize>k * ROW_BYTES;
  let len = SHIFTS;
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
    if (rank >= smaller && rank < smaller + equal) break;
    if (rank < smaller) {
      from = into;
      len = smaller;
    } else {
      from = larger;
      len = greater;
      rank -= smaller + equal;
    }
    into = into == SIDES ? SIDES + 2 * 56 * 8 : SIDES;
  }
  return pivot;
}

/**
 * Whether step `k`'s score (top − √median / cells) · √cells (`root`) is sure not to exceed `bound` (then its median
 * need not be found). The floor is the squared sum at which the score would equal `bound`; when at most
 * n >> 1 allowed values lie below it, the median is not below it, and as each operation of the score is
 * correctly rounded and monotone, the score is at most the one computed at the floor, which is checked to
 * be at most `bound` with the same operations.
 */
function cannotBeat(k: i32, top: f64, count: f64, root: f64, n: i32, bound: f64): bool {
  if (bound != bound) return false;
  const reach = (top - bound / root) * count;
  const floor = reach > 0 ? reach * reach : 0;
  if (!((top - Math.sqrt(floor) / count) * root <= bound)) return false;
  return countBelow(k, floor) - (SHIFTS - n) <= n >> 1;
}

/** The largest double below `x` (finite). */
@inline function below(x: f64): f64 {
  if (x == 0) return -f64.MIN_VALUE;
  const bits = reinterpret<i64>(x);
  return reinterpret<f64>(x > 0 ? bits - 1 : bits + 1);
}

/** Step `k`'s first allowed offset whose alignment is `top` (its squared sum the largest, or rounding to it). */
function topShiftOf(k: i32, largest: f64, top: f64, count: f64): i32 {
  const row = SQUARES + <usize>k * ROW_BYTES;
  for (let s = 0; s < SHIFTS; s++) {
    const c = load<f64>(row + <usize>s * 8);
    if (c >= largest * (1 - 1e-9) && Math.sqrt(c) / count == top) return s;
  }
  return 0;
}

/**
 * The best offset/step of the window (SQUARES, over `cells` judged cells): the reference's bestPair, score
 * (f64) at `score`, offset and step (u8) at `shift`, `step`.
 *
 * The reference's alignment of a pair is √(re² + im²) / cells, a non-decreasing function of re² + im²
 * (a correctly rounded square root and division), so the best and the median alignment are that
 * function of the largest and the median squared sum: only those two are taken to alignments. The
 * reference keeps the first offset whose alignment is the largest; an earlier offset with a slightly
 * smaller squared sum can round to the same alignment, so the offsets whose squared sum is within
 * 10⁻⁹ of the largest are looked at in order. Of the steps it keeps the first with the highest score (a
 * later one only replaces it when higher); here the steps are scored from the best alignment down, so that
 * the first scores found let cannotBeat skip most medians, and a step before the kept one replaces it also
 * when equal (it is skipped only when sure to stay below).
 */
function bestPair(cells: i32, score: usize, shift: usize, step: usize): void {
  const count = <f64>cells;
  let steps = 0;
  for (let k = 0; k < STEPS; k++) {
    if (load<i32>(ALLOWED_COUNT + <usize>k * 4) < 8) continue;
    const largest = largestOf(k);
    const top = Math.sqrt(largest) / count;
    store<f64>(LARGEST + <usize>k * 8, largest);
    store<f64>(TOPS + <usize>k * 8, top);
    // Insertion by best alignment, earlier steps first among equals.
    let i = steps++;
    for (; i > 0; i--) {
      const before = load<i32>(ORDER + <usize>(i - 1) * 4);
      if (!(load<f64>(TOPS + <usize>before * 8) < top)) break;
      store<i32>(ORDER + <usize>i * 4, before);
    }
    store<i32>(ORDER + <usize>i * 4, k);
  }
  const root = Math.sqrt(count);
  let best = NaN;
  let bestShift = 0;
  let bestStep = 0;
  for (let i = 0; i < steps; i++) {
    const k = load<i32>(ORDER + <usize>i * 4);
    const n = load<i32>(ALLOWED_COUNT + <usize>k * 4);
    const top = load<f64>(TOPS + <usize>k * 8);
    // best is NaN only while bestStep is 0, so below() sees a number.
    if (cannotBeat(k, top, count, root, n, k < bestStep ? below(best) : best)) continue;
    const value = (top - Math.sqrt(median(k, n)) / count) * root;
    if (!(value <= best) || (value == best && k < bestStep)) {
      best = value;
      bestShift = topShiftOf(k, load<f64>(LARGEST + <usize>k * 8), top, count);
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
 * judged cells, tilesWide i32 each); `allowed` (PAIRS u8) the pairs that are candidates. Per tile out:
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
  setAllowed(allowed);
  for (let v = 0; v < min(2, tilesWide); v++) sumColumn(sums, cells, first, rows, tilesWide, v);
  for (let c = 0; c < tilesWide; c++) {
    if (c + 1 < tilesWide && c >= 1) sumColumn(sums, cells, first, rows, tilesWide, c + 1);
    // The first column likewise: 0 + its sums are its sums.
    const left = max(0, c - 1);
    const right = min(tilesWide - 1, c + 1);
    let n = 0;
    for (let v = left; v <= right; v++) n += load<i32>(COLUMN_CELLS + <usize>(v % 3) * 4);
    store<i32>(windowCells + <usize>c * 4, n);
    if (n < minCells) continue;
    windowSquares(left, right - left + 1);
    bestPair(n, score + <usize>c * 8, shift + <usize>c, step + <usize>c);
  }
}

// The blurred-rectangle search's per-pixel work (src/scanner/forensics/blur-search.ts `stepCounts` of
// `sideMeans`, and `runMaxima`), value for value: the three 5 × 5 box means (fine detail, coarse
// structure, brightness) are made row by row with the reference's f64 operations in its order, kept in rings of
// eight rows (no full-size map), and every sampled position's sharpness step is marked as soon as both its
// windows' rows exist; the marks are summed into the prefix counts at the end. The constants are blur-search.ts's.

const FINE_RATIO: f64 = 2.5;
const MIN_FINE: f64 = 3;
const RATIO_DROP: f64 = 2;
const COARSE_FLOOR: f64 = 2;
const COARSE_KEPT: f64 = 0.3;
const MIN_COARSE: f64 = 2;
const MAX_BRIGHTNESS_JUMP: f64 = 30;
const SAMPLE: i32 = 2;
/** Rows held per ring (≥ every window: 6 rows of a 5 × 5 box's input, 8 of the means a horizontal step reads). */
const RING: i32 = 8;

let width: i32 = 0;
let height: i32 = 0;
let src: usize = 0;

@inline function clampRow(y: i32): i32 {
  return y < 0 ? 0 : y >= height ? height - 1 : y;
}

@inline function at(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

/** A ring of RING rows of f32 (row y at slot y % RING). */
@inline function ringRow(ring: usize, y: i32): usize {
  return ring + (<usize>((y & (RING - 1)) * width) << 2);
}

/** A ring of RING rows of f64. */
@inline function ringRow64(ring: usize, y: i32): usize {
  return ring + (<usize>((y & (RING - 1)) * width) << 3);
}

// The four box means (g, the 9 × 9 mean of the picture; fine detail; coarse structure; brightness) keep their
// f64 column sums: g's and brightness's one f64 per column; fine detail's and coarse structure's side by side in
// one `f64x2` per column (lane 0 fine, lane 1 coarse: both 5 × 5 boxes over the same rows, so their running sums
// along a row go in one vector, each lane the reference's operations). No objects: the module's runtime never frees
// (`--runtime stub`).
const G_RADIUS = 4;
const SIDE_RADIUS = 2;
let gColumns: usize = 0;
let pairColumns: usize = 0;
let brightColumns: usize = 0;
/** The next output row of g and of the three side means. */
let gNext: i32 = 0;
let sideNext: i32 = 0;

// Lazily computed input rows: fine detail (|Laplacian|), the 9 × 9 box mean g, the coarse structure of g.
let fineRing: usize = 0;
let fineDone: i32 = 0;
let gRing: usize = 0;
let coarseRing: usize = 0;
let coarseDone: i32 = 0;

@inline function pictureRow(y: i32): usize {
  return src + (<usize>(y * width) << 2);
}

function fineInput(y: i32): usize {
  while (fineDone <= y) fineRow(fineDone++);
  return ringRow(fineRing, y);
}

function coarseInput(y: i32): usize {
  while (coarseDone <= y) coarseRow(coarseDone++);
  return ringRow(coarseRing, y);
}

/** Two f32 at `p` as an f64x2. */
@inline function two(p: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(p));
}

/** The two f64 lanes of `v` stored as f32 at `p` (the reference stores each double into a Float32Array). */
@inline function storeTwo(p: usize, v: v128): void {
  v128.store64_lane(p, f32x4.demote_f64x2_zero(v), 0);
}

/**
 * |4-neighbour Laplacian| of row y's inner pixels (0 on the border), as fineDetail: 4a − left − right − up − down in
 * f64 in that order, two pixels per `f64x2`.
 */
function fineRow(y: i32): void {
  const out = ringRow(fineRing, y);
  memory.fill(out, 0, <usize>width << 2);
  if (y < 1 || y >= height - 1) return;
  const row = pictureRow(y);
  const up = row - (<usize>width << 2);
  const down = row + (<usize>width << 2);
  const four = f64x2.splat(4);
  let x = 1;
  for (; x + 2 < width; x += 2) {
    let v = f64x2.mul(four, two(at(row, x)));
    v = f64x2.sub(v, two(at(row, x - 1)));
    v = f64x2.sub(v, two(at(row, x + 1)));
    v = f64x2.sub(v, two(at(up, x)));
    v = f64x2.sub(v, two(at(down, x)));
    storeTwo(at(out, x), f64x2.abs(v));
  }
  for (; x < width - 1; x++) {
    const v =
      4 * <f64>load<f32>(at(row, x)) -
      <f64>load<f32>(at(row, x - 1)) -
      <f64>load<f32>(at(row, x + 1)) -
      <f64>load<f32>(at(up, x)) -
      <f64>load<f32>(at(down, x));
    store<f32>(at(out, x), <f32>Math.abs(v));
  }
}

/**
 * Gradient of g on row y (coarseStructure: rows 2 … height − 3, columns 2 … width − 3; else 0):
 * 2 · (|g(x + 2) − g(x − 2)| + |down − up|) in f64, two pixels per `f64x2`.
 */
function coarseRow(y: i32): void {
  const out = ringRow(coarseRing, y);
  memory.fill(out, 0, <usize>width << 2);
  if (y < 2 || y >= height - 2) return;
  while (gNext <= y + 2) gRow(ringRow(gRing, gNext));
  const g = ringRow(gRing, y);
  const up = ringRow(gRing, y - 2);
  const down = ringRow(gRing, y + 2);
  const twice = f64x2.splat(2);
  let x = 2;
  for (; x + 1 < width - 2; x += 2) {
    const across = f64x2.abs(f64x2.sub(two(at(g, x + 2)), two(at(g, x - 2))));
    const vertical = f64x2.abs(f64x2.sub(two(at(down, x)), two(at(up, x))));
    storeTwo(at(out, x), f64x2.mul(twice, f64x2.add(across, vertical)));
  }
  for (; x < width - 2; x++) {
    const v =
      2 *
      (Math.abs(<f64>load<f32>(at(g, x + 2)) - <f64>load<f32>(at(g, x - 2))) +
        Math.abs(<f64>load<f32>(at(down, x)) - <f64>load<f32>(at(up, x))));
    store<f32>(at(out, x), <f32>v);
  }
}

/** Adds row `row` (f32) to `w` f64 column sums, in order (boxMean's start). */
function addRow(columns: usize, row: usize): void {
  for (let x = 0; x < width; x++) {
    const c = columns + (<usize>x << 3);
    store<f64>(c, load<f64>(c) + <f64>load<f32>(at(row, x)));
  }
}

/** Starts every box mean: boxMean's first column sums, its input's rows −r … r (clamped) added in order. */
function startBoxes(): void {
  memory.fill(gColumns, 0, <usize>width << 3);
  memory.fill(pairColumns, 0, <usize>width << 4);
  memory.fill(brightColumns, 0, <usize>width << 3);
  gNext = 0;
  sideNext = 0;
  for (let y = -G_RADIUS; y <= G_RADIUS; y++) addRow(gColumns, pictureRow(clampRow(y)));
  for (let y = -SIDE_RADIUS; y <= SIDE_RADIUS; y++) {
    const fine = fineInput(clampRow(y));
    const coarse = coarseInput(clampRow(y));
    for (let x = 0; x < width; x++) {
      const c = pairColumns + (<usize>x << 4);
      const v = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(at(fine, x))), 1, <f64>load<f32>(at(coarse, x)));
      v128.store(c, f64x2.add(v128.load(c), v));
    }
    addRow(brightColumns, pictureRow(clampRow(y)));
  }
}

/** Adds row `add` and takes row `drop` from `w` f64 column sums (column + (add − drop)), two columns per f64x2. */
function moveColumns(columns: usize, add: usize, drop: usize): void {
  let i = 0;
  for (; i + 2 <= width; i += 2) {
    const c = columns + (<usize>i << 3);
    v128.store(c, f64x2.add(v128.load(c), f64x2.sub(two(at(add, i)), two(at(drop, i)))));
  }
  for (; i < width; i++) {
    const c = columns + (<usize>i << 3);
    store<f64>(c, load<f64>(c) + (<f64>load<f32>(at(add, i)) - <f64>load<f32>(at(drop, i))));
  }
}

// g is <f32>(sum / 81) (the reference divides in f64, then stores into a Float32Array); a division per pixel bounds
// gRow's loop. y = sum · (1 / 81) lies within 2^-52 (relative) of sum / 81, so y · (1 ∓ 2^-49) brackets sum / 81
// rounded to f64 (within 2^-53 of it): when both ends round to the same f32, so does the quotient (rounding is
// monotonic); else (≈ never) the division decides. The sums are of f32 values (|sum| ≥ 2^-149 unless 0), far from
// f64's subnormals, where the relative bounds would not hold.
const PER_81: f64 = 1.0 / 81;
const BELOW: f64 = 1 - 1.0 / 562949953421312.0; // 2^49
const ABOVE: f64 = 1 + 1.0 / 562949953421312.0;

/** <f32>(sum / 81). */
@inline function gMean(sum: f64): f32 {
  const y = sum * PER_81;
  const below = <f32>(y * BELOW);
  return below == <f32>(y * ABOVE) ? below : <f32>(sum / 81);
}

/** g's next output row into `out` (boxMean with r 4: the running sum along the row, ÷ 81), then its columns moved down. */
function gRow(out: usize): void {
  const r = G_RADIUS;
  const last = width - 1;
  let sum: f64 = 0;
  for (let x = -r; x <= r; x++) sum += load<f64>(gColumns + (<usize>(x < 0 ? 0 : min(x, last)) << 3));
  // Clamped column indices only near the ends: the same sums in the same order.
  const inner = min(r, width);
  const innerEnd = max(last - r, inner);
  let x = 0;
  for (; x < inner; x++) {
    store<f32>(at(out, x), gMean(sum));
    sum += load<f64>(gColumns + (<usize>min(x + r + 1, last) << 3)) - load<f64>(gColumns + (<usize>max(x - r, 0) << 3));
  }
  const columns = gColumns;
  for (; x < innerEnd; x++) {
    const at = columns + (<usize>x << 3);
    store<f32>(out + (<usize>x << 2), gMean(sum));
    sum += load<f64>(at, (r + 1) << 3) - load<f64>(at - (<usize>r << 3));
  }
  for (; x < width; x++) {
    store<f32>(at(out, x), gMean(sum));
    sum += load<f64>(gColumns + (<usize>min(x + r + 1, last) << 3)) - load<f64>(gColumns + (<usize>max(x - r, 0) << 3));
  }
  const y = gNext++;
  moveColumns(gColumns, pictureRow(clampRow(y + r + 1)), pictureRow(clampRow(y - r)));
}

@inline function pairAt(x: i32): v128 {
  return v128.load(pairColumns + (<usize>x << 4));
}

@inline function brightAt(x: i32): f64 {
  return load<f64>(brightColumns + (<usize>x << 3));
}

/**
 * The three side means' next output row (boxMean with r 2 of fine detail, coarse structure and brightness) into
 * `f` and `c` (f32 means) and `b` (brightness's f64 sums: its mean is read only where the fine detail differs enough
 * for a step, ≈ never, so it is divided there; a division per pixel was a third of this function's time): fine and
 * coarse in the lanes of one running f64x2 sum, brightness in a scalar one; then the columns moved down a row. With
 * `evenOnly` only the even columns are divided and stored (with SAMPLE 2 the means of odd rows are read there only).
 */
function sideRows(f: usize, c: usize, b: usize, evenOnly: bool): void {
  const r = SIDE_RADIUS;
  const n = f64x2.splat(25);
  const last = width - 1;
  let pair = f64x2.splat(0);
  let bright: f64 = 0;
  for (let x = -r; x <= r; x++) {
    const i = x < 0 ? 0 : min(x, last);
    pair = f64x2.add(pair, pairAt(i));
    bright += brightAt(i);
  }
  const inner = min(r, width);
  const innerEnd = max(last - r, inner);
  let x = 0;
  for (; x < inner; x++) {
    const q = f32x4.demote_f64x2_zero(f64x2.div(pair, n));
    v128.store32_lane(at(f, x), q, 0);
    v128.store32_lane(at(c, x), q, 1);
    store<f64>(b + (<usize>x << 3), bright);
    const to = min(x + r + 1, last);
    const from = max(x - r, 0);
    pair = f64x2.add(pair, f64x2.sub(pairAt(to), pairAt(from)));
    bright += brightAt(to) - brightAt(from);
  }
  // The inner columns: the sums entering (x + r + 1) and leaving (x − r) read through cursors of their own.
  let enters = pairColumns + (<usize>(x + r + 1) << 4);
  let leaves = pairColumns + (<usize>(x - r) << 4);
  let brightEnters = brightColumns + (<usize>(x + r + 1) << 3);
  let brightLeaves = brightColumns + (<usize>(x - r) << 3);
  // With evenOnly two columns per step, the first (even: x starts at r = 2) stored.
  const step: i32 = evenOnly ? 2 : 1;
  for (; x + step <= innerEnd; x += step) {
    const q = f32x4.demote_f64x2_zero(f64x2.div(pair, n));
    v128.store32_lane(at(f, x), q, 0);
    v128.store32_lane(at(c, x), q, 1);
    store<f64>(b + (<usize>x << 3), bright);
    pair = f64x2.add(pair, f64x2.sub(v128.load(enters), v128.load(leaves)));
    bright += load<f64>(brightEnters) - load<f64>(brightLeaves);
    if (evenOnly) {
      pair = f64x2.add(pair, f64x2.sub(v128.load(enters, 16), v128.load(leaves, 16)));
      bright += load<f64>(brightEnters, 8) - load<f64>(brightLeaves, 8);
    }
    enters += <usize>step << 4;
    leaves += <usize>step << 4;
    brightEnters += <usize>step << 3;
    brightLeaves += <usize>step << 3;
  }
  for (; x < innerEnd; x++) {
    if (!evenOnly || (x & 1) == 0) {
      const q = f32x4.demote_f64x2_zero(f64x2.div(pair, n));
      v128.store32_lane(at(f, x), q, 0);
      v128.store32_lane(at(c, x), q, 1);
      store<f64>(b + (<usize>x << 3), bright);
    }
    pair = f64x2.add(pair, f64x2.sub(pairAt(x + r + 1), pairAt(x - r)));
    bright += brightAt(x + r + 1) - brightAt(x - r);
  }
  for (; x < width; x++) {
    const q = f32x4.demote_f64x2_zero(f64x2.div(pair, n));
    v128.store32_lane(at(f, x), q, 0);
    v128.store32_lane(at(c, x), q, 1);
    store<f64>(b + (<usize>x << 3), bright);
    const to = min(x + r + 1, last);
    const from = max(x - r, 0);
    pair = f64x2.add(pair, f64x2.sub(pairAt(to), pairAt(from)));
    bright += brightAt(to) - brightAt(from);
  }
  const y = sideNext++;
  const dropRow = clampRow(y - r);
  const addRowAt = clampRow(y + r + 1);
  const fineDrop = fineInput(dropRow);
  const fineAdd = fineInput(addRowAt);
  const coarseDrop = coarseInput(dropRow);
  const coarseAdd = coarseInput(addRowAt);
  // Per column (fine, coarse) + ((fine, coarse) added − (fine, coarse) dropped), each lane as the scalar sums.
  let i = 0;
  for (; i + 2 <= width; i += 2) {
    const added = i32x4.shuffle(v128.load64_zero(at(fineAdd, i)), v128.load64_zero(at(coarseAdd, i)), 0, 4, 1, 5);
    const dropped = i32x4.shuffle(v128.load64_zero(at(fineDrop, i)), v128.load64_zero(at(coarseDrop, i)), 0, 4, 1, 5);
    const p = pairColumns + (<usize>i << 4);
    const low = f64x2.sub(f64x2.promote_low_f32x4(added), f64x2.promote_low_f32x4(dropped));
    const high = f64x2.sub(
      f64x2.promote_low_f32x4(i32x4.shuffle(added, added, 2, 3, 0, 1)),
      f64x2.promote_low_f32x4(i32x4.shuffle(dropped, dropped, 2, 3, 0, 1)),
    );
    v128.store(p, f64x2.add(v128.load(p), low));
    v128.store(p + 16, f64x2.add(v128.load(p + 16), high));
  }
  for (; i < width; i++) {
    const p = pairColumns + (<usize>i << 4);
    const added = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(at(fineAdd, i))), 1, <f64>load<f32>(at(coarseAdd, i)));
    const dropped = f64x2.replace_lane(
      f64x2.splat(<f64>load<f32>(at(fineDrop, i))),
      1,
      <f64>load<f32>(at(coarseDrop, i)),
    );
    v128.store(p, f64x2.add(v128.load(p), f64x2.sub(added, dropped)));
  }
  moveColumns(brightColumns, pictureRow(addRowAt), pictureRow(dropRow));
}

// The three means' rings (row y at slot y % RING).
let fineMeans: usize = 0;
let coarseMeans: usize = 0;
let brightSums: usize = 0;

/** The brightness mean of the sum at `p` (f64), as the reference stores it (f32) and reads it back. */
@inline function brightMean(p: usize): f64 {
  return <f64><f32>(load<f64>(p) / 25);
}

/** brightMean of two f64 sums at `p`, one per lane. */
@inline function brightMeans(sums: v128): v128 {
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(f64x2.div(sums, f64x2.splat(25))));
}

/** stepAt: +1 when the side at `a` is sharp and `b` blurred, −1 the other way round, 0 when neither (brightness: sums). */
@inline function stepAt(fineA: usize, coarseA: usize, brightA: usize, fineB: usize, coarseB: usize, brightB: usize): i32 {
  const fa = <f64>load<f32>(fineA);
  const fb = <f64>load<f32>(fineB);
  if (fa <= FINE_RATIO * fb && fb <= FINE_RATIO * fa) return 0;
  if (Math.abs(brightMean(brightA) - brightMean(brightB)) >= MAX_BRIGHTNESS_JUMP) return 0;
  const ca = <f64>load<f32>(coarseA);
  const cb = <f64>load<f32>(coarseB);
  const ra = fa / (ca + COARSE_FLOOR);
  const rb = fb / (cb + COARSE_FLOOR);
  if (fa > FINE_RATIO * fb && fa > MIN_FINE && ra > RATIO_DROP * rb && cb >= COARSE_KEPT * ca && cb >= MIN_COARSE)
    return 1;
  if (fb > FINE_RATIO * fa && fb > MIN_FINE && rb > RATIO_DROP * ra && ca >= COARSE_KEPT * cb && ca >= MIN_COARSE)
    return -1;
  return 0;
}

/**
 * stepAt's first test for four positions (fine means `a` and `b`, f32x4): true when each lies within FINE_RATIO of
 * the other at all four (no step there). Told apart in f32 first: for f32 values, a < <f32>(FINE_RATIO · b)
 * implies a < FINE_RATIO · b (rounding is monotonic and a is an f32), and the reverse fails only where they are
 * equal; only then (or at a NaN) the reference's f64 products decide.
 */
@inline function noStepAtFour(a: v128, b: v128): bool {
  const ratio32 = f32x4.splat(<f32>FINE_RATIO);
  if (i32x4.all_true(v128.and(f32x4.lt(a, f32x4.mul(ratio32, b)), f32x4.lt(b, f32x4.mul(ratio32, a))))) return true;
  const ratio = f64x2.splat(FINE_RATIO);
  const aLow = f64x2.promote_low_f32x4(a);
  const bLow = f64x2.promote_low_f32x4(b);
  const aHigh = f64x2.promote_low_f32x4(i32x4.shuffle(a, a, 2, 3, 0, 1));
  const bHigh = f64x2.promote_low_f32x4(i32x4.shuffle(b, b, 2, 3, 0, 1));
  const low = v128.and(f64x2.le(aLow, f64x2.mul(ratio, bLow)), f64x2.le(bLow, f64x2.mul(ratio, aLow)));
  const high = v128.and(f64x2.le(aHigh, f64x2.mul(ratio, bHigh)), f64x2.le(bHigh, f64x2.mul(ratio, aHigh)));
  return i64x2.all_true(v128.and(low, high));
}

/**
 * stepAt of two positions, one per lane (each f64x2 holds the two positions' f32 means, promoted): every condition
 * the reference tests, as lane masks (its early returns only skip tests whose outcome would not change the step).
 * Returns the `into` marks (step +1) in lanes 0–1 and the `outOf` marks (step −1) in lanes 2–3, as i32 masks.
 */
@inline function stepsOfTwo(fa: v128, fb: v128, ca: v128, cb: v128, ba: v128, bb: v128): v128 {
  const ratio = f64x2.splat(FINE_RATIO);
  const sharpA = f64x2.gt(fa, f64x2.mul(ratio, fb));
  const sharpB = f64x2.gt(fb, f64x2.mul(ratio, fa));
  // Not "within FINE_RATIO either way" (the first return) and no brightness jump (the second).
  const quiet = v128.and(f64x2.le(fa, f64x2.mul(ratio, fb)), f64x2.le(fb, f64x2.mul(ratio, fa)));
  const jump = f64x2.ge(f64x2.abs(f64x2.sub(ba, bb)), f64x2.splat(MAX_BRIGHTNESS_JUMP));
  const open = v128.not(v128.or(quiet, jump));
  const floor = f64x2.splat(COARSE_FLOOR);
  const ra = f64x2.div(fa, f64x2.add(ca, floor));
  const rb = f64x2.div(fb, f64x2.add(cb, floor));
  const drop = f64x2.splat(RATIO_DROP);
  const kept = f64x2.splat(COARSE_KEPT);
  const minFine = f64x2.splat(MIN_FINE);
  const minCoarse = f64x2.splat(MIN_COARSE);
  const into = v128.and(
    v128.and(v128.and(sharpA, f64x2.gt(fa, minFine)), f64x2.gt(ra, f64x2.mul(drop, rb))),
    v128.and(f64x2.ge(cb, f64x2.mul(kept, ca)), f64x2.ge(cb, minCoarse)),
  );
  const outOf = v128.and(
    v128.and(v128.and(sharpB, f64x2.gt(fb, minFine)), f64x2.gt(rb, f64x2.mul(drop, ra))),
    v128.and(f64x2.ge(ca, f64x2.mul(kept, cb)), f64x2.ge(ca, minCoarse)),
  );
  return i32x4.shuffle(v128.and(open, into), v128.andnot(v128.and(open, outOf), into), 0, 2, 4, 6);
}

/** The first two of four f32 lanes as an f64x2 (`high`: the last two). */
@inline function low(v: v128): v128 {
  return f64x2.promote_low_f32x4(v);
}

@inline function high(v: v128): v128 {
  return f64x2.promote_low_f32x4(i32x4.shuffle(v, v, 2, 3, 0, 1));
}

/** Sampled columns j … j + 3 (every other f32 from `p`, reading 32 bytes) as four f32. */
@inline function everyOther(p: usize): v128 {
  return i32x4.shuffle(v128.load(p), v128.load(p, 16), 0, 2, 4, 6);
}

/** Columns j and j + 2 of f64 sums from `p` (reading 32 bytes) as an f64x2. */
@inline function everyOther64(p: usize): v128 {
  return i64x2.shuffle(v128.load(p), v128.load(p, 16), 0, 2);
}

/** Marks (u16 1) where stepsOfTwo's masks are set: its two positions at `into`/`outOf` and `apart` bytes on. */
@inline function markLanes(steps: v128, into: usize, outOf: usize, apart: usize): void {
  if (i32x4.extract_lane(steps, 0) != 0) store<u16>(into, 1);
  if (i32x4.extract_lane(steps, 1) != 0) store<u16>(into + apart, 1);
  if (i32x4.extract_lane(steps, 2) != 0) store<u16>(outOf, 1);
  if (i32x4.extract_lane(steps, 3) != 0) store<u16>(outOf + apart, 1);
}

/** Marks a step at position k of a row of a pair of count tables (u16, 1 where the picture turns blurred or sharp). */
@inline function mark(into: usize, outOf: usize, k: i32, step: i32): void {
  if (step > 0) store<u16>(into + (<usize>k << 1), 1);
  else if (step < 0) store<u16>(outOf + (<usize>k << 1), 1);
}

/** Prefix sums down a (samples + 1) × lines u16 table of marks (row 0 zero): row j + 1 += row j, eight per step. */
function prefixDown(table: usize, lines: i32, samples: i32): void {
  const total = <usize>(samples * lines);
  const offset = <usize>lines << 1;
  let i: usize = 0;
  for (; i + 8 <= total; i += 8) {
    const here = table + offset + (i << 1);
    v128.store(here, i16x8.add(v128.load(here), v128.load(here - offset)));
  }
  for (; i < total; i++) {
    const here = table + offset + (i << 1);
    store<u16>(here, <u16>(<i32>load<u16>(here) + <i32>load<u16>(here - offset)));
  }
}

/**
 * Step counts of the `w` × `h` f32 picture at `picture` across vertical boundaries (`intoV`/`outOfV`: lines w,
 * ceil(h / 2) samples) and horizontal ones (`intoH`/`outOfH`: lines h, ceil(w / 2) samples), as u16 prefix counts
 * laid out as blur-search.ts's `StepCounts` ((samples + 1) × lines each): the steps marked as the reference marks
 * them (four positions tested at once for the common case of none), then summed down the samples. `work` holds
 * blurStepWorkBytes(w) bytes.
 */
export function blurStepCounts(
  picture: usize,
  w: i32,
  h: i32,
  work: usize,
  intoV: usize,
  outOfV: usize,
  intoH: usize,
  outOfH: usize,
): void {
  width = w;
  height = h;
  src = picture;
  const rowBytes = <usize>w << 2;
  const ringBytes = rowBytes * RING;
  fineRing = work;
  gRing = fineRing + ringBytes;
  coarseRing = gRing + ringBytes;
  fineMeans = coarseRing + ringBytes;
  coarseMeans = fineMeans + ringBytes;
  brightSums = coarseMeans + ringBytes;
  gColumns = brightSums + 2 * ringBytes;
  pairColumns = gColumns + (<usize>w << 3);
  brightColumns = pairColumns + (<usize>w << 4);
  fineDone = 0;
  coarseDone = 0;
  const samplesV = (h + SAMPLE - 1) / SAMPLE;
  const samplesH = (w + SAMPLE - 1) / SAMPLE;
  memory.fill(intoV, 0, <usize>((samplesV + 1) * w) << 1);
  memory.fill(outOfV, 0, <usize>((samplesV + 1) * w) << 1);
  memory.fill(intoH, 0, <usize>((samplesH + 1) * h) << 1);
  memory.fill(outOfH, 0, <usize>((samplesH + 1) * h) << 1);
  startBoxes();
  for (let y = 0; y < h; y++) {
    const f = ringRow(fineMeans, y);
    const c = ringRow(coarseMeans, y);
    const b = ringRow64(brightSums, y);
    sideRows(f, c, b, (y & 1) != 0);
    // Vertical boundaries k on sampled row y: sharp side at k − 4, blurred side at k + 3.
    if (y % SAMPLE == 0) {
      const row = <usize>((y / SAMPLE + 1) * w) << 1;
      const into = intoV + row;
      const outOf = outOfV + row;
      let k = 6;
      for (; k + 8 < w; k += 4) {
        const fa = v128.load(at(f, k - 4));
        const fb = v128.load(at(f, k + 3));
        if (noStepAtFour(fa, fb)) continue;
        const ca = v128.load(at(c, k - 4));
        const cb = v128.load(at(c, k + 3));
        const ba = b + (<usize>(k - 4) << 3);
        const bb = b + (<usize>(k + 3) << 3);
        const first = stepsOfTwo(low(fa), low(fb), low(ca), low(cb), brightMeans(v128.load(ba)), brightMeans(v128.load(bb)));
        const second = stepsOfTwo(
          high(fa),
          high(fb),
          high(ca),
          high(cb),
          brightMeans(v128.load(ba, 16)),
          brightMeans(v128.load(bb, 16)),
        );
        // The masks (−1) as u16 marks (1) of positions k … k + 3: into, then outOf.
        const marks = i16x8.neg(i16x8.narrow_i32x4_s(i32x4.shuffle(first, second, 0, 1, 4, 5), i32x4.shuffle(first, second, 2, 3, 6, 7)));
        v128.store64_lane(into + (<usize>k << 1), marks, 0);
        v128.store64_lane(outOf + (<usize>k << 1), marks, 1);
      }
      for (; k + 5 < w; k++) {
        const a = <usize>(k - 4) << 2;
        const o = <usize>(k + 3) << 2;
        mark(into, outOf, k, stepAt(f + a, c + a, b + (a << 1), f + o, c + o, b + (o << 1)));
      }
    }
    // The horizontal boundary k = y − 3 (rows k − 4 and k + 3 = y are both made now), at every sampled column.
    const k = y - 3;
    if (k >= 6 && k + 5 < h) {
      const fa = ringRow(fineMeans, k - 4);
      const ca = ringRow(coarseMeans, k - 4);
      const ba = ringRow64(brightSums, k - 4);
      const into = intoH + (<usize>k << 1);
      const outOf = outOfH + (<usize>k << 1);
      const step = <usize>h << 1;
      let j = 0;
      // Four sampled columns (x = 2j … 2j + 6) per test; the loads reach one value past the row at most.
      for (; j + 3 < samplesH; j += 4) {
        const x = <usize>(j * SAMPLE) << 2;
        const a = everyOther(fa + x);
        const e = everyOther(f + x);
        if (noStepAtFour(a, e)) continue;
        const coarseA = everyOther(ca + x);
        const coarseB = everyOther(c + x);
        const first = stepsOfTwo(
          low(a),
          low(e),
          low(coarseA),
          low(coarseB),
          brightMeans(everyOther64(ba + (x << 1))),
          brightMeans(everyOther64(b + (x << 1))),
        );
        const second = stepsOfTwo(
          high(a),
          high(e),
          high(coarseA),
          high(coarseB),
          brightMeans(everyOther64(ba + (x << 1) + 32)),
          brightMeans(everyOther64(b + (x << 1) + 32)),
        );
        if (!v128.any_true(v128.or(first, second))) continue;
        const here = <usize>(j + 1) * step;
        markLanes(first, into + here, outOf + here, step);
        markLanes(second, into + here + 2 * step, outOf + here + 2 * step, step);
      }
      for (; j < samplesH; j++) {
        const s = <usize>(j * SAMPLE) << 2;
        const here = <usize>(j + 1) * step;
        mark(into + here, outOf + here, 0, stepAt(fa + s, ca + s, ba + (s << 1), f + s, c + s, b + (s << 1)));
      }
    }
  }
  prefixDown(intoV, w, samplesV);
  prefixDown(outOfV, w, samplesV);
  prefixDown(intoH, h, samplesH);
  prefixDown(outOfH, h, samplesH);
}

/**
 * Bytes of blurStepCounts' work area for a picture `w` wide (five rings of f32 rows, one of f64 rows, four rows of f64
 * column sums).
 */
export function blurStepWorkBytes(w: i32): i32 {
  return 5 * RING * w * 4 + RING * w * 8 + 4 * w * 8;
}

/**
 * The run maxima of blur-search.ts `runMaxima` and seam-search.ts `runMaxima`: per line k the most steps in any
 * `run` consecutive samples of the u16 prefix counts
 * (`lines` wide, samples + 1 rows), as u16 into `most` (lines values; a negative difference counts as 0).
 */
export function stepRunMaxima(counts: usize, lines: i32, samples: i32, run: i32, most: usize): void {
  memory.fill(most, 0, <usize>lines << 1);
  for (let j = 0; j + run <= samples; j++) {
    const start = counts + (<usize>(j * lines) << 1);
    const end = counts + (<usize>((j + run) * lines) << 1);
    let k = 0;
    // Eight lines per step: end − start saturated at 0 (u16), the larger kept (u16).
    for (; k + 8 <= lines; k += 8) {
      const o = <usize>k << 1;
      v128.store(most + o, i16x8.max_u(v128.load(most + o), i16x8.sub_sat_u(v128.load(end + o), v128.load(start + o))));
    }
    for (; k < lines; k++) {
      const o = <usize>k << 1;
      const n = <i32>load<u16>(end + o) - <i32>load<u16>(start + o);
      if (n > <i32>load<u16>(most + o)) store<u16>(most + o, <u16>n);
    }
  }
}

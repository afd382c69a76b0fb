// The cut-edge searches' per-pixel work, value for value: seam-search.ts `stepCounts` (one-pixel steps, u16 prefix
// counts) and tone-box.ts `runExtremes` (the extreme t · |t| of the step residual over runs), both across vertical
// boundaries (along the rows) and across horizontal ones (the references read the picture transposed; here the rows
// are read in order and every column keeps its own running state). The constants are the references'.

const SEAM_STEP: f64 = 4;
const SAMPLE: i32 = 2;
/** tone-box.ts: SEAM_MIN_SIDE / TONE.runStep samples per run, r read at every TONE.runStep-th pixel. */
const RUN: i32 = 32;
const RUN_STEP: i32 = 2;

@inline function px(row: usize, x: i32): f64 {
  return <f64>load<f32>(row + (<usize>x << 2));
}

/**
 * cur − max(prev, next) ≥ SEAM_STEP, without a branch on which is larger: subtraction rounds monotonically, so
 * cur − max(prev, next) is the smaller of cur − prev and cur − next (NaN in either fails both ways).
 */
@inline function isStep(prev: f64, cur: f64, next: f64): i32 {
  return <i32>(cur - prev >= SEAM_STEP) & <i32>(cur - next >= SEAM_STEP);
}

@inline function rowAt(picture: usize, width: i32, y: i32): usize {
  return picture + (<usize>(y * width) << 2);
}

/** isStep of two positions, one per lane, as i64 masks (the same comparisons of the same doubles). */
@inline function stepsOfTwo(prev: v128, cur: v128, next: v128): v128 {
  const step = f64x2.splat(SEAM_STEP);
  return v128.and(f64x2.ge(f64x2.sub(cur, prev), step), f64x2.ge(f64x2.sub(cur, next), step));
}

/** Four positions' step masks (two i64x2 of isStep) as four i16 1/0 in the low 64 bits. */
@inline function marksOfFour(low: v128, high: v128): v128 {
  const words = i32x4.shuffle(low, high, 0, 2, 4, 6);
  return i16x8.neg(i16x8.narrow_i32x4_s(words, words));
}

/**
 * One-pixel steps of the `w` × `h` f32 picture as seam-search.ts `stepCounts`: across vertical boundaries along the
 * rows 0, 2, 4, … (`vertical`: lines w − 1, ceil(h / 2) samples) and across horizontal ones along the columns 0, 2,
 * 4, … (`horizontal`: lines h − 1, ceil(w / 2) samples; the reference's stepCounts of the transposed picture), each
 * (samples + 1) × lines u16. Four positions per step: each |difference| in f64 (the difference of two f32 is exact)
 * and each test as isStep's, per lane.
 */
export function seamStepCounts(picture: usize, w: i32, h: i32, vertical: usize, horizontal: usize): void {
  let lines = w - 1;
  let samples = (h + SAMPLE - 1) / SAMPLE;
  memory.fill(vertical, 0, <usize>((samples + 1) * lines) << 1);
  for (let j = 0; j < samples; j++) {
    const row = rowAt(picture, w, j * SAMPLE);
    const above = vertical + (<usize>(j * lines) << 1);
    const here = above + (<usize>lines << 1);
    // Boundaries k … k + 3: differences at k − 1 … k + 4 (pixels k − 1 … k + 5).
    let k = 1;
    for (; k + 4 < lines; k += 4) {
      const at = row + (<usize>(k - 1) << 2);
      const d0 = f64x2.abs(f64x2.sub(two(at + 4), two(at)));
      const d1 = f64x2.abs(f64x2.sub(two(at + 8), two(at + 4)));
      const d2 = f64x2.abs(f64x2.sub(two(at + 12), two(at + 8)));
      const d3 = f64x2.abs(f64x2.sub(two(at + 16), two(at + 12)));
      const d4 = f64x2.abs(f64x2.sub(two(at + 20), two(at + 16)));
      // Lanes: (k, k + 1) and (k + 2, k + 3); d1 holds the differences at k and k + 1, d0 at k − 1, k.
      const low = stepsOfTwo(d0, d1, d2);
      const high = stepsOfTwo(d2, d3, d4);
      const o = <usize>k << 1;
      v128.store64_lane(here + o, i16x8.add(v128.load64_zero(above + o), marksOfFour(low, high)), 0);
    }
    if (k < lines - 1) {
      let prev = Math.abs(px(row, k) - px(row, k - 1));
      let cur = Math.abs(px(row, k + 1) - px(row, k));
      for (; k < lines - 1; k++) {
        const next = Math.abs(px(row, k + 2) - px(row, k + 1));
        const o = <usize>k << 1;
        store<u16>(here + o, <u16>(<i32>load<u16>(above + o) + isStep(prev, cur, next)));
        prev = cur;
        cur = next;
      }
    }
  }
  // Horizontal boundaries k (rows k and k + 1) at the sampled columns, four columns at a time down the rows: their
  // differences of three row pairs rolled in registers, and their four counts at k written into four table rows that
  // each advance by one count per row (k outer, every row wrote one count into each of the ceil(w / 2) table rows:
  // a cache line per count, ≈ half the function's time).
  lines = h - 1;
  samples = (w + SAMPLE - 1) / SAMPLE;
  memory.fill(horizontal, 0, <usize>((samples + 1) * lines) << 1);
  const column = <usize>lines << 1;
  const row0 = rowAt(picture, w, 0);
  const row1 = rowAt(picture, w, 1);
  const row2 = rowAt(picture, w, 2);
  let j = 0;
  // Sampled columns j … j + 3 (x = 2j … 2j + 6): the loads reach one value past x = 2j + 6, inside the row or the
  // next one while 2j + 7 < w.
  for (; j + 3 < samples && 2 * j + 7 < w; j += 4) {
    const x = <usize>(j * SAMPLE) << 2;
    const first = everyOther(row0 + x);
    const second = everyOther(row1 + x);
    let lower = everyOther(row2 + x);
    let prevLow = lowDifferences(second, first);
    let prevHigh = highDifferences(second, first);
    let curLow = lowDifferences(lower, second);
    let curHigh = highDifferences(lower, second);
    const counts = horizontal + (<usize>(j * lines) << 1);
    for (let k = 1; k < lines - 1; k++) {
      const below = everyOther(rowAt(picture, w, k + 2) + x);
      const nextLow = lowDifferences(below, lower);
      const nextHigh = highDifferences(below, lower);
      const marks = marksOfFour(stepsOfTwo(prevLow, curLow, nextLow), stepsOfTwo(prevHigh, curHigh, nextHigh));
      // Each column's count below the one before it: the column above's count plus the marks so far.
      const above = counts + (<usize>k << 1);
      let count = <i32>load<u16>(above) + i16x8.extract_lane_u(marks, 0);
      store<u16>(above + column, <u16>count);
      count += i16x8.extract_lane_u(marks, 1);
      store<u16>(above + 2 * column, <u16>count);
      count += i16x8.extract_lane_u(marks, 2);
      store<u16>(above + 3 * column, <u16>count);
      count += i16x8.extract_lane_u(marks, 3);
      store<u16>(above + 4 * column, <u16>count);
      prevLow = curLow;
      prevHigh = curHigh;
      curLow = nextLow;
      curHigh = nextHigh;
      lower = below;
    }
  }
  for (; j < samples; j++) {
    const x = j * SAMPLE;
    let prev = Math.abs(px(row1, x) - px(row0, x));
    let cur = Math.abs(px(row2, x) - px(row1, x));
    const counts = horizontal + (<usize>(j * lines) << 1);
    for (let k = 1; k < lines - 1; k++) {
      const next = Math.abs(px(rowAt(picture, w, k + 2), x) - px(rowAt(picture, w, k + 1), x));
      const above = counts + (<usize>k << 1);
      store<u16>(above + column, <u16>(<i32>load<u16>(above) + isStep(prev, cur, next)));
      prev = cur;
      cur = next;
    }
  }
}

/** |lower − upper| of the first two of four f32 lanes, in f64 (exact for two f32). */
@inline function lowDifferences(lower: v128, upper: v128): v128 {
  return f64x2.abs(f64x2.sub(f64x2.promote_low_f32x4(lower), f64x2.promote_low_f32x4(upper)));
}

/** |lower − upper| of the last two lanes. */
@inline function highDifferences(lower: v128, upper: v128): v128 {
  return lowDifferences(i32x4.shuffle(lower, lower, 2, 3, 0, 1), i32x4.shuffle(upper, upper, 2, 3, 0, 1));
}

/** The step residual r of tone-box.ts at one pixel: the boundary between b and c, a before b, d after c (f32). */
@inline function residual(a: f64, b: f64, c: f64, d: f64): f32 {
  return <f32>(c - b - 0.5 * (b - a + d - c));
}

/**
 * ÷ RUN as × 1 / RUN: RUN is a power of two, so both give the same double (the rounding of the same real quotient,
 * subnormal or not), and a multiplication instead of a division per run.
 */
const PER_RUN: f64 = 1.0 / <f64>RUN;

/** t · |t| of a run from its sums (runExtremes' q). */
@inline function signedSquare(s1: f64, s2: f64): f64 {
  const n = <f64>RUN;
  const mean = s1 * PER_RUN;
  return (mean * Math.abs(mean) * n) / max(s2 * PER_RUN - mean * mean, 1e-6);
}

/**
 * signedSquare of two runs, one per lane, by the same operations; Math.max(v, 1e-6) as `pmax` (v < 1e-6 ? 1e-6 :
 * v), which keeps NaN as Math.max does.
 */
@inline function signedSquares(s1: v128, s2: v128): v128 {
  const n = f64x2.splat(<f64>RUN);
  const mean = f64x2.mul(s1, f64x2.splat(PER_RUN));
  const spread = f64x2.pmax(f64x2.sub(f64x2.mul(s2, f64x2.splat(PER_RUN)), f64x2.mul(mean, mean)), f64x2.splat(1e-6));
  return f64x2.div(f64x2.mul(f64x2.mul(mean, f64x2.abs(mean)), n), spread);
}

/** residual of two boundaries, one per lane (a, b, c, d: each lane's four pixels), rounded to f32 and back. */
@inline function residuals(a: v128, b: v128, c: v128, d: v128): v128 {
  const v = f64x2.sub(
    f64x2.sub(c, b),
    f64x2.mul(f64x2.splat(0.5), f64x2.sub(f64x2.add(f64x2.sub(b, a), d), c)),
  );
  return f64x2.promote_low_f32x4(f32x4.demote_f64x2_zero(v));
}

/** Math.sign(v) · √|v| as runExtremes stores it (±0 and NaN kept). */
@inline function signedRoot(v: f64): f32 {
  const sign: f64 = v > 0 ? 1 : v < 0 ? -1 : v;
  return <f32>(sign * Math.sqrt(Math.abs(v)));
}

/** Two f32 at `p` as an f64x2. */
@inline function two(p: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(p));
}

/** residuals of the first of two samples held as (row, next row) pairs: lanes 0–1 of each of the four. */
@inline function firstResiduals(ab: v128, bc: v128, cd: v128, de: v128): v128 {
  return residuals(
    f64x2.promote_low_f32x4(ab),
    f64x2.promote_low_f32x4(bc),
    f64x2.promote_low_f32x4(cd),
    f64x2.promote_low_f32x4(de),
  );
}

/** residuals of the second of the two samples (lanes 2–3). */
@inline function secondResiduals(ab: v128, bc: v128, cd: v128, de: v128): v128 {
  return firstResiduals(
    i32x4.shuffle(ab, ab, 2, 3, 0, 1),
    i32x4.shuffle(bc, bc, 2, 3, 0, 1),
    i32x4.shuffle(cd, cd, 2, 3, 0, 1),
    i32x4.shuffle(de, de, 2, 3, 0, 1),
  );
}

/** Samples x, x + 2, x + 4, x + 6 of a row (every other f32 from `p`, reading 32 bytes) as four f32. */
@inline function everyOther(p: usize): v128 {
  return i32x4.shuffle(v128.load(p), v128.load(p, 16), 0, 2, 4, 6);
}

/** Two f64 lanes from one f32 in each of two rows at column x. */
@inline function pairOf(upper: usize, lower: usize, x: i32): v128 {
  return f64x2.replace_lane(f64x2.splat(px(upper, x)), 1, px(lower, x));
}

/** Two neighbouring boundaries' extremes (lanes of `hi` and `lo`) as runExtremes stores them, at k and k + 1. */
@inline function storeExtremes(k: i32, hi: v128, lo: v128, most: usize, least: usize): void {
  const at = <usize>k << 2;
  store<f32>(most + at, signedRoot(f64x2.extract_lane(hi, 0)));
  store<f32>(most + at + 4, signedRoot(f64x2.extract_lane(hi, 1)));
  store<f32>(least + at, signedRoot(f64x2.extract_lane(lo, 0)));
  store<f32>(least + at + 4, signedRoot(f64x2.extract_lane(lo, 1)));
}

/**
 * runExtremes between rows k and k + 1 and between rows k + 1 and k + 2 at once, one boundary per lane: both
 * boundaries' residuals side by side in `r` (f32 pairs), their run sums in the lanes of one f64x2 each.
 */
function rowPairExtremes(picture: usize, w: i32, k: i32, samples: i32, r: usize, most: usize, least: usize): void {
  const a = rowAt(picture, w, k - 1);
  const b = rowAt(picture, w, k);
  const c = rowAt(picture, w, k + 1);
  const d = rowAt(picture, w, k + 2);
  const e = rowAt(picture, w, k + 3);
  let i = 0;
  let x = 0;
  // Four samples per step (x … x + 6; the loads reach x + 7, inside the row while x + 7 < w): each row's four
  // samples gathered once, the two boundaries' pixels paired by shuffles instead of one load per pixel and lane.
  for (; x + 7 < w; i += 4, x += 4 * RUN_STEP) {
    const o = <usize>x << 2;
    const ra = everyOther(a + o);
    const rb = everyOther(b + o);
    const rc = everyOther(c + o);
    const rd = everyOther(d + o);
    const re = everyOther(e + o);
    // Adjacent rows' samples interleaved: (row, next row) at samples 0 and 1 (…0), at 2 and 3 (…2).
    const ab0 = i32x4.shuffle(ra, rb, 0, 4, 1, 5);
    const ab2 = i32x4.shuffle(ra, rb, 2, 6, 3, 7);
    const bc0 = i32x4.shuffle(rb, rc, 0, 4, 1, 5);
    const bc2 = i32x4.shuffle(rb, rc, 2, 6, 3, 7);
    const cd0 = i32x4.shuffle(rc, rd, 0, 4, 1, 5);
    const cd2 = i32x4.shuffle(rc, rd, 2, 6, 3, 7);
    const de0 = i32x4.shuffle(rd, re, 0, 4, 1, 5);
    const de2 = i32x4.shuffle(rd, re, 2, 6, 3, 7);
    const first = firstResiduals(ab0, bc0, cd0, de0);
    const second = secondResiduals(ab0, bc0, cd0, de0);
    const third = firstResiduals(ab2, bc2, cd2, de2);
    const fourth = secondResiduals(ab2, bc2, cd2, de2);
    const to = r + (<usize>i << 3);
    v128.store(to, i32x4.shuffle(f32x4.demote_f64x2_zero(first), f32x4.demote_f64x2_zero(second), 0, 1, 4, 5));
    v128.store(to, i32x4.shuffle(f32x4.demote_f64x2_zero(third), f32x4.demote_f64x2_zero(fourth), 0, 1, 4, 5), 16);
  }
  for (; x < w; i++, x += RUN_STEP) {
    const v = residuals(pairOf(a, b, x), pairOf(b, c, x), pairOf(c, d, x), pairOf(d, e, x));
    v128.store64_lane(r + (<usize>i << 3), f32x4.demote_f64x2_zero(v), 0);
  }
  let s1 = f64x2.splat(0);
  let s2 = f64x2.splat(0);
  for (let i = 0; i < RUN; i++) {
    const v = two(r + (<usize>i << 3));
    s1 = f64x2.add(s1, v);
    s2 = f64x2.add(s2, f64x2.mul(v, v));
  }
  let hi = f64x2.splat(-Infinity);
  let lo = f64x2.splat(Infinity);
  for (let i = 0; ; i++) {
    const q = signedSquares(s1, s2);
    hi = f64x2.pmax(hi, q);
    lo = f64x2.pmin(lo, q);
    if (i + RUN >= samples) break;
    const out = two(r + (<usize>i << 3));
    const into = two(r + (<usize>(i + RUN) << 3));
    s1 = f64x2.add(s1, f64x2.sub(into, out));
    s2 = f64x2.add(s2, f64x2.sub(f64x2.mul(into, into), f64x2.mul(out, out)));
  }
  storeExtremes(k, hi, lo, most, least);
}

/** runExtremes between rows k and k + 1 alone. */
function rowExtremes(picture: usize, w: i32, k: i32, samples: i32, r: usize, most: usize, least: usize): void {
  const a = rowAt(picture, w, k - 1);
  const b = rowAt(picture, w, k);
  const c = rowAt(picture, w, k + 1);
  const d = rowAt(picture, w, k + 2);
  for (let i = 0, x = 0; x < w; i++, x += RUN_STEP)
    store<f32>(r + (<usize>i << 2), residual(px(a, x), px(b, x), px(c, x), px(d, x)));
  let s1: f64 = 0;
  let s2: f64 = 0;
  for (let i = 0; i < RUN; i++) {
    const v = <f64>load<f32>(r + (<usize>i << 2));
    s1 += v;
    s2 += v * v;
  }
  let hi = -Infinity;
  let lo = Infinity;
  for (let i = 0; ; i++) {
    const q = signedSquare(s1, s2);
    if (q > hi) hi = q;
    if (q < lo) lo = q;
    if (i + RUN >= samples) break;
    const out = <f64>load<f32>(r + (<usize>i << 2));
    const into = <f64>load<f32>(r + (<usize>(i + RUN) << 2));
    s1 += into - out;
    s2 += into * into - out * out;
  }
  store<f32>(most + (<usize>k << 2), signedRoot(hi));
  store<f32>(least + (<usize>k << 2), signedRoot(lo));
}

/**
 * runExtremes between columns k and k + 1 and between k + 1 and k + 2 at once, one boundary per lane, down the
 * sampled rows: the sums and extremes in registers, the last RUN residuals of both in a ring at `ring` (RUN f32
 * pairs). Reading down the columns (a cache line per sampled row, shared by eight pairs in turn) instead of keeping
 * every column's state in memory and moving it once per row.
 */
function columnPairExtremes(picture: usize, w: i32, k: i32, samples: i32, ring: usize, most: usize, least: usize): void {
  const x = <usize>k << 2;
  let s1 = f64x2.splat(0);
  let s2 = f64x2.splat(0);
  let hi = f64x2.splat(-Infinity);
  let lo = f64x2.splat(Infinity);
  for (let i = 0; i < samples; i++) {
    const row = rowAt(picture, w, i * RUN_STEP) + x;
    const v = residuals(two(row - 4), two(row), two(row + 4), two(row + 8));
    const held = ring + (<usize>(i & (RUN - 1)) << 3);
    if (i < RUN) {
      s1 = f64x2.add(s1, v);
      s2 = f64x2.add(s2, f64x2.mul(v, v));
    } else {
      const out = two(held);
      s1 = f64x2.add(s1, f64x2.sub(v, out));
      s2 = f64x2.add(s2, f64x2.sub(f64x2.mul(v, v), f64x2.mul(out, out)));
    }
    v128.store64_lane(held, f32x4.demote_f64x2_zero(v), 0);
    if (i + 1 < RUN) continue;
    const q = signedSquares(s1, s2);
    hi = f64x2.pmax(hi, q);
    lo = f64x2.pmin(lo, q);
  }
  storeExtremes(k, hi, lo, most, least);
}

/** runExtremes between columns k and k + 1 alone (ring: RUN f32). */
function columnExtremes(picture: usize, w: i32, k: i32, samples: i32, ring: usize, most: usize, least: usize): void {
  let s1: f64 = 0;
  let s2: f64 = 0;
  let hi = -Infinity;
  let lo = Infinity;
  for (let i = 0; i < samples; i++) {
    const row = rowAt(picture, w, i * RUN_STEP);
    const v = residual(px(row, k - 1), px(row, k), px(row, k + 1), px(row, k + 2));
    const into = <f64>v;
    const held = ring + (<usize>(i & (RUN - 1)) << 2);
    if (i < RUN) {
      s1 += into;
      s2 += into * into;
    } else {
      const out = <f64>load<f32>(held);
      s1 += into - out;
      s2 += into * into - out * out;
    }
    store<f32>(held, v);
    if (i + 1 < RUN) continue;
    const q = signedSquare(s1, s2);
    if (q > hi) hi = q;
    if (q < lo) lo = q;
  }
  store<f32>(most + (<usize>k << 2), signedRoot(hi));
  store<f32>(least + (<usize>k << 2), signedRoot(lo));
}

/**
 * tone-box.ts `runExtremes` of the `w` × `h` f32 picture: boundaries between rows (`rows`: `most`/`least` h f32
 * each, r along the row at every other column; two boundaries per f64x2) when `rows` is 1, else between columns (w
 * f32 each, r down the column at every other row: the reference's runExtremes of the transposed picture, two
 * columns per f64x2; h ≥ 2 · RUN, as the search needs). `work`: the rows' residuals (ceil(w / 2) f32 pairs, whole
 * groups of four) or the columns' ring (RUN f32 pairs). Every lane does the reference's operations on its own boundary.
 */
export function toneRunExtremes(picture: usize, w: i32, h: i32, rows: i32, most: usize, least: usize, work: usize): void {
  const lines = rows ? h : w;
  memory.fill(most, 0, <usize>lines << 2);
  memory.fill(least, 0, <usize>lines << 2);
  const samples = ((rows ? w : h) + RUN_STEP - 1) / RUN_STEP;
  let k = 1;
  for (; k + 3 < lines; k += 2)
    if (rows) rowPairExtremes(picture, w, k, samples, work, most, least);
    else columnPairExtremes(picture, w, k, samples, work, most, least);
  for (; k + 2 < lines; k++)
    if (rows) rowExtremes(picture, w, k, samples, work, most, least);
    else columnExtremes(picture, w, k, samples, work, most, least);
}

/**
 * The tone box's candidate lines' prefix sums (tone-box.ts `prefixLine` is the reference): for each of `count`
 * boundaries k (i32 at `lines`) between rows k and k + 1 (`rows` 1; lines along x < w) or columns k and k + 1 (`rows`
 * 0; along y < h), the running sums of r (rounded to f32, as the reference), r², the pixels before and after the
 * boundary, in f64 in the reference's order, stored where `kept` (i32 per position 0 … length: its slot, −1 where
 * not kept) keeps position x + 1: out + ((line · slots + slot) · 4 + s) · 8, s = r, r², before, after. Two lines
 * per f64x2 (one per lane; an odd count's last line alone).
 */
export function toneLineSums(
  picture: usize,
  w: i32,
  h: i32,
  rows: i32,
  lines: usize,
  count: i32,
  kept: usize,
  slots: i32,
  out: usize,
): void {
  const length = rows ? w : h;
  // Pixel i of line k's row m (m = k − 1 … k + 2): picture + (m · across + i · along) · 4.
  const across = <usize>(rows ? w : 1) << 2;
  const along = <usize>(rows ? 1 : w) << 2;
  const lineBytes = <usize>slots << 5;
  let n = 0;
  for (; n + 1 < count; n += 2) {
    const k0 = load<i32>(lines + (<usize>n << 2));
    const k1 = load<i32>(lines + (<usize>n << 2), 4);
    const a0 = picture + <usize>(k0 - 1) * across;
    const a1 = picture + <usize>(k1 - 1) * across;
    const to0 = out + <usize>n * lineBytes;
    const to1 = to0 + lineBytes;
    let r = f64x2.splat(0);
    let r2 = f64x2.splat(0);
    let before = f64x2.splat(0);
    let after = f64x2.splat(0);
    for (let x = 0; x < length; x++) {
      const p0 = a0 + <usize>x * along;
      const p1 = a1 + <usize>x * along;
      const pa = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(p0)), 1, <f64>load<f32>(p1));
      const pb = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(p0 + across)), 1, <f64>load<f32>(p1 + across));
      const pc = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(p0 + 2 * across)), 1, <f64>load<f32>(p1 + 2 * across));
      const pd = f64x2.replace_lane(f64x2.splat(<f64>load<f32>(p0 + 3 * across)), 1, <f64>load<f32>(p1 + 3 * across));
      const v = residuals(pa, pb, pc, pd);
      r = f64x2.add(r, v);
      r2 = f64x2.add(r2, f64x2.mul(v, v));
      before = f64x2.add(before, pb);
      after = f64x2.add(after, pc);
      const slot = load<i32>(kept + (<usize>(x + 1) << 2));
      if (slot < 0) continue;
      const s = <usize>slot << 5;
      v128.store(to0 + s, i64x2.shuffle(r, r2, 0, 2));
      v128.store(to0 + s, i64x2.shuffle(before, after, 0, 2), 16);
      v128.store(to1 + s, i64x2.shuffle(r, r2, 1, 3));
      v128.store(to1 + s, i64x2.shuffle(before, after, 1, 3), 16);
    }
  }
  if (n < count) {
    const k = load<i32>(lines + (<usize>n << 2));
    const a = picture + <usize>(k - 1) * across;
    const to = out + <usize>n * lineBytes;
    let r: f64 = 0;
    let r2: f64 = 0;
    let before: f64 = 0;
    let after: f64 = 0;
    for (let x = 0; x < length; x++) {
      const p = a + <usize>x * along;
      const pb = <f64>load<f32>(p + across);
      const pc = <f64>load<f32>(p + 2 * across);
      const v = <f64>residual(<f64>load<f32>(p), pb, pc, <f64>load<f32>(p + 3 * across));
      r += v;
      r2 += v * v;
      before += pb;
      after += pc;
      const slot = load<i32>(kept + (<usize>(x + 1) << 2));
      if (slot < 0) continue;
      const s = to + (<usize>slot << 5);
      store<f64>(s, r);
      store<f64>(s, r2, 8);
      store<f64>(s, before, 16);
      store<f64>(s, after, 24);
    }
  }
}

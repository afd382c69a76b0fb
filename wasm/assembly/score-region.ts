// The region search of a per-block score map (ELA, noise, the fusion, double quantisation, ghosts, the grid):
// src/scanner/images/anomaly.ts `anomalyRegions` and region-map.ts `judgeRegions` (its count of judged blocks
// and `.filter(share <= maxShare)[0]`) are the JavaScript reference. Each region is grown with anomalyRegions'
// stack in its order (neighbours left, right, up, down), so that the score sum, an f64 added in pop order, is
// the reference's; the threshold test is the reference's comparison of the f32 score, as a double.

/**
 * The largest 4-connected region of the w × h f32 scores at `scores` that exceed `threshold`, among those
 * covering at most `maxShare` of the judged (not NaN) scores, the first found on equal size. `flags` (w·h
 * bytes, 1 = above the threshold and not yet in a region) and `stack` (w·h i32) are scratch. Writes the
 * region's x0, y0, x1, y1 (i32), its score sum (f64, at `out` + 16) and the count of judged scores (i32, at
 * `out` + 24) to `out`; returns the region's size (0: none).
 */
export function scoreTopRegion(
  scores: usize,
  w: i32,
  h: i32,
  threshold: f64,
  maxShare: f64,
  flags: usize,
  stack: usize,
  out: usize,
): i32 {
  const n = w * h;
  const judged = markAbove(scores, n, threshold, flags);
  store<i32>(out, judged, 24);
  let best = 0;
  let start = 0;
  while (start < n) {
    // Most blocks are not above the threshold: 16 flags at a time.
    if (start + 16 <= n && !v128.any_true(v128.load(flags + <usize>start))) {
      start += 16;
      continue;
    }
    if (!load<u8>(flags + <usize>start)) {
      start++;
      continue;
    }
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let count = 0;
    let sum: f64 = 0;
    store<u8>(flags + <usize>start, 0);
    store<i32>(stack, start);
    let top = 1;
    while (top) {
      const i = load<i32>(stack + <usize>(--top) * 4);
      const y = i / w;
      const x = i - y * w;
      count++;
      sum += <f64>load<f32>(scores + (<usize>i << 2));
      x0 = min(x0, x);
      y0 = min(y0, y);
      x1 = max(x1, x);
      y1 = max(y1, y);
      if (x > 0) top = push(flags, stack, top, i - 1);
      if (x < w - 1) top = push(flags, stack, top, i + 1);
      if (y > 0) top = push(flags, stack, top, i - w);
      if (y < h - 1) top = push(flags, stack, top, i + w);
    }
    // The reference's share: count / judged, a double (judged > 0 here: a score above the threshold is judged).
    if (<f64>count / <f64>judged <= maxShare && count > best) {
      best = count;
      store<i32>(out, x0);
      store<i32>(out, y0, 4);
      store<i32>(out, x1, 8);
      store<i32>(out, y1, 12);
      store<f64>(out, sum, 16);
    }
    start++;
  }
  return best;
}

/**
 * Flags (u8) the `n` scores above `threshold` (the f32 as a double, `>`: NaN never is) and counts the scores
 * that are not NaN, four per step.
 */
function markAbove(scores: usize, n: i32, threshold: f64, flags: usize): i32 {
  const limit = f64x2.splat(threshold);
  let judged = i32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const v = v128.load(scores + (<usize>i << 2));
    // An f32 lane equal to itself is not NaN: −1 per such lane, subtracted.
    judged = i32x4.sub(judged, f32x4.eq(v, v));
    const low = f64x2.gt(f64x2.promote_low_f32x4(v), limit);
    const high = f64x2.gt(f64x2.promote_low_f32x4(v128.shuffle<i32>(v, v, 2, 3, 0, 1)), limit);
    // Lanes of all ones (−1) narrowed to bytes 1: the four flags as one u32.
    const four = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(v128.shuffle<i32>(low, high, 0, 2, 4, 6), v128.splat<i32>(0)), v128.splat<i16>(0));
    store<u32>(flags + <usize>i, i32x4.extract_lane(i8x16.abs(four), 0));
  }
  let count =
    i32x4.extract_lane(judged, 0) + i32x4.extract_lane(judged, 1) + i32x4.extract_lane(judged, 2) + i32x4.extract_lane(judged, 3);
  for (; i < n; i++) {
    const v = load<f32>(scores + (<usize>i << 2));
    if (v == v) count++;
    store<u8>(flags + <usize>i, <f64>v > threshold ? 1 : 0);
  }
  return count;
}

/** Pushes position j when it is flagged (above the threshold, not in a region yet); the stack's new height. */
@inline function push(flags: usize, stack: usize, top: i32, j: i32): i32 {
  if (!load<u8>(flags + <usize>j)) return top;
  store<u8>(flags + <usize>j, 0);
  store<i32>(stack + <usize>top * 4, j);
  return top + 1;
}

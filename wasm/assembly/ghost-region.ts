// The ghost map's region search: src/scanner/forensics/ghost-map-reference.ts `referenceGhostVerdict` (its
// anomalyRegions search and `.find(share <= maxShare)`) is the JavaScript reference. The search runs on a
// normalised map's bytes, a byte's z-score looked up in a table of 256 f32 values, and grows each region
// with anomalyRegions' stack in its order (neighbours left, right, up, down), so that the score sum, an f64
// added in that order, is the reference's.

/**
 * The largest 4-connected region of the w × h bytes at `map` whose bytes are marked in `above` (256 u8),
 * among those covering at most `maxShare` of `judged` positions (the first found on equal size). `table`
 * (256 f32) gives each byte's z-score; `seen` (w·h bytes) and `stack` (w·h i32) are scratch. Writes the
 * region's x0, y0, x1, y1 (i32) and its score sum (f64, at `out` + 16) to `out`; returns its size (0: none).
 */
export function ghostTopRegion(
  map: usize,
  above: usize,
  table: usize,
  w: i32,
  h: i32,
  judged: f64,
  maxShare: f64,
  seen: usize,
  stack: usize,
  out: usize,
): i32 {
  const n = w * h;
  memory.fill(seen, 0, <usize>n);
  // The marked bytes as one interval [first, first + span] when they form one (a threshold on z-scores that
  // grow, or fall, with the byte: always, but the table is the caller's): 16 positions outside it skipped at a time.
  let first = 256;
  let last = -1;
  for (let v = 0; v < 256; v++)
    if (load<u8>(above + <usize>v)) {
      first = min(first, v);
      last = v;
    }
  let interval = last >= 0;
  for (let v = first; v < last; v++) interval = interval && load<u8>(above + <usize>v) != 0;
  const from = i8x16.splat(<i8>first);
  const span = i8x16.splat(<i8>(last - first));
  let best = 0;
  for (let start = 0; start < n; start++) {
    if (interval && (start & 15) == 0 && start + 16 <= n) {
      const inside = i8x16.le_u(i8x16.sub(v128.load(map + <usize>start), from), span);
      if (!v128.any_true(inside)) {
        start += 15;
        continue;
      }
    }
    // Few positions are above the threshold: that test first.
    if (!load<u8>(above + <usize>load<u8>(map + <usize>start)) || load<u8>(seen + <usize>start)) continue;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let count = 0;
    let sum: f64 = 0;
    store<u8>(seen + <usize>start, 1);
    store<i32>(stack, start);
    let top = 1;
    while (top) {
      const i = load<i32>(stack + <usize>(--top) * 4);
      const y = i / w;
      const x = i - y * w;
      count++;
      sum += <f64>load<f32>(table + (<usize>load<u8>(map + <usize>i) << 2));
      x0 = min(x0, x);
      y0 = min(y0, y);
      x1 = max(x1, x);
      y1 = max(y1, y);
      if (x > 0) top = push(map, above, seen, stack, top, i - 1);
      if (x < w - 1) top = push(map, above, seen, stack, top, i + 1);
      if (y > 0) top = push(map, above, seen, stack, top, i - w);
      if (y < h - 1) top = push(map, above, seen, stack, top, i + w);
    }
    if (<f64>count / judged <= maxShare && count > best) {
      best = count;
      store<i32>(out, x0);
      store<i32>(out, y0, 4);
      store<i32>(out, x1, 8);
      store<i32>(out, y1, 12);
      store<f64>(out, sum, 16);
    }
  }
  return best;
}

/** Pushes position j when it is above the threshold and not seen yet; the stack's new height. */
@inline function push(map: usize, above: usize, seen: usize, stack: usize, top: i32, j: i32): i32 {
  if (load<u8>(seen + <usize>j) || !load<u8>(above + <usize>load<u8>(map + <usize>j))) return top;
  store<u8>(seen + <usize>j, 1);
  store<i32>(stack + <usize>top * 4, j);
  return top + 1;
}

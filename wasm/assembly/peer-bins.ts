// The peer comparison of ELA and noise: src/scanner/images/anomaly.ts `relativeToPeers` (its `byCovariate`
// and `middleValue`) and `smoothGrid` are the JavaScript references. The bins' members and middle values are
// found here by the reference's selection, step for step; the log2 ratios stay in JavaScript (Math.log2 is not
// the same algorithm in every V8: Node 22's is FreeBSD's e_log2.c, workerd's gives other last bits).

/** Keys carry the block index in their low 21 bits (at most 781 250 blocks < 2^21). */
const INDEX_SCALE: f64 = 2097152;

/** a < b, with −0 before +0 (a typed array's sort order; only the fallback sort needs it). */
@inline function before<T>(a: T, b: T): bool {
  // 1 / −0 is −∞.
  return a < b || (a == 0 && b == 0 && 1 / <f64>a < 0 && 1 / <f64>b > 0);
}

/** Sifts base[root] down the heap of the first `end` elements (largest on top). */
function siftDown<T>(base: usize, root: i32, end: i32): void {
  const size = sizeof<T>();
  for (;;) {
    let child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && before<T>(load<T>(base + <usize>child * size), load<T>(base + <usize>(child + 1) * size)))
      child++;
    if (!before<T>(load<T>(base + <usize>root * size), load<T>(base + <usize>child * size))) return;
    swap<T>(base, root, child);
    root = child;
  }
}

/** Sorts a[from..to] ascending (a heap sort: the typed array sort's order of values, in n log n). */
function sortRange<T>(a: usize, from: i32, to: i32): void {
  const base = a + <usize>from * sizeof<T>();
  const n = to - from + 1;
  for (let k = (n >> 1) - 1; k >= 0; k--) siftDown<T>(base, k, n);
  for (let end = n - 1; end > 0; end--) {
    swap<T>(base, 0, end);
    siftDown<T>(base, 0, end);
  }
}

@inline function swap<T>(a: usize, x: i32, y: i32): void {
  const size = sizeof<T>();
  const t = load<T>(a + <usize>x * size);
  store<T>(a + <usize>x * size, load<T>(a + <usize>y * size));
  store<T>(a + <usize>y * size, t);
}

/** anomaly.ts `select`: a[k] gets the value a sort would put there (Hoare's selection, median-of-three pivot). */
function select<T>(a: usize, left: i32, right: i32, k: i32): void {
  const size = sizeof<T>();
  let l = left;
  let ir = right;
  for (let round = 0; ; round++) {
    if (ir <= l + 1) {
      if (ir == l + 1 && load<T>(a + <usize>ir * size) < load<T>(a + <usize>l * size)) swap<T>(a, l, ir);
      return;
    }
    if (round == 64) {
      sortRange<T>(a, l, ir);
      return;
    }
    swap<T>(a, (l + ir) >> 1, l + 1);
    if (load<T>(a + <usize>l * size) > load<T>(a + <usize>ir * size)) swap<T>(a, l, ir);
    if (load<T>(a + <usize>(l + 1) * size) > load<T>(a + <usize>ir * size)) swap<T>(a, l + 1, ir);
    if (load<T>(a + <usize>l * size) > load<T>(a + <usize>(l + 1) * size)) swap<T>(a, l, l + 1);
    let i = l + 1;
    let j = ir;
    const pivot = load<T>(a + <usize>(l + 1) * size);
    for (;;) {
      do i++;
      while (load<T>(a + <usize>i * size) < pivot);
      do j--;
      while (load<T>(a + <usize>j * size) > pivot);
      if (j < i) break;
      swap<T>(a, i, j);
    }
    store<T>(a + <usize>(l + 1) * size, load<T>(a + <usize>j * size));
    store<T>(a + <usize>j * size, pivot);
    if (j >= k) ir = j - 1;
    if (j <= k) l = i;
  }
}

/** Buckets of the covariate's top 16 ordered bits (sign, exponent, 7 mantissa bits): 1/128 of an octave each. */
export const PEER_BUCKETS: i32 = 65536;

/** The covariate's order-preserving bits (−0 as +0: they tie; negative floats all flipped, others the sign set). */
@inline function orderedBits(covariate: usize, i: i32): u32 {
  const b: u32 = load<f32>(covariate + <usize>i * 4) == 0 ? 0 : load<u32>(covariate + <usize>i * 4);
  return b & 0x80000000 ? ~b : b | 0x80000000;
}

/**
 * anomaly.ts `byCovariate`: the indices of the `count` reliable blocks (of `n`; `covariate` f32, `reliable`
 * u8) grouped into runs of `per` by covariate, ties by index (the same members per run as the reference's;
 * the order inside a run is of no concern, as there). The keys (ordered bits × 2^21 + index, f64, all
 * distinct) are first distributed into buckets of their top 16 bits by counting (`buckets`: PEER_BUCKETS + 1
 * u32 of scratch), so that a run boundary needs a selection only inside the bucket it falls in (by the
 * reference's `select`). `keys` holds count f64 during the call; the indices (u32) are written over its start.
 */
export function peerRuns(
  covariate: usize,
  reliable: usize,
  n: i32,
  count: i32,
  per: i32,
  keys: usize,
  buckets: usize,
): void {
  memory.fill(buckets, 0, <usize>(PEER_BUCKETS + 1) * 4);
  for (let i = 0; i < n; i++) {
    if (!load<u8>(reliable + <usize>i)) continue;
    const at = buckets + (<usize>(orderedBits(covariate, i) >>> 16) + 1) * 4;
    store<u32>(at, load<u32>(at) + 1);
  }
  // buckets[b] = where bucket b starts (then, after the distribution, where it ends).
  for (let b = 1; b <= PEER_BUCKETS; b++) {
    const at = buckets + <usize>b * 4;
    store<u32>(at, load<u32>(at) + load<u32>(at - 4));
  }
  for (let i = 0; i < n; i++) {
    if (!load<u8>(reliable + <usize>i)) continue;
    const ordered = orderedBits(covariate, i);
    const at = buckets + <usize>(ordered >>> 16) * 4;
    const k = load<u32>(at);
    store<u32>(at, k + 1);
    store<f64>(keys + <usize>k * 8, <f64>ordered * INDEX_SCALE + <f64>i);
  }
  // Now bucket b spans [end of b − 1, end of b). A boundary inside a bucket: select there, from the last boundary.
  let bucket = 0;
  let from = 0;
  for (let boundary = per; boundary < count; boundary += per) {
    while (<i32>load<u32>(buckets + <usize>bucket * 4) <= boundary) bucket++;
    const start = bucket == 0 ? 0 : <i32>load<u32>(buckets + <usize>(bucket - 1) * 4);
    if (start == boundary) continue;
    from = max(from, start);
    select<f64>(keys, from, <i32>load<u32>(buckets + <usize>bucket * 4) - 1, boundary);
    from = boundary;
  }
  // In place: index k's u32 lies at or before key k's f64, which is read first.
  for (let j = 0; j < count; j++)
    store<u32>(keys + <usize>j * 4, <u32>(<i64>load<f64>(keys + <usize>j * 8) & (<i64>INDEX_SCALE - 1)));
}

/**
 * anomaly.ts `middleValue` for each of the `bins` runs of `per` indices (the last may be shorter; `count` in
 * all) at `runs`: the value a sort would put in the middle of the run's values (f32 at `values`), as f64 into
 * `out` (NaN for an empty run), and each member's run + 1 into its byte of `runOf` (bins ≤ 255; the caller
 * takes the ratios in block order from there). `scratch` holds `per` f32. NaN values: as the sort, which puts
 * them last.
 */
export function peerMiddles(
  values: usize,
  runs: usize,
  count: i32,
  per: i32,
  bins: i32,
  scratch: usize,
  out: usize,
  runOf: usize,
): void {
  for (let b = 0; b < bins; b++) {
    const from = b * per;
    const length = min(count, from + per) - from;
    if (length <= 0) {
      store<f64>(out + <usize>b * 8, NaN);
      continue;
    }
    for (let k = 0; k < length; k++) store<u8>(runOf + <usize>load<u32>(runs + <usize>(from + k) * 4), <u8>(b + 1));
    // The non-NaN values first; the middle is NaN when it falls among the NaNs a sort puts last.
    let m = 0;
    for (let k = 0; k < length; k++) {
      const v = load<f32>(values + <usize>load<u32>(runs + <usize>(from + k) * 4) * 4);
      if (v != v) continue;
      store<f32>(scratch + <usize>m * 4, v);
      m++;
    }
    const middle = length >> 1;
    if (middle >= m) {
      store<f64>(out + <usize>b * 8, NaN);
      continue;
    }
    select<f32>(scratch, 0, m - 1, middle);
    store<f64>(out + <usize>b * 8, <f64>load<f32>(scratch + <usize>middle * 4));
  }
}

/** The scalar window mean at (x, y) into `at` (NaN when fewer than `need` values are there). */
@inline function smoothOne(values: usize, w: i32, h: i32, radius: i32, need: i32, x: i32, y: i32, at: usize): void {
  let s: f64 = 0;
  let n = 0;
  const x0 = max(0, x - radius);
  const x1 = min(w - 1, x + radius);
  for (let yy = max(0, y - radius); yy <= min(h - 1, y + radius); yy++) {
    const line = values + <usize>(yy * w) * 4;
    for (let xx = x0; xx <= x1; xx++) {
      const v = load<f32>(line + <usize>xx * 4);
      if (v == v) {
        s += <f64>v;
        n++;
      }
    }
  }
  store<f32>(at, n >= need ? <f32>(s / <f64>n) : NaN);
}

/**
 * anomaly.ts `smoothGrid`: per non-NaN value of the w × h grid (f32 at `values`) the mean of the non-NaN
 * values in its (2·radius + 1)² window, summed in f64 in the reference's order, as f32 into `out` where at
 * least `need` are there, NaN elsewhere. Away from the left and right edges two positions at a time (one per
 * f64x2 lane, each lane its own window in the reference's order; a NaN adds +0 instead, which leaves a sum
 * from +0 as it is).
 */
export function smoothGrid(values: usize, w: i32, h: i32, radius: i32, need: i32, out: usize): void {
  const one = i64x2.splat(1);
  for (let y = 0; y < h; y++) {
    const top = max(0, y - radius);
    const bottom = min(h - 1, y + radius);
    for (let x = 0; x < w; x++) {
      const at = out + <usize>(y * w + x) * 4;
      if (x >= radius && x + 1 + radius < w) {
        // Positions x and x + 1.
        let s = f64x2.splat(0);
        let n = i64x2.splat(0);
        for (let yy = top; yy <= bottom; yy++) {
          const line = values + <usize>(yy * w + x - radius) * 4;
          for (let d = 0; d <= 2 * radius; d++) {
            const v = f64x2.promote_low_f32x4(v128.load64_zero(line + <usize>d * 4));
            const present = f64x2.eq(v, v);
            s = f64x2.add(s, v128.and(v, present));
            n = i64x2.add(n, v128.and(present, one));
          }
        }
        const mean = f32x4.demote_f64x2_zero(f64x2.div(s, f64x2.convert_low_i32x4_s(i32x4.shuffle(n, n, 0, 2, 0, 2))));
        const centre = load<u64>(values + <usize>(y * w + x) * 4);
        const first = <f32>reinterpret<f32>(<u32>centre);
        const second = <f32>reinterpret<f32>(<u32>(centre >> 32));
        store<f32>(at, first == first && i64x2.extract_lane(n, 0) >= need ? f32x4.extract_lane(mean, 0) : NaN);
        store<f32>(at, second == second && i64x2.extract_lane(n, 1) >= need ? f32x4.extract_lane(mean, 1) : NaN, 4);
        x++;
        continue;
      }
      const centre = load<f32>(values + <usize>(y * w + x) * 4);
      if (centre == centre) smoothOne(values, w, h, radius, need, x, y, at);
      else store<f32>(at, NaN);
    }
  }
}


/**
 * Turning a per-block measurement into "which region is out of line with the rest": compare each
 * block with what the image's own blocks of similar kind (same texture or brightness) show,
 * smooth, and find connected regions that stand out. Shared by the ELA and noise detectors.
 */

/** A connected region of blocks that stands out. Coordinates in blocks. */
export interface AnomalyRegion {
  blocks: number;
  /** Share of the reliable blocks. */
  share: number;
  meanScore: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * log2(value / typical value of blocks with a similar covariate), where "typical" is the median
 * in the covariate's quantile bin. Unreliable blocks get NaN.
 */
export function relativeToPeers(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
  bins = 12,
  floor = 0.05,
): Float32Array {
  // Typed arrays throughout: this runs on ≈ 375 000 blocks for 24 MP and must not churn the heap.
  let count = 0;
  for (let i = 0; i < reliable.length; i++) if (reliable[i]) count++;
  const out = new Float32Array(values.length).fill(NaN);
  if (count < bins * 4) return out;
  const per = Math.ceil(count / bins);
  const idx = byCovariate(covariate, reliable, count, per);
  const scratch = new Float32Array(per);
  for (let b = 0; b < bins; b++) {
    const members = idx.subarray(b * per, Math.min(count, (b + 1) * per));
    if (!members.length) continue;
    const median = Math.max(floor, middleValue(values, members, scratch.subarray(0, members.length)));
    for (const i of members) out[i] = Math.log2(Math.max(floor, values[i]) / median);
  }
  return out;
}

/**
 * The value a sort would put in the middle (index length >> 1) of the members' values, by selection
 * instead of a sort (the same value; −0 and +0 may swap, which the caller's Math.max with a positive
 * floor does not see). NaN values fall back to the sort, which puts them last.
 */
function middleValue(values: Float32Array, members: Uint32Array, scratch: Float32Array): number {
  let nan = false;
  for (let k = 0; k < members.length; k++) nan = Number.isNaN((scratch[k] = values[members[k]])) || nan;
  if (nan) return scratch.sort()[scratch.length >> 1];
  select(scratch, 0, scratch.length - 1, scratch.length >> 1);
  return scratch[scratch.length >> 1];
}

/**
 * Rearranges a[left..right] so that a[k] holds the value a sort would put there, smaller or equal
 * values before it and greater or equal after (Hoare's selection, median-of-three pivot; as
 * Numerical Recipes' `select`). No NaN (a sort would order them, `<` does not).
 */
function select(a: Float32Array | Float64Array, left: number, right: number, k: number): void {
  let l = left;
  let ir = right;
  const swap = (x: number, y: number) => {
    const t = a[x];
    a[x] = a[y];
    a[y] = t;
  };
  // A crafted picture could make the pivots bad every time (quadratic time): after 64 rounds the
  // rest of the range is sorted, which puts a[k] in place just the same.
  for (let round = 0; ; round++) {
    if (ir <= l + 1) {
      if (ir === l + 1 && a[ir] < a[l]) swap(l, ir);
      return;
    }
    if (round === 64) {
      a.subarray(l, ir + 1).sort();
      return;
    }
    swap((l + ir) >> 1, l + 1);
    if (a[l] > a[ir]) swap(l, ir);
    if (a[l + 1] > a[ir]) swap(l + 1, ir);
    if (a[l] > a[l + 1]) swap(l, l + 1);
    let i = l + 1;
    let j = ir;
    const pivot = a[l + 1];
    for (;;) {
      do i++;
      while (a[i] < pivot);
      do j--;
      while (a[j] > pivot);
      if (j < i) break;
      swap(i, j);
    }
    a[l + 1] = a[j];
    a[j] = pivot;
    if (j >= k) ir = j - 1;
    if (j <= k) l = i;
  }
}

const bits = new Uint32Array(1);
const asFloat = new Float32Array(bits.buffer);

/**
 * Indices of the reliable blocks grouped into runs of `per` by covariate, ties by index: each run
 * holds the members a stable comparator sort on `covariate[a] - covariate[b]` would put there (in
 * no particular order inside the run: only membership matters to the caller). Keys are packed
 * (order-preserving bits of the float32 value × 2^21 + index, exact in a double, all distinct) and
 * the run boundaries found by selection instead of a sort. Sizes up to
 * MAX_BLOCK_MAP_PIXELS / 64 = 781 250 blocks < 2^21.
 */
function byCovariate(covariate: Float32Array, reliable: Uint8Array, count: number, per: number): Uint32Array {
  const keys = new Float64Array(count);
  for (let i = 0, k = 0; i < reliable.length; i++) {
    if (!reliable[i]) continue;
    asFloat[0] = covariate[i] === 0 ? 0 : covariate[i]; // −0 ties with +0, as in the comparator
    // Negative floats: all bits flipped; positive: sign bit set. Unsigned order = numeric order.
    const b = bits[0];
    const ordered = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
    keys[k++] = ordered * 2097152 + i;
  }
  for (let boundary = per; boundary < count; boundary += per) select(keys, boundary - per, count - 1, boundary);
  const idx = new Uint32Array(count);
  for (let k = 0; k < count; k++) idx[k] = keys[k] % 2097152;
  return idx;
}

/** Mean of the non-NaN values in a (2r+1)² window (NaN where the window has too few). */
export function smoothGrid(values: Float32Array, w: number, h: number, radius: number): Float32Array {
  const out = new Float32Array(values.length).fill(NaN);
  const need = Math.max(1, Math.floor((2 * radius + 1) ** 2 / 3));
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (Number.isNaN(values[y * w + x])) continue;
      let s = 0;
      let n = 0;
      for (let dy = -radius; dy <= radius; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -radius; dx <= radius; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const v = values[yy * w + xx];
          if (!Number.isNaN(v)) {
            s += v;
            n++;
          }
        }
      }
      if (n >= need) out[y * w + x] = s / n;
    }
  return out;
}

/** Connected (4-neighbour) regions of blocks whose score exceeds `threshold`, largest first. */
export function anomalyRegions(scores: Float32Array, w: number, h: number, threshold: number): AnomalyRegion[] {
  const seen = new Uint8Array(scores.length);
  let reliable = 0;
  for (const v of scores) if (!Number.isNaN(v)) reliable++;
  const regions: AnomalyRegion[] = [];
  const stack: number[] = [];
  for (let start = 0; start < scores.length; start++) {
    if (seen[start] || !(scores[start] > threshold)) continue;
    let count = 0;
    let sum = 0;
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const i = stack.pop() as number;
      const x = i % w;
      const y = (i / w) | 0;
      count++;
      sum += scores[i];
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
        if (j < 0 || seen[j] || !(scores[j] > threshold)) continue;
        seen[j] = 1;
        stack.push(j);
      }
    }
    regions.push({
      blocks: count,
      share: reliable ? count / reliable : 0,
      meanScore: sum / count,
      x: x0,
      y: y0,
      width: x1 - x0 + 1,
      height: y1 - y0 + 1,
    });
  }
  return regions.sort((a, b) => b.blocks - a.blocks);
}

/** The judged (not NaN) scores of a map, and its largest region covering at most `maxShare` of them. */
export interface TopAnomalyRegion {
  judged: number;
  region: AnomalyRegion | null;
}

/**
 * What region-map.ts `judgeRegions` takes from a map: its judged scores and its largest region within
 * `maxShare` (the first of equal size, as the stable sort of anomalyRegions leaves them); the reference of
 * score-region-wasm.ts `topAnomalyRegionWasm`.
 */
export function topAnomalyRegion(
  scores: Float32Array,
  w: number,
  h: number,
  threshold: number,
  maxShare: number,
): TopAnomalyRegion {
  let judged = 0;
  for (const v of scores) if (!Number.isNaN(v)) judged++;
  const region = anomalyRegions(scores, w, h, threshold).find((r) => r.share <= maxShare) ?? null;
  return { judged, region };
}

/** Maps log-ratio scores to 0–1 for drawing (0 at or below zero, 1 at `full`). */
export function toUnit(scores: Float32Array, full: number): { scores: Float32Array; reliable: Uint8Array } {
  const unit = new Float32Array(scores.length);
  const reliable = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) {
    if (Number.isNaN(scores[i])) continue;
    reliable[i] = 1;
    unit[i] = Math.min(1, Math.max(0, scores[i] / full));
  }
  return { scores: unit, reliable };
}

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
  const idx = byCovariate(covariate, reliable, count);
  const per = Math.ceil(count / bins);
  const scratch = new Float32Array(per);
  for (let b = 0; b < bins; b++) {
    const members = idx.subarray(b * per, Math.min(count, (b + 1) * per));
    if (!members.length) continue;
    const sorted = scratch.subarray(0, members.length);
    for (let k = 0; k < members.length; k++) sorted[k] = values[members[k]];
    sorted.sort();
    const median = Math.max(floor, sorted[sorted.length >> 1]);
    for (const i of members) out[i] = Math.log2(Math.max(floor, values[i]) / median);
  }
  return out;
}

const bits = new Uint32Array(1);
const asFloat = new Float32Array(bits.buffer);

/**
 * Indices of the reliable blocks ordered by covariate, ties by index: what a stable comparator sort
 * on `covariate[a] - covariate[b]` gives, but as one numeric sort of packed keys (order-preserving
 * bits of the float32 value × 2^21 + index, exact in a double) instead of ≈ n·log n comparator
 * calls. Sizes up to MAX_BLOCK_MAP_PIXELS / 64 = 781 250 blocks < 2^21.
 */
function byCovariate(covariate: Float32Array, reliable: Uint8Array, count: number): Uint32Array {
  const keys = new Float64Array(count);
  for (let i = 0, k = 0; i < reliable.length; i++) {
    if (!reliable[i]) continue;
    asFloat[0] = covariate[i] === 0 ? 0 : covariate[i]; // −0 ties with +0, as in the comparator
    // Negative floats: all bits flipped; positive: sign bit set. Unsigned order = numeric order.
    const b = bits[0];
    const ordered = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
    keys[k++] = ordered * 2097152 + i;
  }
  keys.sort();
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

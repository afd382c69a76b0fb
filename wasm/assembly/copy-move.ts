// Block descriptions of the copy-move search: src/scanner/images/block-matching.ts `features` is
// the JavaScript reference. For each overlapping 8×8 block of one grid row: the pixel standard
// deviation (sums in the reference's order, the pixels are not integers here), and for blocks
// that are not flat the first 16 zig-zag coefficients of the forward DCT of dct.ts, halved. Only
// the DCT terms those 16 need are computed, each with the reference's operations in its order, so
// the values are bit-identical.
import { COS, COST } from "./block-measure";

const BLOCK = memory.data(64 * 8, 16);
/** Row pass: ROWS[y*8+u] = Σx COS[u*8+x]·block[y*8+x], for u < 6 (the 16 zig-zag terms use u ≤ 5). */
const ROWS = memory.data(64 * 8, 16);
/** Column pass (natural order, only the entries below are written). */
const OUT = memory.data(64 * 8, 16);
/** Zig-zag positions 0–15 in natural order (jpeg-markers.ts ZIGZAG). */
const ZIGZAG16: StaticArray<i32> = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5];

@inline function at(base: usize, i: i32): usize {
  return base + <usize>i * 8;
}

/** OUT[v*8+u..u+1] = Σy COS[v*8+y]·ROWS[y*8+u..u+1] (dct.ts forwardDct's column pass, two u at a time). */
@inline function column(v: i32, u: i32): void {
  let s = f64x2.splat(0);
  for (let y = 0; y < 8; y++)
    s = f64x2.add(s, f64x2.mul(f64x2.splat(load<f64>(at(COS, v * 8 + y))), v128.load(at(ROWS, y * 8 + u))));
  v128.store(at(OUT, v * 8 + u), s);
}

/**
 * One grid row: blocks at x = g·stride (g < count) of 8 lines of `width` f32 samples at `lines`.
 * Writes judged[g] (1 = not flat) and, for each judged block in order, 16 f32 features at `features`
 * and their 16 i32 sort keys (block-matching.ts: Math.round(feature / 4)) at `keys`.
 * Returns how many blocks were judged. Needs setBlockConstants first.
 */
export function copyMoveRow(
  lines: usize,
  width: i32,
  count: i32,
  stride: i32,
  minStd: f64,
  features: usize,
  judged: usize,
  keys: usize,
): i32 {
  let n = 0;
  for (let g = 0; g < count; g++) {
    const x0 = g * stride;
    let sum: f64 = 0;
    let sq: f64 = 0;
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 8; x++) {
        const v = <f64>load<f32>(lines + (<usize>(y * width + x0 + x) << 2));
        store<f64>(at(BLOCK, y * 8 + x), v - 128);
        sum += v;
        sq += v * v;
      }
    const mean = sum / 64;
    const std = Math.sqrt(Math.max(0, sq / 64 - mean * mean));
    if (std < minStd) {
      store<u8>(judged + <usize>g, 0);
      continue;
    }
    store<u8>(judged + <usize>g, 1);
    for (let y = 0; y < 8; y++)
      for (let u = 0; u < 6; u += 2) {
        let s = f64x2.splat(0);
        for (let x = 0; x < 8; x++)
          s = f64x2.add(s, f64x2.mul(v128.load(at(COST, x * 8 + u)), f64x2.splat(load<f64>(at(BLOCK, y * 8 + x)))));
        v128.store(at(ROWS, y * 8 + u), s);
      }
    column(0, 0);
    column(0, 2);
    column(0, 4);
    column(1, 0);
    column(1, 2);
    column(2, 0);
    column(2, 2);
    column(3, 0);
    column(4, 0);
    const out = features + <usize>n * 64;
    const key = keys + <usize>n * 64;
    for (let k = 0; k < 16; k++) {
      const feature = <f32>(load<f64>(at(OUT, unchecked(ZIGZAG16[k]))) / 2);
      store<f32>(out + <usize>k * 4, feature);
      // The sort key Math.round(feature / 4): x + 0.5 is exact for an f32 / 4 of magnitude ≥ 0.25, and
      // below that floor gives 0 as Math.round does (−0 and 0 are the same i32).
      store<i32>(key + <usize>k * 4, <i32>Math.floor(<f64>feature / 4 + 0.5));
    }
    n++;
  }
  return n;
}

/**
 * Candidate pairs of the copy-move search: block-matching.ts `closePairs` is the reference, with its
 * arithmetic (f64 differences of the f32 features, squared and summed in order, stopping once over
 * the limit). `feat` holds `count` blocks × 16 f32 in sorted order; for every block a < `first`
 * and each of the next `ahead` blocks b, (a, b) is written to `out` (two i32) when the squared
 * distance is at most `limit`. Returns how many pairs.
 */
export function closeFeaturePairs(feat: usize, count: i32, first: i32, ahead: i32, limit: f64, out: usize): i32 {
  let n = 0;
  for (let a = 0; a < first; a++) {
    const fa = feat + <usize>a * 64;
    const last = min(count, a + 1 + ahead);
    for (let b = a + 1; b < last; b++) {
      const fb = feat + <usize>b * 64;
      let d2: f64 = 0;
      for (let k = 0; k < 16 && d2 <= limit; k++) {
        const d = <f64>load<f32>(fa + (<usize>k << 2)) - <f64>load<f32>(fb + (<usize>k << 2));
        d2 += d * d;
      }
      if (d2 > limit) continue;
      store<i32>(out + (<usize>n << 3), a);
      store<i32>(out + (<usize>n << 3) + 4, b);
      n++;
    }
  }
  return n;
}

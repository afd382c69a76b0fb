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

/**
 * One-pixel steps of the `w` × `h` f32 picture as seam-search.ts `stepCounts`: across vertical boundaries along the
 * rows 0, 2, 4, … (`vertical`: lines w − 1, ceil(h / 2) samples) and across horizontal ones along the columns 0, 2,
 * 4, … (`horizontal`: lines h − 1, ceil(w / 2) samples; the reference's stepCounts of the transposed picture), each
 * (samples + 1) × lines u16. `work` holds 3 × ceil(w / 2) f64.
 */
export function seamStepCounts(picture: usize, w: i32, h: i32, vertical: usize, horizontal: usize, work: usize): void {
  let lines = w - 1;
  let samples = (h + SAMPLE - 1) / SAMPLE;
  memory.fill(vertical, 0, <usize>((samples + 1) * lines) << 1);
  for (let j = 0; j < samples; j++) {
    const row = rowAt(picture, w, j * SAMPLE);
    const above = vertical + (<usize>(j * lines) << 1);
    const here = above + (<usize>lines << 1);
    let prev = Math.abs(px(row, 1) - px(row, 0));
    let cur = Math.abs(px(row, 2) - px(row, 1));
    for (let k = 1; k < lines - 1; k++) {
      const next = Math.abs(px(row, k + 2) - px(row, k + 1));
      const o = <usize>k << 1;
      store<u16>(here + o, <u16>(<i32>load<u16>(above + o) + isStep(prev, cur, next)));
      prev = cur;
      cur = next;
    }
  }
  // Horizontal boundaries k (rows k and k + 1) at the sampled columns: the differences of three row pairs rolled.
  lines = h - 1;
  samples = (w + SAMPLE - 1) / SAMPLE;
  memory.fill(horizontal, 0, <usize>((samples + 1) * lines) << 1);
  const sampled = <usize>samples << 3;
  let prevD = work;
  let curD = work + sampled;
  let nextD = work + 2 * sampled;
  for (let j = 0; j < samples; j++) {
    const x = j * SAMPLE;
    store<f64>(prevD + (<usize>j << 3), Math.abs(px(rowAt(picture, w, 1), x) - px(rowAt(picture, w, 0), x)));
    store<f64>(curD + (<usize>j << 3), Math.abs(px(rowAt(picture, w, 2), x) - px(rowAt(picture, w, 1), x)));
  }
  for (let k = 1; k < lines - 1; k++) {
    const lower = rowAt(picture, w, k + 1);
    const below = rowAt(picture, w, k + 2);
    for (let j = 0; j < samples; j++) {
      const x = j * SAMPLE;
      const d = <usize>j << 3;
      const next = Math.abs(px(below, x) - px(lower, x));
      store<f64>(nextD + d, next);
      const mark = isStep(load<f64>(prevD + d), load<f64>(curD + d), next);
      const above = horizontal + (<usize>(j * lines + k) << 1);
      store<u16>(above + (<usize>lines << 1), <u16>(<i32>load<u16>(above) + mark));
    }
    const done = prevD;
    prevD = curD;
    curD = nextD;
    nextD = done;
  }
}

/** The step residual r of tone-box.ts at one pixel: the boundary between b and c, a before b, d after c (f32). */
@inline function residual(a: f64, b: f64, c: f64, d: f64): f32 {
  return <f32>(c - b - 0.5 * (b - a + d - c));
}

/** t · |t| of a run from its sums (runExtremes' q). */
@inline function signedSquare(s1: f64, s2: f64): f64 {
  const n = <f64>RUN;
  const mean = s1 / n;
  return (mean * Math.abs(mean) * n) / max(s2 / n - mean * mean, 1e-6);
}

/** Math.sign(v) · √|v| as runExtremes stores it (±0 and NaN kept). */
@inline function signedRoot(v: f64): f32 {
  const sign: f64 = v > 0 ? 1 : v < 0 ? -1 : v;
  return <f32>(sign * Math.sqrt(Math.abs(v)));
}

/**
 * tone-box.ts `runExtremes` of the `w` × `h` f32 picture: boundaries between rows (`rows`: `most`/`least` h f32
 * each, r along the row at every other column) when `rows` is 1, else between columns (w f32 each, r down the
 * column at every other row: the reference's runExtremes of the transposed picture; each column's sums, extremes
 * and its last RUN residuals in `work`, 4 · RUN + 32 bytes per column; h ≥ 2 · RUN, as the search needs).
 */
export function toneRunExtremes(picture: usize, w: i32, h: i32, rows: i32, most: usize, least: usize, work: usize): void {
  if (rows) {
    memory.fill(most, 0, <usize>h << 2);
    memory.fill(least, 0, <usize>h << 2);
    const samples = (w + RUN_STEP - 1) / RUN_STEP;
    const r = work;
    for (let k = 1; k + 2 < h; k++) {
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
    return;
  }
  memory.fill(most, 0, <usize>w << 2);
  memory.fill(least, 0, <usize>w << 2);
  const samples = (h + RUN_STEP - 1) / RUN_STEP;
  const columnBytes = <usize>w << 3;
  const sums = work;
  const squares = sums + columnBytes;
  const his = squares + columnBytes;
  const los = his + columnBytes;
  const ring = los + columnBytes;
  for (let i = 0; i < samples; i++) {
    const row = rowAt(picture, w, i * RUN_STEP);
    const slot = ring + (<usize>((i % RUN) * w) << 2);
    for (let k = 1; k + 2 < w; k++) {
      const v = residual(px(row, k - 1), px(row, k), px(row, k + 1), px(row, k + 2));
      const o = <usize>k << 3;
      const held = slot + (<usize>k << 2);
      let s1: f64 = i == 0 ? 0 : load<f64>(sums + o);
      let s2: f64 = i == 0 ? 0 : load<f64>(squares + o);
      const into = <f64>v;
      if (i < RUN) {
        s1 += into;
        s2 += into * into;
      } else {
        const out = <f64>load<f32>(held);
        s1 += into - out;
        s2 += into * into - out * out;
      }
      store<f32>(held, v);
      store<f64>(sums + o, s1);
      store<f64>(squares + o, s2);
      if (i + 1 < RUN) continue;
      const q = signedSquare(s1, s2);
      const hi = i + 1 == RUN ? -Infinity : load<f64>(his + o);
      const lo = i + 1 == RUN ? Infinity : load<f64>(los + o);
      store<f64>(his + o, q > hi ? q : hi);
      store<f64>(los + o, q < lo ? q : lo);
    }
  }
  for (let k = 1; k + 2 < w; k++) {
    const o = <usize>k << 3;
    store<f32>(most + (<usize>k << 2), signedRoot(load<f64>(his + o)));
    store<f32>(least + (<usize>k << 2), signedRoot(load<f64>(los + o)));
  }
}

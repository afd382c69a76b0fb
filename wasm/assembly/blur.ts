// The blurred-rectangle search's per-pixel work (src/scanner/forensics/blur-search.ts `stepCounts` of
// `sideMeans`, and `runMaxima`), value for value: the three 5 × 5 box means (fine detail, coarse
// structure, brightness) are made row by row with the reference's f64 operations in its order, kept in rings of
// eight rows (no full-size map), and every sampled position's sharpness step is marked into the prefix counts as
// soon as both its windows' rows exist. The constants are blur-search.ts's.

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

// The four box means (id 0: g, the 9 × 9 mean of the picture; 1: fine detail; 2: coarse structure; 3:
// brightness): their radius, their input (0: the picture, 1: fine-detail rows, 2: coarse-structure rows), their
// f64 column sums and their next output row. No objects: the module's runtime never frees (`--runtime stub`).
const G_BOX = 0;
const FINE_BOX = 1;
const COARSE_BOX = 2;
const BRIGHT_BOX = 3;
let columnSums: usize = 0;
let nextRows: usize = 0;

@inline function radiusOf(box: i32): i32 {
  return box == G_BOX ? 4 : 2;
}

@inline function inputOf(box: i32): i32 {
  return box == FINE_BOX ? 1 : box == COARSE_BOX ? 2 : 0;
}

@inline function columnsOf(box: i32): usize {
  return columnSums + (<usize>(box * width) << 3);
}

// Lazily computed input rows: fine detail (|Laplacian|), the 9 × 9 box mean g, the coarse structure of g.
let fineRing: usize = 0;
let fineDone: i32 = 0;
let gRing: usize = 0;
let coarseRing: usize = 0;
let coarseDone: i32 = 0;

/** Row y of the box's input (computed when not yet). */
function inputRow(kind: i32, y: i32): usize {
  if (kind == 0) return src + (<usize>(y * width) << 2);
  if (kind == 1) {
    while (fineDone <= y) fineRow(fineDone++);
    return ringRow(fineRing, y);
  }
  while (coarseDone <= y) coarseRow(coarseDone++);
  return ringRow(coarseRing, y);
}

/** |4-neighbour Laplacian| of row y's inner pixels (0 on the border), as fineDetail. */
function fineRow(y: i32): void {
  const out = ringRow(fineRing, y);
  memory.fill(out, 0, <usize>width << 2);
  if (y < 1 || y >= height - 1) return;
  const row = src + (<usize>(y * width) << 2);
  const up = row - (<usize>width << 2);
  const down = row + (<usize>width << 2);
  for (let x = 1; x < width - 1; x++) {
    const v =
      4 * <f64>load<f32>(at(row, x)) -
      <f64>load<f32>(at(row, x - 1)) -
      <f64>load<f32>(at(row, x + 1)) -
      <f64>load<f32>(at(up, x)) -
      <f64>load<f32>(at(down, x));
    store<f32>(at(out, x), <f32>Math.abs(v));
  }
}

/** Gradient of g on row y (coarseStructure: rows 2 … height − 3, columns 2 … width − 3; else 0). */
function coarseRow(y: i32): void {
  const out = ringRow(coarseRing, y);
  memory.fill(out, 0, <usize>width << 2);
  if (y < 2 || y >= height - 2) return;
  while (load<i32>(nextRows) <= y + 2) boxRow(G_BOX, ringRow(gRing, load<i32>(nextRows)));
  const g = ringRow(gRing, y);
  const up = ringRow(gRing, y - 2);
  const down = ringRow(gRing, y + 2);
  for (let x = 2; x < width - 2; x++) {
    const v =
      2 *
      (Math.abs(<f64>load<f32>(at(g, x + 2)) - <f64>load<f32>(at(g, x - 2))) +
        Math.abs(<f64>load<f32>(at(down, x)) - <f64>load<f32>(at(up, x))));
    store<f32>(at(out, x), <f32>v);
  }
}

/** Starts a box mean (boxMean's first column sums: its input's rows −r … r, clamped, added in order). */
function startBox(box: i32): void {
  const columns = columnsOf(box);
  const r = radiusOf(box);
  memory.fill(columns, 0, <usize>width << 3);
  store<i32>(nextRows + (<usize>box << 2), 0);
  for (let y = -r; y <= r; y++) {
    const row = inputRow(inputOf(box), clampRow(y));
    for (let x = 0; x < width; x++) {
      const c = columns + (<usize>x << 3);
      store<f64>(c, load<f64>(c) + <f64>load<f32>(at(row, x)));
    }
  }
}

/**
 * The box's next output row into `out` (f32), then its column sums moved down one row, as boxMean. With `evenOnly`
 * only the even columns are stored (with SAMPLE 2 the means of odd rows are read there only: no division for the
 * others).
 */
function boxRow(box: i32, out: usize, evenOnly: bool = false): void {
  const r = radiusOf(box);
  const columns = columnsOf(box);
  const n = <f64>((2 * r + 1) * (2 * r + 1));
  const last = width - 1;
  let sum: f64 = 0;
  for (let x = -r; x <= r; x++) sum += load<f64>(columns + (<usize>(x < 0 ? 0 : min(x, last)) << 3));
  // Clamped column indices only near the ends: the same sums in the same order.
  const inner = min(max(r, 0), width);
  const innerEnd = max(last - r, inner);
  let x = 0;
  for (; x < inner; x++) {
    store<f32>(at(out, x), <f32>(sum / n));
    sum += load<f64>(columns + (<usize>min(x + r + 1, last) << 3)) - load<f64>(columns + (<usize>max(x - r, 0) << 3));
  }
  if (evenOnly)
    for (; x < innerEnd; x++) {
      if ((x & 1) == 0) store<f32>(at(out, x), <f32>(sum / n));
      sum += load<f64>(columns + (<usize>(x + r + 1) << 3)) - load<f64>(columns + (<usize>(x - r) << 3));
    }
  else
    for (; x < innerEnd; x++) {
      store<f32>(at(out, x), <f32>(sum / n));
      sum += load<f64>(columns + (<usize>(x + r + 1) << 3)) - load<f64>(columns + (<usize>(x - r) << 3));
    }
  for (; x < width; x++) {
    store<f32>(at(out, x), <f32>(sum / n));
    sum += load<f64>(columns + (<usize>min(x + r + 1, last) << 3)) - load<f64>(columns + (<usize>max(x - r, 0) << 3));
  }
  const next = nextRows + (<usize>box << 2);
  const y = load<i32>(next);
  store<i32>(next, y + 1);
  const add = inputRow(inputOf(box), clampRow(y + r + 1));
  const drop = inputRow(inputOf(box), clampRow(y - r));
  // Two columns per f64x2: each lane column + (add − drop) in f64, as the scalar sums.
  let i = 0;
  for (; i + 2 <= width; i += 2) {
    const c = columns + (<usize>i << 3);
    const a = f64x2.promote_low_f32x4(v128.load64_zero(at(add, i)));
    const d = f64x2.promote_low_f32x4(v128.load64_zero(at(drop, i)));
    v128.store(c, f64x2.add(v128.load(c), f64x2.sub(a, d)));
  }
  for (; i < width; i++) {
    const c = columns + (<usize>i << 3);
    store<f64>(c, load<f64>(c) + (<f64>load<f32>(at(add, i)) - <f64>load<f32>(at(drop, i))));
  }
}

// The three means' rings (row y at slot y % RING).
let fineMeans: usize = 0;
let coarseMeans: usize = 0;
let brightMeans: usize = 0;

/** stepAt: +1 when the side at `a` is sharp and `b` blurred, −1 the other way round, 0 when neither. */
@inline function stepAt(fineA: usize, coarseA: usize, brightA: usize, fineB: usize, coarseB: usize, brightB: usize): i32 {
  const fa = <f64>load<f32>(fineA);
  const fb = <f64>load<f32>(fineB);
  if (fa <= FINE_RATIO * fb && fb <= FINE_RATIO * fa) return 0;
  if (Math.abs(<f64>load<f32>(brightA) - <f64>load<f32>(brightB)) >= MAX_BRIGHTNESS_JUMP) return 0;
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

/** Adds mark `step` at (sample j, line k) of a prefix-count pair (`lines` wide): row j + 1 = row j + mark. */
@inline function count(into: usize, outOf: usize, lines: i32, j: i32, k: i32, step: i32): void {
  const above = <usize>(j * lines + k) << 1;
  const here = <usize>((j + 1) * lines + k) << 1;
  store<u16>(into + here, <u16>(<i32>load<u16>(into + above) + (step > 0 ? 1 : 0)));
  store<u16>(outOf + here, <u16>(<i32>load<u16>(outOf + above) + (step < 0 ? 1 : 0)));
}

/**
 * Step counts of the `w` × `h` f32 picture at `picture` across vertical boundaries (`intoV`/`outOfV`: lines w,
 * ceil(h / 2) samples) and horizontal ones (`intoH`/`outOfH`: lines h, ceil(w / 2) samples), as u16 prefix counts
 * laid out as blur-search.ts's `StepCounts` ((samples + 1) × lines each). `work` holds
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
  brightMeans = coarseMeans + ringBytes;
  columnSums = brightMeans + ringBytes;
  nextRows = columnSums + (<usize>(4 * w) << 3);
  fineDone = 0;
  coarseDone = 0;
  const samplesV = (h + SAMPLE - 1) / SAMPLE;
  const samplesH = (w + SAMPLE - 1) / SAMPLE;
  memory.fill(intoV, 0, <usize>((samplesV + 1) * w) << 1);
  memory.fill(outOfV, 0, <usize>((samplesV + 1) * w) << 1);
  memory.fill(intoH, 0, <usize>((samplesH + 1) * h) << 1);
  memory.fill(outOfH, 0, <usize>((samplesH + 1) * h) << 1);
  for (let box = 0; box < 4; box++) startBox(box);
  for (let y = 0; y < h; y++) {
    const f = ringRow(fineMeans, y);
    const c = ringRow(coarseMeans, y);
    const b = ringRow(brightMeans, y);
    const odd = (y & 1) != 0;
    boxRow(FINE_BOX, f, odd);
    boxRow(COARSE_BOX, c, odd);
    boxRow(BRIGHT_BOX, b, odd);
    // Vertical boundaries k on sampled row y: sharp side at k − 4, blurred side at k + 3.
    if (y % SAMPLE == 0) {
      const j = y / SAMPLE;
      for (let k = 6; k + 5 < w; k++) {
        const a = <usize>(k - 4) << 2;
        const o = <usize>(k + 3) << 2;
        count(intoV, outOfV, w, j, k, stepAt(f + a, c + a, b + a, f + o, c + o, b + o));
      }
    }
    // The horizontal boundary k = y − 3 (rows k − 4 and k + 3 = y are both made now), at every sampled column.
    const k = y - 3;
    if (k >= 6 && k + 5 < h) {
      const fa = ringRow(fineMeans, k - 4);
      const ca = ringRow(coarseMeans, k - 4);
      const ba = ringRow(brightMeans, k - 4);
      for (let j = 0; j < samplesH; j++) {
        const x = <usize>(j * SAMPLE) << 2;
        count(intoH, outOfH, h, j, k, stepAt(fa + x, ca + x, ba + x, f + x, c + x, b + x));
      }
    }
  }
}

/** Bytes of blurStepCounts' work area for a picture `w` wide (six rings of rows, four rows of f64 sums, 4 rows). */
export function blurStepWorkBytes(w: i32): i32 {
  return 6 * RING * w * 4 + 4 * w * 8 + 16;
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
    for (let k = 0; k < lines; k++) {
      const o = <usize>k << 1;
      const n = <i32>load<u16>(end + o) - <i32>load<u16>(start + o);
      if (n > <i32>load<u16>(most + o)) store<u16>(most + o, <u16>n);
    }
  }
}

/**
 * The SIMD WebAssembly pixel kernels (wasm/assembly/, built into wasm/kernels.wasm by
 * scripts/build-wasm.mjs; docs/wasm.md). Imported as a compiled module (a CompiledWasm rule in
 * workerd, read from disk in Node) and instantiated once per isolate. Every call is synchronous and
 * stateless: inputs are copied into one scratch area of the module's memory, results copied out,
 * so any number of decoders may be alive at once. The JavaScript versions named in each kernel's
 * source stay the reference; test/unit/wasm-kernels.test.ts compares them.
 */
import kernelsModule from "#wasm-kernels";

export interface KernelExports {
  memory: WebAssembly.Memory;
  scratch(bytes: number): number;
  idctBlocks(count: number, coefficients: number, layout: number, tables: number, out: number): void;
  emitRgbaRows(
    components: number,
    rgb: number,
    planes: number,
    y: number,
    rows: number,
    width: number,
    out: number,
  ): void;
  setBlockConstants(cos: number, elaTable: number): void;
  blockOutputBytes(count: number): number;
  blockHistogramBytes(): number;
  measureCoefficientRow(count: number, coefficients: number, table: number, out: number, histograms: number): void;
  measurePixelRow(count: number, lines: number, out: number): void;
  /** Block stages (of measureCoefficientRow/measurePixelRow) redone with the dense transforms near a rounding tie since the last call; resets the count. */
  takeDenseStages(): number;
  decodeMcuRow(
    state: number,
    my: number,
    mcusX: number,
    restartInterval: number,
    componentCount: number,
    components: number,
    tables: number,
    window: number,
    windowStart: number,
    windowEnd: number,
    fileLength: number,
    out: number,
  ): number;
  decodeProgressiveScanRow(
    state: number,
    params: number,
    tables: number,
    my: number,
    window: number,
    windowStart: number,
    windowEnd: number,
    fileLength: number,
    row: number,
    work: number,
  ): number;
  deflateBound(length: number): number;
  zlibInflate(data: number, length: number, output: number, capacity: number): number;
  zlibDeflate(input: number, length: number, output: number, line: number, pixelBytes: number): number;
  pngFilterUp(data: number, stride: number, rows: number): void;
  crc32(data: number, length: number, previous: number): number;
  /** 1 when a cell of the row is not judged (heatmapRow's `hatched`), else 0. */
  heatmapCells(scores: number, reliable: number, count: number, cells: number): number;
  /** 1 when a cell of the row is not judged (heatmapRow's `hatched`), else 0. */
  heatmapRatioCells(ratios: number, count: number, full: number, cells: number): number;
  heatmapSourceRow(src: number, srcX: number, width: number, out: number, doubled: number): void;
  heatmapRow(
    src: number,
    cellX: number,
    cells: number,
    y: number,
    width: number,
    out: number,
    hatched: number,
    twice: number,
  ): void;
  pngUnfilterRows(data: number, length: number, rows: number, step: number): number;
  areaDownscaleBand(
    rgba: number,
    width: number,
    rows: number,
    y: number,
    height: number,
    outWidth: number,
    outHeight: number,
    firstColumn: number,
    sums: number,
    counts: number,
    state: number,
    out: number,
  ): number;
  lumaDownscaleBand(
    rgba: number,
    width: number,
    rows: number,
    y: number,
    outWidth: number,
    outHeight: number,
    firstColumn: number,
    firstRow: number,
    sums: number,
    state: number,
    out: number,
  ): number;
  setDctStatisticsConstants(steps: number, inverse: number, zigzag: number): void;
  dctStatisticsRow(
    count: number,
    coefficients: number,
    samples: number,
    table: number,
    frequencies: number,
    ghost: number,
    low: number,
    high: number,
    histograms: number,
  ): void;
  setGridConstants(phases: number, shifts: number): void;
  gatherLumaRows(
    mcu: number,
    mcusX: number,
    blocksPerMcu: number,
    lumaAt: number,
    h: number,
    v: number,
    blocksWide: number,
    rows: number,
  ): void;
  lumaRowSamples(coefficients: number, count: number, blocksWide: number, table: number, samples: number): void;
  gridTileRow(lines: number, blockRows: number, blocksWide: number, sums: number, cells: number, picture: number): void;
  gridScoreTileRow(
    sums: number,
    cells: number,
    first: number,
    rows: number,
    tilesWide: number,
    allowed: number,
    minCells: number,
    windowCells: number,
    score: number,
    shift: number,
    step: number,
  ): void;
  copyMoveCellMeans(luma: number, width: number, height: number, ring: number, columns: number, out: number): void;
  copyMoveQuantise(cells: number, count: number, out: number): void;
  copyMoveHashRows(
    cells: number,
    quantised: number,
    cw: number,
    count: number,
    rows: number,
    minResidual: number,
    slack: number,
    out: number,
    judged: number,
    ring: number,
  ): number;
  copyMoveGroups(hashes: number, count: number, shift: number, ends: number, entries: number): void;
  copyMovePairs(
    cells: number,
    cw: number,
    gw: number,
    shift: number,
    count: number,
    ends: number,
    entries: number,
    twins: number,
    state: number,
    capacity: number,
    first: number,
    shifts: number,
  ): number;
  lumaRows(rgba: number, count: number, out: number): void;
  grayDownscaleRows(
    source: number,
    width: number,
    rows: number,
    outWidth: number,
    firstRow: number,
    endRow: number,
    firstColumn: number,
    endColumn: number,
    out: number,
  ): void;
  blurStepWorkBytes(width: number): number;
  blurStepCounts(
    picture: number,
    width: number,
    height: number,
    work: number,
    intoV: number,
    outOfV: number,
    intoH: number,
    outOfH: number,
  ): void;
  stepRunMaxima(counts: number, lines: number, samples: number, run: number, most: number): void;
  seamStepCounts(picture: number, width: number, height: number, vertical: number, horizontal: number): void;
  toneRunExtremes(
    picture: number,
    width: number,
    height: number,
    rows: number,
    most: number,
    least: number,
    work: number,
  ): void;
  toneLineSums(
    picture: number,
    width: number,
    height: number,
    rows: number,
    lines: number,
    count: number,
    kept: number,
    slots: number,
    out: number,
  ): void;
  equalNeighbourCount(picture: number, width: number, height: number): number;
  dqMixtureShares(
    counts: number,
    ps: number,
    pds: number,
    n: number,
    candidates: number,
    total: number,
    out: number,
  ): void;
  ghostNormalisedRow(
    errors: number,
    slots: number,
    rows: number,
    width: number,
    qualities: number,
    scale: number,
    sums: number,
    window: number,
    out: number,
    stride: number,
    counts: number,
    clear: boolean,
  ): void;
  ghostTopRegion(
    map: number,
    above: number,
    table: number,
    w: number,
    h: number,
    judged: number,
    maxShare: number,
    seen: number,
    stack: number,
    out: number,
  ): number;
  scoreTopRegion(
    scores: number,
    w: number,
    h: number,
    threshold: number,
    maxShare: number,
    flags: number,
    stack: number,
    out: number,
  ): number;
  peerRuns(
    covariate: number,
    reliable: number,
    n: number,
    count: number,
    per: number,
    keys: number,
    buckets: number,
  ): void;
  peerMiddles(
    values: number,
    runs: number,
    count: number,
    per: number,
    bins: number,
    scratch: number,
    out: number,
    runOf: number,
  ): void;
  smoothGrid(values: number, w: number, h: number, radius: number, need: number, out: number): void;
}

let instance: KernelExports | null = null;
/** Kernels whose constants this isolate's instance holds already. */
const constantsSet = new Set<string>();

/** The kernels of this isolate (instantiated on first use). */
export function kernels(): KernelExports {
  instance ??= new WebAssembly.Instance(kernelsModule, {}).exports as unknown as KernelExports;
  return instance;
}

/**
 * A fresh instance of the kernels (≈ 0.3 ms), for one computation with a large scratch area that should not
 * stay: its memory goes with it (at the next garbage collections, which a few megabytes make noticeably
 * slower: ≈ 10–20 ms per small photo), whereas the isolate's instance keeps its largest scratch area for good.
 */
export function ownKernels(): KernelExports {
  return new WebAssembly.Instance(kernelsModule, {}).exports as unknown as KernelExports;
}

/**
 * What the start of the scratch area holds unchanged (`key`: the array copied there, of instance `k`), for the next
 * caller that copies the same array in: forgotten at every claim of the area (scratch) and at the end of the
 * synchronous run (a microtask), so that no caller that claimed the area earlier and writes to it after an `await`
 * can have changed it.
 */
let held: { key: object; k: KernelExports } | null = null;

/** Whether the scratch area of `k` starts with `key`'s copy, as left by holdInScratch. */
export function scratchHolds(key: object, k: KernelExports): boolean {
  return held !== null && held.key === key && held.k === k;
}

/** Marks the start of `k`'s scratch area as holding `key`'s copy (which the kernel called next only reads). */
export function holdInScratch(key: object, k: KernelExports): void {
  const mark = { key, k };
  held = mark;
  queueMicrotask(() => {
    if (held === mark) held = null;
  });
}

/**
 * The scratch area with room for `bytes` (of the isolate's instance, or of `k`), and views on the memory as
 * it is after growing (views taken before a call that grows the memory are detached).
 */
export function scratch(
  bytes: number,
  k: KernelExports = kernels(),
): { base: number; bytes: Uint8Array; buffer: ArrayBuffer } {
  held = null;
  const base = k.scratch(bytes);
  const buffer = k.memory.buffer;
  return { base, bytes: new Uint8Array(buffer), buffer };
}

/**
 * Consecutive 16-byte-aligned regions of the scratch area, sized by name: where each starts, with views on
 * the memory as it is after growing (for calls whose inputs and outputs are several arrays). They start
 * `after` bytes into the area (what a caller still needs there, e.g. the shared pass's rows); `end` is the
 * offset behind the last one.
 */
export function scratchRegions<K extends string>(
  sizes: Record<K, number>,
  k: KernelExports = kernels(),
  after = 0,
): { at: Record<K, number>; bytes: Uint8Array; buffer: ArrayBuffer; end: number } {
  const names = Object.keys(sizes) as K[];
  const end = names.reduce((total, name) => total + align16(sizes[name]), align16(after));
  const s = scratch(end, k);
  const at = {} as Record<K, number>;
  let next = s.base + align16(after);
  for (const name of names) {
    at[name] = next;
    next += align16(sizes[name]);
  }
  return { at, bytes: s.bytes, buffer: s.buffer, end };
}

/**
 * Copies a kernel's constants (tables built by its JavaScript reference) into the module's static memory,
 * once per isolate: `copy` writes them into the scratch area (`bytes` long) and calls the kernel's setter.
 */
export function ensureConstants(name: string, bytes: number, copy: (s: ReturnType<typeof scratch>) => void): void {
  if (constantsSet.has(name)) return;
  copy(scratch(bytes));
  constantsSet.add(name);
}

/** Copies the block pass's constants (the caller's cosine table and ELA quantiser) in, once. */
export function ensureBlockConstants(cos: Float64Array, elaTable: Uint16Array): void {
  ensureConstants("block", 1024, (s) => {
    new Float64Array(s.buffer, s.base, 64).set(cos);
    new Float64Array(s.buffer, s.base + 512, 64).set(elaTable);
    kernels().setBlockConstants(s.base, s.base + 512);
  });
}

/** Upsampling kinds as wasm/assembly/color.ts numbers them. */
export const UPSAMPLE_CODES = { copy: 0, h2v1: 1, h1v2: 2, h2v2: 3, nearest: 4 } as const;

/** Rounds up to a multiple of 16 (v128 alignment of every scratch region). */
export const align16 = (n: number): number => (n + 15) & ~15;

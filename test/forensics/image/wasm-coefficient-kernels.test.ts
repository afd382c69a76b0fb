// The coefficient kernels of the localised JPEG detectors (wasm/assembly/dct-statistics.ts, grid-phases.ts,
// grid-score.ts; docs/wasm.md) against their JavaScript references: the same luminance blocks fed to both
// sinks give the same values (Object.is per value: every f32/f64, every stored ghost error), whether the
// kernels' sinks take the blocks one by one or whole block rows (the shared pass); and the shared pass's rows
// themselves (wasm/assembly/luma-rows.ts: gathered in wasm memory, their integer IDCT samples).
import { describe, expect, it } from "vitest";
import { type DctBlocks, statisticsSink } from "../../../src/scanner/forensics/jpeg-dct-blocks";
import {
  bestPair,
  GRID_SHIFTS,
  GRID_STEPS,
  type GridTiles,
  gridSink,
} from "../../../src/scanner/forensics/jpeg-grid-map";
import { decodeLumaCoefficients, lumaGridIsPicture } from "../../../src/scanner/images/jpeg-coefficients";
import { idctBlockToBytes } from "../../../src/scanner/images/jpeg-idct";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { kernels, scratchRegions } from "../../../src/scanner/images/wasm-kernels";
import { croppedJpeg } from "./cropped-jpeg";
import { generatedFile, sharedFile } from "./fixtures";

const FILES = [
  {
    what: "4:2:0 phone photo, 751 × 563 (leuvenA: 2×2 luma blocks per MCU)",
    file: () => sharedFile("photos/opencv-doc/leuvenA.jpg"),
  },
  { what: "progressive, 902 × 770", file: () => sharedFile("photos/opencv-doc/ela_original.jpg") },
  { what: "4:2:2, restart interval 4", file: () => sharedFile("exif-samples/jpg/exif-org/fujifilm-mx1700.jpg") },
  { what: "4:4:0 (1×2 luma sampling)", file: () => sharedFile("exif-samples/jpg/tests/28-hex_value.jpg") },
  { what: "grayscale, 250 × 203", file: () => generatedFile("grayscale.jpg") },
  {
    what: "a spliced patch on another grid (found by jpeg-grid)",
    file: () => generatedFile("grid/splice-shifted.jpg"),
  },
];

/** Sizes around the 8 × 8 block, the 16 × 16 MCU and the 4 × 4-cell tile edges. */
const SIZES: Array<[number, number]> = [
  [1, 1],
  [7, 9],
  [17, 1],
  [1, 33],
  [63, 41],
  [40, 40],
  [41, 49],
  [137, 71],
];

/** Positions where two arrays differ (Object.is: −0 and NaN count), plus the length difference. */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** Both sinks of both products fed the file's luminance blocks once. */
async function products(bytes: Uint8Array) {
  const structure = parseJpegStructure(bytes);
  const frame = structure.frame;
  const table = frame && structure.quantTables.get(frame.components[0].tq);
  if (!frame || !table) throw new Error("not a JPEG with a luminance table");
  const { width, height } = frame;
  const statistics = [statisticsSink(width, height, table), statisticsSink(width, height, table, { reference: true })];
  const grid = [gridSink(width, height, table), gridSink(width, height, table, { reference: true })];
  const decode = await decodeLumaCoefficients(bytes, structure, (row, col, q) => {
    for (const sink of [...statistics, ...grid]) sink.block(row, col, q);
  });
  expect(decode.error).toBeNull();
  // The kernels fed whole block rows, as the shared pass feeds them (no block visitor: the wasm decoder's rows).
  expect(lumaGridIsPicture(frame)).toBe(true);
  const byRows = { statistics: statisticsSink(width, height, table), grid: gridSink(width, height, table) };
  const rowsDecode = await decodeLumaCoefficients(bytes, structure, null, {
    rows: {
      table,
      visit(rows) {
        byRows.statistics.rows?.(rows);
        byRows.grid.rows?.(rows);
      },
    },
  });
  expect(rowsDecode.error).toBeNull();
  return {
    statistics: statistics.map((s) => s.finish()) as [DctBlocks, DctBlocks],
    grid: grid.map((s) => s.finish()) as [GridTiles, GridTiles],
    rows: { statistics: byRows.statistics.finish(), grid: byRows.grid.finish() },
  };
}

const STATISTICS = ["coefficients", "histograms", "ghost", "low", "high"] as const;
const GRID = ["score", "shift", "step", "tileSum", "tileCells", "pictureSum", "pictureMedian"] as const;

/** Differing values per field of both products (all 0 when identical), and how much was measured. */
async function differences(bytes: Uint8Array) {
  const { statistics, grid, rows } = await products(bytes);
  const [wasm, reference] = statistics;
  const [wasmGrid, referenceGrid] = grid;
  const out: Record<string, number> = {};
  for (const f of STATISTICS) out[f] = differing(wasm[f], reference[f]) + differing(rows.statistics[f], reference[f]);
  for (const f of GRID)
    out[`grid ${f}`] = differing(wasmGrid[f], referenceGrid[f]) + differing(rows.grid[f], referenceGrid[f]);
  out["grid cells"] =
    Math.abs(wasmGrid.pictureCells - referenceGrid.pictureCells) +
    Math.abs(rows.grid.pictureCells - referenceGrid.pictureCells);
  const picture = JSON.stringify(referenceGrid.picture);
  out["grid picture"] =
    (JSON.stringify(wasmGrid.picture) === picture ? 0 : 1) + (JSON.stringify(rows.grid.picture) === picture ? 0 : 1);
  return { out, blocks: wasm.low.length, judgedCells: referenceGrid.pictureCells, ghosts: reference.ghost };
}

const SAME = Object.fromEntries([
  ...STATISTICS.map((f) => [f, 0]),
  ...GRID.map((f) => [`grid ${f}`, 0]),
  ["grid cells", 0],
  ["grid picture", 0],
]);

describe("DCT-block statistics (jpeg-dq, jpeg-ghost) and jpeg-grid's phase sums: the wasm kernels give the reference's values", () => {
  for (const { what, file } of FILES)
    it(what, async () => {
      const { out, blocks, judgedCells, ghosts } = await differences(await file());
      expect(out).toEqual(SAME);
      expect(blocks).toBeGreaterThan(500);
      expect(judgedCells).toBeGreaterThan(100);
      // Ghost errors of every size were compared (not only zeros or the 65535 cap).
      expect(ghosts.some((g) => g > 0 && g < 65535)).toBe(true);
    });

  it("at sizes that are not multiples of 8, 16 or a tile (1 × 1 … 137 × 71)", async () => {
    for (const [w, h] of SIZES) expect((await differences(await croppedJpeg(w, h))).out, `${w} × ${h}`).toEqual(SAME);
  });
});

/**
 * The whole block rows a decode hands to a rows visitor, copied out of wasm memory (coefficients and samples,
 * the picture's rows in order), beside the blocks the JavaScript decoder visits and their reference IDCT.
 */
async function passRows(bytes: Uint8Array) {
  const structure = parseJpegStructure(bytes);
  const frame = structure.frame;
  const table = frame && structure.quantTables.get(frame.components[0].tq);
  if (!frame || !table) throw new Error("not a JPEG with a luminance table");
  const blocksWide = Math.ceil(frame.width / 8);
  const blocksHigh = Math.ceil(frame.height / 8);
  const fromRows = (reference: boolean) => {
    const coefficients = new Int16Array(blocksWide * blocksHigh * 64);
    const samples = new Uint8Array(blocksWide * blocksHigh * 64);
    let next = 0;
    const done = decodeLumaCoefficients(bytes, structure, null, {
      reference,
      rows: {
        table,
        visit(rows) {
          expect(rows.first).toBe(next);
          next += rows.count;
          const length = rows.count * blocksWide * 64;
          // Samples first: the call may not move the coefficients.
          const at = rows.samples();
          const memory = kernels().memory.buffer;
          samples.set(new Uint8Array(memory, at, length), rows.first * blocksWide * 64);
          coefficients.set(new Int16Array(memory, rows.coefficients, length), rows.first * blocksWide * 64);
        },
      },
    });
    return done.then((decode) => ({ decode, coefficients, samples, rows: next }));
  };
  const coefficients = new Int16Array(blocksWide * blocksHigh * 64);
  const samples = new Uint8Array(blocksWide * blocksHigh * 64);
  const decode = await decodeLumaCoefficients(
    bytes,
    structure,
    (row, col, q) => {
      coefficients.set(q, (row * blocksWide + col) * 64);
      idctBlockToBytes(q, table, samples, row * blocksWide * 64 + col * 8, blocksWide * 8);
    },
    { reference: true },
  );
  return {
    reference: { decode, coefficients, samples, rows: blocksHigh },
    wasm: await fromRows(false),
    js: await fromRows(true),
  };
}

describe("the shared pass's block rows in wasm memory (luma-rows.ts): the reference decoder's blocks and IDCT samples", () => {
  const same = async (bytes: Uint8Array, what: string) => {
    const { reference, wasm, js } = await passRows(bytes);
    expect(reference.decode.error, what).toBeNull();
    for (const [name, rows] of Object.entries({ wasm, js })) {
      expect(rows.decode.error, `${what}, ${name}`).toBeNull();
      expect(rows.rows, `${what}, ${name}: rows`).toBe(reference.rows);
      expect(differing(rows.coefficients, reference.coefficients), `${what}, ${name}: coefficients`).toBe(0);
      expect(differing(rows.samples, reference.samples), `${what}, ${name}: samples`).toBe(0);
    }
  };
  it("on every file above (4:2:0, progressive, 4:2:2 with restarts, 4:4:0, grey, a splice)", async () => {
    for (const { what, file } of FILES) await same(await file(), what);
  });
  it("at sizes that are not multiples of 8, 16 or a tile (1 × 1 … 137 × 71)", async () => {
    for (const [w, h] of SIZES) await same(await croppedJpeg(w, h), `${w} × ${h}`);
  });
});

/** The numbers of `numbers` below as a sink's input: crafted blocks of a picture `w` × `h` blocks. */
function craftedBlocks(w: number, h: number, random: () => number): Int16Array[] {
  return Array.from({ length: w * h }, () =>
    Int16Array.from({ length: 64 }, (_, k) => {
      const r = random();
      // Mostly zeros and small values; some beyond the looked-up ±64, up to the 12-bit extremes.
      if (r < 0.5) return 0;
      if (r < 0.9) return Math.round((random() - 0.5) * (k === 0 ? 600 : 40));
      if (r < 0.98) return Math.round((random() - 0.5) * 400);
      return random() < 0.5 ? -2048 : 2047;
    }),
  );
}

describe("DCT-block statistics on crafted blocks: the kernel's ghost errors are the reference's", () => {
  it("with values beyond ±64 up to ±2047, steps 1–255, and two files' blocks taking turns (different tables)", () => {
    const random = numbers(11);
    const tables = [
      Uint16Array.from({ length: 64 }, () => 1 + Math.floor(random() * 255)),
      Uint16Array.from({ length: 64 }, (_, k) => (k % 2 ? 2 : 255)),
    ];
    const [w, h] = [13, 5];
    const files = tables.map((table) => ({
      blocks: craftedBlocks(w, h, random),
      sinks: [statisticsSink(w * 8, h * 8, table), statisticsSink(w * 8, h * 8, table, { reference: true })],
    }));
    // Row by row, the files in turn: each kernel call finds the other file's table was the last one used.
    for (let row = 0; row < h; row++)
      for (const { blocks, sinks } of files)
        for (let col = 0; col < w; col++) for (const sink of sinks) sink.block(row, col, blocks[row * w + col]);
    for (const { sinks } of files) {
      const [wasm, reference] = sinks.map((s) => s.finish());
      for (const f of STATISTICS) expect(differing(wasm[f], reference[f]), f).toBe(0);
      expect(reference.ghost.some((g) => g > 0 && g < 65535)).toBe(true);
    }
  });
});

const PAIRS = GRID_SHIFTS.length * GRID_STEPS.length;

/** A generator of the same numbers on every run. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** One tile's window scored by the kernel (one tile row of one tile: the window is that tile's sums). */
function kernelBest(sums: Float32Array, cells: number, allowed: Uint8Array) {
  const s = scratchRegions({
    sums: sums.length * 4,
    cells: 4,
    allowed: PAIRS,
    windowCells: 4,
    score: 8,
    shift: 1,
    step: 1,
  });
  new Float32Array(s.buffer, s.at.sums, sums.length).set(sums);
  new Int32Array(s.buffer, s.at.cells, 1)[0] = cells;
  s.bytes.set(allowed, s.at.allowed);
  const { at } = s;
  kernels().gridScoreTileRow(at.sums, at.cells, 0, 1, 1, at.allowed, 1, at.windowCells, at.score, at.shift, at.step);
  return { score: new Float64Array(s.buffer, at.score, 1)[0], shift: s.bytes[at.shift], step: s.bytes[at.step] };
}

describe("jpeg-grid's window scores on crafted sums: the kernel picks the reference's offset, step and score", () => {
  it("with equal sums, sums one float step apart, zeros, small integers and tied steps (ties the photos hardly have)", () => {
    const random = numbers(7);
    const shifts = GRID_SHIFTS.length;
    const crafted: Array<(i: number, base: Float32Array) => number> = [
      () => (random() - 0.5) * 50,
      (_, base) => base[Math.floor(random() * 4)],
      (_, base) => {
        const near = new Float32Array([base[Math.floor(random() * 3)]]);
        new Int32Array(near.buffer)[0] += Math.floor(random() * 3) - 1;
        return near[0];
      },
      () => (random() < 0.3 ? 0 : Math.round((random() - 0.5) * 8)),
      // Every step's row the same: equal scores on every step.
      (i, base) => base[(i % (2 * shifts)) % 4] * ((i % (2 * shifts)) % 7),
      // Integer alignments (im 0), each step's 3 above the step before: equal scores, the later steps' best
      // alignment higher (the kernel scores them first; the reference keeps the first step).
      (i) => (i % 2 ? 0 : (((i >> 1) % shifts) * 7) % 23) + (i % 2 ? 0 : 3 * Math.floor((i >> 1) / shifts)),
    ];
    const tiedSteps = (trial: number) => trial % crafted.length >= 4;
    let differing = 0;
    for (let trial = 0; trial < 1200; trial++) {
      const base = Float32Array.from({ length: 4 }, () => (random() - 0.5) * 100);
      const sums = Float32Array.from({ length: 2 * PAIRS }, (_, i) => crafted[trial % crafted.length](i, base));
      const byShift = Uint8Array.from(GRID_SHIFTS, () => (random() < 0.85 ? 1 : 0));
      const allowed = Uint8Array.from({ length: PAIRS }, (_, p) =>
        tiedSteps(trial) ? byShift[p % shifts] : random() < 0.85 ? 1 : 0,
      );
      // Powers of two for the integer alignments: their differences stay exact.
      const cells = trial % crafted.length === 5 ? 2 ** (trial % 6) : 1 + Math.floor(random() * 60);
      const reference = bestPair(Float64Array.from(sums), 0, cells, allowed, new Float64Array(shifts));
      const wasm = kernelBest(sums, cells, allowed);
      if (!Object.is(wasm.score, reference.score) || wasm.shift !== reference.shift || wasm.step !== reference.step)
        differing++;
    }
    expect(differing).toBe(0);
  });
});

// The coefficient kernels of the localised JPEG detectors (wasm/assembly/dct-statistics.ts, grid-phases.ts,
// grid-score.ts; docs/wasm.md) against their JavaScript references: the same luminance blocks fed to both
// sinks give the same values (Object.is per value: every f32/f64, every stored ghost error).
import { describe, expect, it } from "vitest";
import { type DctBlocks, statisticsSink } from "../../../src/scanner/forensics/jpeg-dct-blocks";
import { type GridTiles, gridSink } from "../../../src/scanner/forensics/jpeg-grid-map";
import { decodeLumaCoefficients } from "../../../src/scanner/images/jpeg-coefficients";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
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
  return {
    statistics: statistics.map((s) => s.finish()) as [DctBlocks, DctBlocks],
    grid: grid.map((s) => s.finish()) as [GridTiles, GridTiles],
  };
}

const STATISTICS = ["coefficients", "histograms", "ghost", "low", "high"] as const;
const GRID = ["score", "shift", "step", "tileSum", "tileCells", "pictureSum", "pictureMedian"] as const;

/** Differing values per field of both products (all 0 when identical), and how much was measured. */
async function differences(bytes: Uint8Array) {
  const { statistics, grid } = await products(bytes);
  const [wasm, reference] = statistics;
  const [wasmGrid, referenceGrid] = grid;
  const out: Record<string, number> = {};
  for (const f of STATISTICS) out[f] = differing(wasm[f], reference[f]);
  for (const f of GRID) out[`grid ${f}`] = differing(wasmGrid[f], referenceGrid[f]);
  out["grid cells"] = wasmGrid.pictureCells - referenceGrid.pictureCells;
  out["grid picture"] = JSON.stringify(wasmGrid.picture) === JSON.stringify(referenceGrid.picture) ? 0 : 1;
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

// The blur and cut-edge searches' kernels (wasm/assembly/blur.ts and seams.ts through blur-steps-wasm.ts and
// seam-steps-wasm.ts) against their JavaScript references: the same step counts, run maxima, run extremes and the
// tone box's line sums (Object.is for every value) and the same rectangles and boxes, on shared and generated photos,
// at odd sizes and on malformed values; and the drawn-picture test's equal-neighbour count (wasm/assembly/drawn.ts)
// on the same pictures.
import { describe, expect, it } from "vitest";
import { blurStepCounts, searchBlurRectangle } from "../../../src/scanner/forensics/blur-search";
import { searchSeams, stepCounts, transposed } from "../../../src/scanner/forensics/seam-search";
import { seamStepCountsWasm, toneRunExtremesWasm } from "../../../src/scanner/forensics/seam-steps-wasm";
import { allCandidateLines, runExtremes, searchToneBox } from "../../../src/scanner/forensics/tone-box";
import { blockMaps } from "../../../src/scanner/images/block-analysis";
import { equalNeighbourShare } from "../../../src/scanner/images/drawn-picture";
import type { GrayImage } from "../../../src/scanner/images/gray";
import { searchPicture } from "../../../src/scanner/images/search-picture";
import { kernels } from "../../../src/scanner/images/wasm-kernels";
import { generatedFile, sharedFile } from "./fixtures";
import { brighter, retone, texturedPicture } from "./seam-pictures";

function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** Every table of both paths of both searches, and their results, compared. */
function expectSameSearches(img: GrayImage, what: string): void {
  const label = `${what} ${img.width}×${img.height}`;
  expect(equalNeighbourShare(img), `${label} equal-neighbour share`).toBe(
    equalNeighbourShare(img, { reference: true }),
  );
  if (img.width >= 60 && img.height >= 60) {
    const reference = blurStepCounts(img, { reference: true });
    const wasm = blurStepCounts(img);
    for (const side of ["columns", "rows"] as const)
      for (const table of ["into", "outOf", "mostInto", "mostOutOf"] as const)
        expect(differing(wasm[side][table], reference[side][table]), `${label} blur ${side} ${table}`).toBe(0);
    expect(searchBlurRectangle(img), `${label} blur`).toEqual(searchBlurRectangle(img, { reference: true }));
  }
  if (img.width < 68 || img.height < 68) return;
  const columns = transposed(img);
  const steps = seamStepCountsWasm(img, 2, 32);
  for (const [wasm, reference] of [
    [steps.vertical, stepCounts(img, 2)],
    [steps.horizontal, stepCounts(columns, 2)],
  ] as const) {
    expect(differing(wasm.counts, reference.counts), `${label} seam counts`).toBe(0);
    expect(differing(wasm.most, reference.most), `${label} seam maxima`).toBe(0);
  }
  const extremes = toneRunExtremesWasm(img);
  for (const [wasm, reference] of [
    [extremes.rows, runExtremes(img)],
    [extremes.columns, runExtremes(columns)],
  ] as const) {
    expect(differing(wasm.most, reference.most), `${label} tone most`).toBe(0);
    expect(differing(wasm.least, reference.least), `${label} tone least`).toBe(0);
  }
  const lines = allCandidateLines(img, {});
  const referenceLines = allCandidateLines(img, { reference: true });
  for (const direction of ["rows", "vertical"] as const)
    for (const sign of ["rising", "falling"] as const) {
      const [wasm, reference] = [lines[direction][sign], referenceLines[direction][sign]];
      expect(
        wasm.map((l) => l.k),
        `${label} tone ${direction} ${sign} lines`,
      ).toEqual(reference.map((l) => l.k));
      for (let i = 0; i < wasm.length; i++)
        expect(differing(wasm[i].sums, reference[i].sums), `${label} tone ${direction} ${sign} sums`).toBe(0);
    }
  expect(searchSeams(img), `${label} seams`).toEqual(searchSeams(img, { reference: true }));
  expect(searchToneBox(img), `${label} tone box`).toEqual(searchToneBox(img, { reference: true }));
}

async function photoSearchPicture(bytes: Uint8Array): Promise<GrayImage> {
  const result = await blockMaps(bytes);
  if (!result.ok) throw new Error(result.reason);
  return searchPicture(bytes, result.maps);
}

describe("blur, cut-edge and drawn-picture kernels: the references' values", () => {
  it("on shared photos and on generated blurred, re-toned and spliced ones (found rectangles included)", async () => {
    for (const path of ["photos/opencv-doc/leuvenA.jpg", "photos/opencv-doc/board.jpg"])
      expectSameSearches(await photoSearchPicture(await sharedFile(path)), path);
    for (const path of ["blur/Dune.jpg", "blur/leuvenB.jpg", "bright/Dune.jpg", "splice/Dune.jpg"])
      expectSameSearches(await photoSearchPicture(await generatedFile(path)), path);
    // The blurred rectangles and tone boxes are found (Yellow or more), so the comparison covers found ones.
    expect(
      searchBlurRectangle(await photoSearchPicture(await generatedFile("blur/leuvenB.jpg")))?.score,
    ).toBeGreaterThan(0.55);
    const bright = await photoSearchPicture(await generatedFile("bright/Dune.jpg"));
    expect(searchSeams(bright)?.score).toBeGreaterThan(0.7);
    expect(searchToneBox(bright)?.score).toBeGreaterThan(7.5);
  });

  it("at sizes that are not multiples of 8 or 16, the smallest searched, and long thin pictures", () => {
    const rect = { x: 21, y: 17, width: 70, height: 66 };
    for (const [w, h] of [
      [60, 60],
      [61, 67],
      [68, 68],
      [69, 75],
      [75, 129],
      [333, 101],
      [1001, 71],
      [71, 1001],
    ])
      expectSameSearches(retone(texturedPicture(w, h, 6), rect, brighter), "textured");
    expectSameSearches(
      retone(texturedPicture(301, 233, 36), { x: 61, y: 37, width: 150, height: 110 }, brighter),
      "grainy",
    );
  });

  it("on flat pictures and NaN, infinities and −0 among the values", () => {
    expectSameSearches({ width: 97, height: 83, data: new Float32Array(97 * 83).fill(128) }, "flat");
    const img = texturedPicture(131, 117, 8);
    img.data[0] = Number.NaN;
    img.data[5000] = Number.NaN;
    img.data[7001] = Number.POSITIVE_INFINITY;
    img.data[9002] = Number.NEGATIVE_INFINITY;
    img.data[300] = -0;
    expectSameSearches(img, "malformed");
  });

  it("counts equal neighbours as the reference on tiny pictures with NaN, −0 and runs of equal values", () => {
    const values = [0, -0, 1, 1, Number.NaN, Number.NaN, 2, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const [w, h] of [
      [1, 1],
      [1, 7],
      [2, 3],
      [4, 2],
      [5, 4],
      [6, 2],
      [9, 9],
      [17, 3],
    ]) {
      const img = { width: w, height: h, data: Float32Array.from({ length: w * h }, (_, i) => values[(i * i) % 9]) };
      expect(equalNeighbourShare(img), `${w}×${h}`).toBe(equalNeighbourShare(img, { reference: true }));
    }
  });

  it("keeps the module's memory bounded at a 1 MP search (no full-size map in wasm)", () => {
    const img = texturedPicture(1000, 1000, 6);
    expect(differing(blurStepCounts(img).columns.into, blurStepCounts(img, { reference: true }).columns.into)).toBe(0);
    searchSeams(img);
    searchToneBox(img);
    expect(kernels().memory.buffer.byteLength).toBeLessThanOrEqual(12 * 2 ** 20);
  });
});

// The per-block maps' judgement and drawing against their JavaScript references (docs/wasm.md): the top region and
// judged count of a score map (score-region-wasm.ts, wasm/assembly/score-region.ts) are anomaly.ts
// `topAnomalyRegion`'s, a map's ratio heatmap (renderRatioHeatmapPng: toUnit in the heatmap kernel) decodes to the
// pixels of its toUnit grid drawn by renderHeatmapRgba, and fusedScores gives fusedScoresReference's values.
import { describe, expect, it } from "vitest";
import { elaScores } from "../../../src/scanner/forensics/ela";
import { noiseScores } from "../../../src/scanner/forensics/noise";
import {
  FUSION_SCALES,
  type FusionInput,
  fusedScores,
  fusedScoresReference,
} from "../../../src/scanner/forensics/region-fusion";
import { toUnit, topAnomalyRegion } from "../../../src/scanner/images/anomaly";
import { type BlockMaps, blockMaps } from "../../../src/scanner/images/block-analysis";
import type { GrayImage } from "../../../src/scanner/images/gray";
import { renderHeatmapRgba, renderRatioHeatmapPng } from "../../../src/scanner/images/heatmap";
import { topAnomalyRegionWasm } from "../../../src/scanner/images/score-region-wasm";
import { seededRandom as random, sharedFile } from "./fixtures";
import { pngRgba } from "./png-pixels";

/** The kernel's region and judged count equal the reference's (JSON: the same numbers, −0 and all). */
function expectSameTop(scores: Float32Array, w: number, h: number, threshold: number, maxShare: number, what: string) {
  const reference = topAnomalyRegion(scores, w, h, threshold, maxShare);
  const fast = topAnomalyRegionWasm(scores, w, h, threshold, maxShare);
  expect(fast.judged, `${what}: judged`).toBe(reference.judged);
  expect(fast.region, `${what}: region`).toEqual(reference.region);
  if (fast.region && reference.region)
    expect(Object.is(fast.region.meanScore, reference.region.meanScore), `${what}: mean`).toBe(true);
  return reference.region;
}

async function photoMaps(path: string): Promise<BlockMaps> {
  const result = await blockMaps(await sharedFile(path));
  if (!result.ok) throw new Error(result.reason);
  return result.maps;
}

const PHOTOS = [
  "photos/opencv-doc/leuvenA.jpg",
  "photos/opencv-doc/ela_modified.jpg",
  "photos/opencv-doc/board.jpg",
  "exif-samples/jpg/Canon_40D.jpg",
];

/** A grid of scores around `threshold`: NaN holes, ±0, ±∞, values on the threshold, blobs that touch the edges. */
function craftedScores(w: number, h: number, seed: number, threshold: number): Float32Array {
  const next = random(seed);
  const special = [Number.NaN, -0, 0, threshold, Math.fround(threshold), Number.POSITIVE_INFINITY, -Infinity];
  return Float32Array.from({ length: w * h }, (_, i) => {
    const r = next();
    if (r < 0.1) return special[i % special.length];
    // Blobs: rows and columns in bands, so regions of many sizes (and of equal sizes) form.
    const x = i % w;
    const y = Math.floor(i / w);
    return ((x >> 2) + (y >> 1)) % 3 === 0 ? threshold + next() * 2 : threshold - next();
  });
}

describe("a score map's top region in wasm: anomaly.ts topAnomalyRegion's region and judged count", () => {
  it("on ELA's and noise's maps of shared photos at their thresholds and lower ones", async () => {
    let found = 0;
    for (const path of PHOTOS) {
      const maps = await photoMaps(path);
      const { blocksWide: w, blocksHigh: h } = maps;
      for (const [name, scores] of [
        ["ELA", elaScores(maps)],
        ["noise", noiseScores(maps)],
      ] as const)
        for (const threshold of [0, 0.3, 0.8, 2])
          for (const maxShare of [0.01, 0.5, 1])
            if (expectSameTop(scores, w, h, threshold, maxShare, `${path} ${name} ${threshold} ${maxShare}`)) found++;
    }
    expect(found).toBeGreaterThan(20);
  });

  it("on crafted grids of odd sizes (1 × 1 … 137 × 71) with NaN, ±0, ±∞, scores on the threshold and equal-sized regions", () => {
    let seed = 1;
    for (const [w, h] of [
      [1, 1],
      [1, 17],
      [17, 1],
      [3, 5],
      [16, 16],
      [63, 41],
      [137, 71],
    ])
      for (const threshold of [-1, 0, 0.7])
        for (const maxShare of [0, 0.05, 0.5, 1])
          expectSameTop(craftedScores(w, h, seed++, threshold), w, h, threshold, maxShare, `${w} × ${h}`);
  });

  it("all NaN, none above, every block above, and a grid of another size than its scores (the reference's reading)", () => {
    expectSameTop(new Float32Array(40).fill(Number.NaN), 8, 5, 0, 1, "all NaN");
    expectSameTop(new Float32Array(40).fill(-1), 8, 5, 0, 1, "none above");
    expectSameTop(new Float32Array(40).fill(1), 8, 5, 0, 1, "all above");
    expectSameTop(new Float32Array(40).fill(1), 8, 5, 0, 0.5, "all above, over the share");
    expectSameTop(craftedScores(9, 5, 3, 0.5), 8, 5, 0.5, 1, "45 scores for 8 × 5");
  });
});

function expectSameRatioHeatmap(
  base: GrayImage,
  ratios: Float32Array,
  grid: { width: number; height: number },
  full: number,
  size: { width: number; height: number },
): void {
  const reference = renderHeatmapRgba(base, { ...grid, ...toUnit(ratios, full) }, size).rgba;
  const decoded = pngRgba(renderRatioHeatmapPng(base, { ...grid, ratios, full }, size));
  let differing = Math.abs(decoded.length - reference.length);
  for (let i = 0; i < reference.length; i++) if (decoded[i] !== reference[i]) differing++;
  expect(differing, `${size.width} × ${size.height}, grid ${grid.width} × ${grid.height}, full ${full}`).toBe(0);
}

describe("a map's heatmap drawn from its ratios: the pixels of its toUnit grid", () => {
  it("ELA's and noise's scores of a photo, at the block heatmap's size and at others", async () => {
    const maps = await photoMaps("photos/opencv-doc/leuvenA.jpg");
    const grid = { width: maps.blocksWide, height: maps.blocksHigh };
    for (const scores of [elaScores(maps), noiseScores(maps)])
      for (const full of [1.2, 4.5]) {
        expectSameRatioHeatmap(maps.preview, scores, grid, full, { width: grid.width * 4, height: grid.height * 4 });
        expectSameRatioHeatmap(maps.preview, scores, grid, full, { width: 333, height: 201 });
      }
  });

  it("ratios at 0, at full, beyond both, −0, ±∞, NaN, f32 roundings of ratio / full, in grids 1 … 9 cells wide", () => {
    const next = random(7);
    const base: GrayImage = { width: 40, height: 30, data: Float32Array.from({ length: 1200 }, () => next() * 255) };
    const special = [0, -0, 1.5, 3, -2, 7, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 0.1, 1 / 3];
    for (const width of [1, 2, 3, 9])
      for (const full of [1.5, 0.7]) {
        const ratios = Float32Array.from({ length: width * 4 }, (_, i) =>
          i < special.length ? special[i] : next() * 4 - 1,
        );
        expectSameRatioHeatmap(base, ratios, { width, height: 4 }, full, { width: 41, height: 29 });
      }
  });
});

describe("fusedScores: fusedScoresReference's values", () => {
  function crafted(n: number, seed: number, withDq: boolean, withGhost: boolean): FusionInput {
    const next = random(seed);
    const special = [Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.7, -1.2];
    const map = () =>
      Float32Array.from({ length: n }, (_, i) => (next() < 0.2 ? special[i % special.length] : next() * 6 - 3));
    return { ela: map(), noise: map(), dq: withDq ? map() : null, ghost: withGhost ? map() : null };
  }

  it("with and without the JPEG maps, NaN, ±0, ±∞ and ties among the families", () => {
    let seed = 1;
    for (const [dq, ghost] of [
      [true, true],
      [false, true],
      [true, false],
      [false, false],
    ]) {
      const input = crafted(5000, seed++, dq, ghost);
      // Ties: equal scores in two or three families.
      for (let i = 0; i < 200; i++) {
        input.noise[i] = (input.ela[i] / FUSION_SCALES.ela) * FUSION_SCALES.noise;
        if (input.ghost && i % 2) input.ghost[i] = (input.ela[i] / FUSION_SCALES.ela) * FUSION_SCALES.ghost;
      }
      const fast = fusedScores(input, FUSION_SCALES);
      const reference = fusedScoresReference(input, FUSION_SCALES);
      let differing = 0;
      for (let i = 0; i < reference.length; i++) if (!Object.is(fast[i], reference[i])) differing++;
      expect(differing, `dq ${dq}, ghost ${ghost}`).toBe(0);
    }
  });
});

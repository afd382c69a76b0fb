import { describe, expect, it } from "vitest";
import { INTERIOR_THRESHOLDS, interiorStanding } from "../../../src/scanner/forensics/frame-interior";
import type { FusionInput } from "../../../src/scanner/forensics/region-fusion";
import { FUSION_SCALES } from "../../../src/scanner/forensics/region-fusion";
import {
  CONFIRMED_FRAME_THRESHOLDS,
  SEAM_THRESHOLDS,
  seamsAnalyzer,
  TONE_BOX_THRESHOLDS,
} from "../../../src/scanner/forensics/seams";
import type { BlockMaps } from "../../../src/scanner/images/block-analysis";
import localised from "../../fixtures/generated/localised/manifest.json";
import { context, generatedFile, scanFile } from "./fixtures";

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, t: { x: number; y: number; w: number; h: number }) =>
  a.x < t.x + t.w && t.x < a.x + a.width && a.y < t.y + t.h && t.y < a.y + a.height;

/** Block maps of `w` × `h` blocks whose JPEG-coefficient family reads `value(x, y)` (ELA and noise 0). */
function maps(w: number, h: number, value: (x: number, y: number) => number): { input: FusionInput; maps: BlockMaps } {
  const dq = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) dq[y * w + x] = value(x, y) * FUSION_SCALES.dq;
  const zeros = new Float32Array(w * h);
  return {
    input: { ela: zeros, noise: zeros, dq, ghost: null },
    maps: { width: w * 8, height: h * 8, blocksWide: w, blocksHigh: h } as BlockMaps,
  };
}

/** The inside box of 10 × 8 blocks at block (20, 12), in picture pixels. */
const box = { x: 160, y: 96, width: 80, height: 64 };
const inside = (x: number, y: number) => x >= 20 && x < 30 && y >= 12 && y < 20;

describe("a frame's inside standing out on an independent map (frame-interior.ts)", () => {
  it("an inside that reads higher than every other area of its size is named with its family and mean", () => {
    const m = maps(80, 60, (x, y) => (inside(x, y) ? 0.9 : ((x * 7 + y * 13) % 10) / 20));
    expect(interiorStanding(m.input, m.maps)(box)).toMatchObject({ family: "jpeg", mean: 0.9 });
  });

  it("not when one other area of the same size reads as high", () => {
    const m = maps(80, 60, (x, y) => (inside(x, y) || (x >= 50 && x < 60 && y >= 40 && y < 48) ? 0.9 : 0));
    expect(interiorStanding(m.input, m.maps)(box)).toBeNull();
  });

  it("not when the inside's mean stays under the minimum, however alone it stands", () => {
    const low = INTERIOR_THRESHOLDS.minMean - 0.05;
    const m = maps(80, 60, (x, y) => (inside(x, y) ? low : 0));
    expect(interiorStanding(m.input, m.maps)(box)).toBeNull();
  });

  it("not when the picture holds too few other areas of that size to compare with", () => {
    const m = maps(32, 22, (x, y) => (inside(x, y) ? 2 : 0));
    expect(interiorStanding(m.input, m.maps)(box)).toBeNull();
  });
});

describe("cut edges confirmed by a map (seams 1.2, SEAM_FRAME_CONFIRMED)", () => {
  it("a brightness change whose tone box is too weak alone is reported Yellow on the true area, naming the map", async () => {
    const truth = localised.cases.find((c) => c.file === "bright.jpg")?.region;
    const r = await seamsAnalyzer.analyze(
      scanFile("bright.jpg", await generatedFile("localised/bright.jpg")),
      context(),
    );
    const f = r.findings[0];
    expect([f.code, f.level]).toEqual(["SEAM_FRAME_CONFIRMED", "Yellow"]);
    const evidence = f.evidence as { region: Box; toneBox: { score: number }; confirmedBy: { family: string } };
    expect(evidence.toneBox.score).toBeLessThan(TONE_BOX_THRESHOLDS.yellow);
    expect(evidence.toneBox.score).toBeGreaterThanOrEqual(CONFIRMED_FRAME_THRESHOLDS.toneBox);
    expect(evidence.confirmedBy.family).toBe("jpeg");
    expect(truth && overlaps(evidence.region, truth)).toBe(true);
    expect(f.explanation).toMatch(/JPEG coefficients/);
  });

  it("a weak frame of step shares is confirmed the same way (a copy pasted 3 px off the grid)", async () => {
    const r = await seamsAnalyzer.analyze(scanFile("c.jpg", await generatedFile("copymove/Dune.jpg")), context());
    const f = r.findings[0];
    expect(f.code).toBe("SEAM_FRAME_CONFIRMED");
    const { strongest, region } = f.evidence as { strongest: { score: number }; region: Box };
    expect(strongest.score).toBeLessThan(SEAM_THRESHOLDS.yellow);
    expect(region).toEqual({ x: 223, y: 254, width: 86, height: 74 });
  });

  it("the untouched re-save of the same picture stays Green", async () => {
    const r = await seamsAnalyzer.analyze(scanFile("r.jpg", await generatedFile("localised/resave.jpg")), context());
    expect([r.findings[0].code, r.findings[0].level]).toEqual(["SEAM_NONE", "Green"]);
  });
});

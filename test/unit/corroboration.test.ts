import { describe, expect, it } from "vitest";
import { corroboratedRegions } from "../../src/scanner/analysis/corroboration";
import type { Finding } from "../../src/scanner/types";

const region = (code: string, level: Finding["level"], box: { x: number; y: number; width: number; height: number }) =>
  ({ code, level, title: code, explanation: code, evidence: { region: box } }) as Finding;

describe("two independent detectors on one region count more than either alone (docs/forensics.md, Levels)", () => {
  it("ELA and noise flagging overlapping areas give a Red REGION_CORROBORATED naming both, in the request's language", () => {
    const [f] = corroboratedRegions(
      [
        region("ELA_REGION", "Yellow", { x: 100, y: 100, width: 200, height: 200 }),
        region("NOISE_REGION", "Yellow", { x: 150, y: 120, width: 180, height: 160 }),
      ],
      "de",
    );
    expect(f).toMatchObject({
      code: "REGION_CORROBORATED",
      level: "Red",
      evidence: { detectors: ["ELA_REGION", "NOISE_REGION"] },
    });
    expect(f.explanation).toContain("Fehlerstufenanalyse (ELA) und Rauschanalyse");
    expect(f.explanation).not.toMatch(/ and |noise/);
  });

  it("an earlier JPEG grid off the last save's counts apart from the quantisation maps", () => {
    const ghost = region("JPEG_GHOST_REGION", "Yellow", { x: 40, y: 40, width: 120, height: 120 });
    const grid = region("JPEG_GRID_REGION", "Yellow", { x: 48, y: 48, width: 96, height: 96 });
    const [f] = corroboratedRegions([ghost, grid], "pl");
    expect(f?.evidence).toMatchObject({ detectors: ["JPEG_GHOST_REGION", "JPEG_GRID_REGION"] });
    expect(f.explanation).toContain("analiza duchów JPEG i analiza wcześniejszych siatek JPEG");
  });

  it("cut edges framing the area a quantisation map flags count as a second, independent detector", () => {
    const dq = region("JPEG_DQ_REGION", "Yellow", { x: 480, y: 184, width: 264, height: 192 });
    const seam = region("SEAM_RECTANGLE", "Yellow", { x: 486, y: 186, width: 252, height: 188 });
    const [f] = corroboratedRegions([dq, seam], "en");
    expect(f?.level).toBe("Red");
    expect(f.evidence).toMatchObject({ detectors: ["JPEG_DQ_REGION", "SEAM_RECTANGLE"] });
    expect(f.explanation).toContain("double-quantisation analysis and cut-edge check");
  });

  it("regions apart, a Green summary's region, or one detector alone give nothing", () => {
    const ela = region("ELA_REGION", "Yellow", { x: 0, y: 0, width: 64, height: 64 });
    expect(
      corroboratedRegions([ela, region("NOISE_REGION", "Yellow", { x: 500, y: 500, width: 64, height: 64 })], "en"),
    ).toEqual([]);
    expect(
      corroboratedRegions([ela, region("NOISE_UNIFORM", "Green", { x: 0, y: 0, width: 64, height: 64 })], "en"),
    ).toEqual([]);
    expect(corroboratedRegions([ela], "en")).toEqual([]);
  });

  it("a small region inside a large one counts when it overlaps by half of the smaller", () => {
    const found = corroboratedRegions(
      [
        region("COPY_MOVE_FOUND", "Red", { x: 0, y: 0, width: 1000, height: 800 }),
        region("ELA_REGION", "Yellow", { x: 990, y: 10, width: 40, height: 40 }),
      ],
      "pl",
    );
    expect(found).toEqual([]); // 10 of 40 px wide inside: a quarter of the smaller region
    const inside = corroboratedRegions(
      [
        region("COPY_MOVE_FOUND", "Red", { x: 0, y: 0, width: 1000, height: 800 }),
        region("ELA_REGION", "Yellow", { x: 960, y: 10, width: 40, height: 40 }),
      ],
      "pl",
    );
    expect(inside[0]?.title).toBe("Dwie kontrole wskazują ten sam obszar");
  });
});

import { describe, expect, it } from "vitest";
import { FUSION_SCALES, fusedScores, regionFusionAnalyzer } from "../../../src/scanner/forensics/region-fusion";
import { corroboratedRegions } from "../../../src/scanner/analysis/corroboration";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";
import manifest from "../../fixtures/generated/manifest.json";
import localised from "../../fixtures/generated/localised/manifest.json";

type Region = { x: number; y: number; w: number; h: number };
const truth = (file: string) =>
  (manifest as { cases: { file: string; region: Region | null }[] }).cases.find((c) => c.file === file)
    ?.region as Region;
const overlaps = (r: { x: number; y: number; width: number; height: number }, t: Region) =>
  r.x < t.x + t.w && t.x < r.x + r.width && r.y < t.y + t.h && t.y < r.y + r.height;

/** One block per entry, each detector's score at `share` of its own block threshold. */
function maps(blocks: { ela?: number; elaLow?: number; noise?: number; dq?: number; ghost?: number }[]) {
  const of = (key: "ela" | "noise" | "dq" | "ghost", pick: (b: (typeof blocks)[number]) => number | undefined) =>
    Float32Array.from(blocks, (b) => {
      const share = pick(b);
      return share === undefined ? Number.NaN : share * FUSION_SCALES[key];
    });
  return {
    ela: Float32Array.from(blocks, (b) =>
      b.elaLow !== undefined ? -b.elaLow * FUSION_SCALES.elaLow : (b.ela ?? Number.NaN) * FUSION_SCALES.ela,
    ),
    noise: of("noise", (b) => b.noise),
    dq: of("dq", (b) => b.dq),
    ghost: of("ghost", (b) => b.ghost),
  };
}

describe("fused map: a block counts what at least two independent detectors reach", () => {
  it("is the second-highest family score, each detector on the scale of its own block threshold", () => {
    const fused = fusedScores(
      maps([
        { ela: 1.2, noise: 0.8, dq: 0.1 },
        { ela: 2, noise: 0.1, dq: 0.1 },
      ]),
      FUSION_SCALES,
    );
    expect(fused[0]).toBeCloseTo(0.8, 5);
    // One detector alone, however strong, is not agreement.
    expect(fused[1]).toBeCloseTo(0.1, 5);
  });

  it("double quantisation and JPEG ghosts read the same coefficients: together they are one family", () => {
    const fused = fusedScores(maps([{ ela: 0, noise: 0, dq: 3, ghost: 3 }]), FUSION_SCALES);
    expect(fused[0]).toBeCloseTo(0, 5);
  });

  it("an area that reacts far less to re-compression than its peers (blurred) counts for ELA", () => {
    const fused = fusedScores(maps([{ elaLow: 1, noise: 0.9 }]), FUSION_SCALES);
    expect(fused[0]).toBeCloseTo(0.9, 5);
  });

  it("a block fewer than two families judge has no fused score", () => {
    const fused = fusedScores(maps([{ ela: 2 }]), FUSION_SCALES);
    expect(Number.isNaN(fused[0])).toBe(true);
  });
});

describe("FUSION_REGION on generated edits and camera originals", () => {
  it("a blurred rectangle: ELA (less re-compression error) and noise agree on it, with a heatmap", async () => {
    const r = await regionFusionAnalyzer.analyze(
      scanFile("blur.jpg", await generatedFile("blur/leuvenB.jpg")),
      context(),
    );
    const f = r.findings[0];
    expect(f.code).toBe("FUSION_REGION");
    expect(["Yellow", "Red"]).toContain(f.level);
    const evidence = f.evidence as {
      region: { x: number; y: number; width: number; height: number };
      families: Record<string, number>;
    };
    expect(overlaps(evidence.region, truth("blur/leuvenB.jpg"))).toBe(true);
    expect(evidence.families.ela).toBeGreaterThanOrEqual(0.7);
    expect(evidence.families.noise).toBeGreaterThanOrEqual(0.7);
    expect(f.explanation).toContain("error level analysis (ELA)");
    expect(r.attachments?.map((a) => a.name)).toEqual(["blur.jpg.region-fusion.png"]);
  });

  it("a spliced patch: the JPEG coefficients and ELA agree on it; the finding is not a second detector for corroboration", async () => {
    const spliced = localised.cases.find((c) => c.file === "splice.jpg")?.region as Region;
    const r = await regionFusionAnalyzer.analyze(
      scanFile("splice.jpg", await generatedFile("localised/splice.jpg")),
      context({ language: "de" }),
    );
    const f = r.findings[0];
    expect(f.code).toBe("FUSION_REGION");
    expect(
      overlaps((f.evidence as { region: { x: number; y: number; width: number; height: number } }).region, spliced),
    ).toBe(true);
    expect(f.explanation).toContain("JPEG-Koeffizienten");
    // REGION_CORROBORATED needs two independent detectors' own findings, not the fusion plus one of its inputs.
    const ela = { ...f, code: "ELA_REGION" as const, level: "Yellow" as const };
    expect(corroboratedRegions([f, ela], "en")).toEqual([]);
  });

  it("camera originals and plain re-saves are Green", async () => {
    for (const bytes of [
      await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg"),
      await sharedFile("exif-samples/jpg/hdr/canon_hdr_NO.jpg"),
      await generatedFile("resave/leuvenB.jpg"),
      await generatedFile("localised/resave.jpg"),
    ]) {
      const r = await regionFusionAnalyzer.analyze(scanFile("x.jpg", bytes), context());
      expect(r.findings.map((f) => `${f.code}:${f.level}`)).toEqual(["FUSION_UNIFORM:Green"]);
    }
  });

  it("a picture it cannot read is '-' with a reason", async () => {
    const bytes = (await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg")).subarray(0, 600);
    const r = await regionFusionAnalyzer.analyze(scanFile("cut.jpg", bytes), context());
    expect(r.assessed).toBe(false);
    expect(r.findings.map((f) => `${f.code}:${f.level}`)).toEqual(["FUSION_NOT_ASSESSED:-"]);
  });
});

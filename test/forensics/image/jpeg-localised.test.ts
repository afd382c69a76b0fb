import { describe, expect, it } from "vitest";
import { corroboratedRegions } from "../../../src/scanner/analysis/corroboration";
import { fitFrequency } from "../../../src/scanner/forensics/double-quantisation";
import { jpegDqAnalyzer } from "../../../src/scanner/forensics/jpeg-dq";
import { jpegGhostAnalyzer } from "../../../src/scanner/forensics/jpeg-ghost";
import type { Analyzer, Finding } from "../../../src/scanner/types";
import manifest from "../../fixtures/generated/localised/manifest.json";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

// Fixtures: scripts/datagen/localised_jpeg.py (a camera crop saved again at quality 92: as it is,
// with a patch of another photo pasted off the grid, with a rectangle brightened).
type Box = { x: number; y: number; w: number; h: number };
const truth = (name: string) =>
  (manifest as { cases: { file: string; region: Box | null }[] }).cases.find((c) => c.file === name)?.region as Box;

async function run(analyzer: Analyzer, name: string, bytes: Uint8Array, language: "en" | "de" | "pl" = "en") {
  return analyzer.analyze(scanFile(name, bytes), context({ language }));
}

const localised = (name: string) => generatedFile(`localised/${name}`);

function overlaps(f: Finding, t: Box): boolean {
  const r = f.evidence.region as { x: number; y: number; width: number; height: number };
  return r.x < t.x + t.w && t.x < r.x + r.width && r.y < t.y + t.h && t.y < r.y + r.height;
}

/** Deterministic Laplacian samples (inverse CDF over a fixed grid of probabilities). */
function laplacian(count: number, scale: number): number[] {
  return Array.from({ length: count }, (_, i) => {
    const u = (i + 0.5) / count - 0.5;
    return -scale * Math.sign(u) * Math.log(1 - 2 * Math.abs(u));
  });
}

function histogram(values: number[], range: number): Int32Array {
  const h = new Int32Array(2 * range + 1);
  for (const v of values) if (Math.abs(v) <= range) h[v + range]++;
  return h;
}

describe("double-quantisation model: the first quantisation step is read from a histogram", () => {
  const samples = laplacian(40_000, 12);
  it("finds step 5 in values quantised with 5, decoded and quantised with 3", () => {
    const twice = samples.map((y) => Math.round((5 * Math.round(y / 5)) / 3));
    const fit = fitFrequency(histogram(twice, 64), 3, 64);
    expect(fit.q1).toBe(5);
    expect(fit.alpha).toBeGreaterThan(0.9);
    expect((fit.gain / fit.count) * 1000).toBeGreaterThan(50);
  });

  it("takes the real step 3, not its multiple 6, for values quantised with 3 then 2", () => {
    const twice = samples.map((y) => Math.round((3 * Math.round(y / 3)) / 2));
    expect(fitFrequency(histogram(twice, 64), 2, 64).q1).toBe(3);
  });

  it("finds no meaningful double quantisation in values quantised once", () => {
    const once = samples.map((y) => Math.round(y / 3));
    const fit = fitFrequency(histogram(once, 64), 3, 64);
    expect((fit.gain / Math.max(1, fit.count)) * 1000).toBeLessThan(8);
  });
});

describe("JPEG_DQ: areas without the traces of the earlier JPEG save", () => {
  it("marks the patch pasted off the grid, where the truth is", async () => {
    const r = await run(jpegDqAnalyzer, "splice.jpg", await localised("splice.jpg"));
    const f = r.findings[0];
    expect(f.code).toBe("JPEG_DQ_REGION");
    expect(["Yellow", "Red"]).toContain(f.level);
    expect(overlaps(f, truth("splice.jpg"))).toBe(true);
    expect(r.metadata?.frequenciesWithDoubleQuantisation).toBeGreaterThanOrEqual(3);
  });

  it("marks the brightened rectangle, where the truth is", async () => {
    const f = (await run(jpegDqAnalyzer, "bright.jpg", await localised("bright.jpg"))).findings[0];
    expect(f.code).toBe("JPEG_DQ_REGION");
    expect(overlaps(f, truth("bright.jpg"))).toBe(true);
  });

  it("is uniform (Green) on the same crop saved again without an edit, with a heatmap", async () => {
    const r = await run(jpegDqAnalyzer, "resave.jpg", await localised("resave.jpg"));
    expect(r.findings[0]).toMatchObject({ code: "JPEG_DQ_UNIFORM", level: "Green" });
    const png = r.attachments?.[0];
    expect(png).toMatchObject({ category: "heatmaps", name: "resave.jpg.dq.png", contentType: "image/png" });
    expect([...(png?.bytes.subarray(1, 4) ?? [])]).toEqual([0x50, 0x4e, 0x47]);
  });

  it("says there is nothing to localise on a camera original saved once (Green)", async () => {
    const bytes = await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg");
    const f = (await run(jpegDqAnalyzer, "DSCN0010.jpg", bytes)).findings[0];
    expect(f).toMatchObject({ code: "JPEG_DQ_NONE", level: "Green" });
  });
});

describe("JPEG_GHOST: areas with a ghost of their own", () => {
  it("marks the patch pasted off the grid, where the truth is", async () => {
    const r = await run(jpegGhostAnalyzer, "splice.jpg", await localised("splice.jpg"));
    const f = r.findings[0];
    expect(f.code).toBe("JPEG_GHOST_REGION");
    expect(["Yellow", "Red"]).toContain(f.level);
    expect(overlaps(f, truth("splice.jpg"))).toBe(true);
    expect(typeof f.evidence.quality).toBe("number");
    expect(r.attachments?.[0].name).toBe("splice.jpg.ghost.png");
  });

  it("is uniform (Green) on the crop saved again without an edit", async () => {
    const f = (await run(jpegGhostAnalyzer, "resave.jpg", await localised("resave.jpg"))).findings[0];
    expect(f).toMatchObject({ code: "JPEG_GHOST_UNIFORM", level: "Green" });
  });
});

describe("files the coefficient analysis cannot read are `-` with the reason in the request's language", () => {
  it("a PNG is not a JPEG", async () => {
    const bytes = await generatedFile("png/rgb-8bit.png");
    for (const analyzer of [jpegDqAnalyzer, jpegGhostAnalyzer]) {
      const r = await run(analyzer, "rgb.png", bytes, "de");
      expect(r.assessed).toBe(false);
      expect(r.findings[0].level).toBe("-");
      expect(r.findings[0].code).toMatch(/^JPEG_(DQ|GHOST)_NOT_ASSESSED$/);
      expect(r.findings[0].explanation).toContain("kein JPEG");
    }
  });

  it("a JPEG coded in a way it cannot read (arithmetic) is named as such, in Polish without English words", async () => {
    const bytes = await generatedFile("progressive/arithmetic.jpg");
    const f = (await run(jpegDqAnalyzer, "p.jpg", bytes, "pl")).findings[0];
    expect(f).toMatchObject({ code: "JPEG_DQ_NOT_ASSESSED", level: "-" });
    expect(f.explanation).toContain("arytmetycznie");
    expect(f.explanation).not.toMatch(/baseline|coefficients|decoded/);
  });

  it("a truncated JPEG is damaged", async () => {
    const whole = await localised("resave.jpg");
    const f = (await run(jpegGhostAnalyzer, "cut.jpg", whole.slice(0, whole.length >> 1))).findings[0];
    expect(f).toMatchObject({ code: "JPEG_GHOST_NOT_ASSESSED", level: "-" });
  });
});

describe("corroboration: the two maps read the same coefficients, so together they are one observation", () => {
  it("double quantisation and ghosts on the same patch do not corroborate each other; with noise they do", async () => {
    const bytes = await localised("splice.jpg");
    const dq = (await run(jpegDqAnalyzer, "splice.jpg", bytes, "pl")).findings[0];
    const ghost = (await run(jpegGhostAnalyzer, "splice.jpg", bytes, "pl")).findings[0];
    expect([dq.code, ghost.code]).toEqual(["JPEG_DQ_REGION", "JPEG_GHOST_REGION"]);
    expect(corroboratedRegions([dq, ghost], "pl")).toEqual([]);
    const r = dq.evidence.region as { x: number; y: number; width: number; height: number };
    const noise = {
      code: "NOISE_REGION",
      level: "Yellow",
      title: "",
      explanation: "",
      evidence: { region: { x: r.x, y: r.y, width: r.width, height: r.height } },
    } as Finding;
    const [f] = corroboratedRegions([dq, ghost, noise], "pl");
    expect(f).toMatchObject({ code: "REGION_CORROBORATED", level: "Red" });
    expect(f.explanation).toContain("analiza podwójnej kwantyzacji");
  });
});

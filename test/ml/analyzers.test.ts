/**
 * The learned detectors as analyzers: what reaches a model, how a failing model degrades, and what a
 * finding and heatmap look like. (Runs onnxruntime-web; kept apart from the other test files.)
 */
import { describe, expect, it } from "vitest";
import { analyzerSets } from "../../src/scanner/analysis/analyzer-sets";
import { analyzers } from "../../src/scanner/forensics/registry";
import { createManipulationAnalyzer, manipulationAnalyzer } from "../../src/scanner/forensics/manipulation-model";
import { createRecaptureAnalyzer, recaptureAnalyzer } from "../../src/scanner/forensics/recapture-model";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { manipulationModel, recaptureModel, type ModelFile } from "../../src/scanner/ml/models";
import { inferenceRuns } from "../../src/scanner/ml/ort";
import { RECAPTURE_THRESHOLDS } from "../../src/scanner/ml/thresholds";
import { runPipeline } from "../../src/scanner/analysis/pipeline";
import type { Attachment } from "../../src/scanner/types";
import { context, fixturePng, scanFile, sharedFile } from "./fixtures";

const brokenModel = (model: ModelFile): ModelFile => ({
  identity: { ...model.identity, name: `${model.identity.name}-broken` },
  bytes: new TextEncoder().encode("this is not an ONNX model").buffer as ArrayBuffer,
  fullSha256: `broken-${model.fullSha256}`,
});

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

describe("both learned detectors are registered with their model identity", () => {
  it("carry name, version and a 12-digit sha256 prefix for modelVersions", () => {
    for (const [analyzer, model] of [
      [recaptureAnalyzer, recaptureModel],
      [manipulationAnalyzer, manipulationModel],
    ] as const) {
      expect(analyzers).toContain(analyzer);
      expect(analyzer.model).toEqual(model.identity);
      expect(analyzer.model?.sha256).toMatch(/^[0-9a-f]{12}$/);
    }
  });

  it("the default set runs the recapture model; the manipulation model only in all+manipulation-model", async () => {
    const all = await analyzerSets.pick("all")();
    expect(all).toContain(recaptureAnalyzer);
    expect(all).not.toContain(manipulationAnalyzer);
    expect(await analyzerSets.pick("all+manipulation-model")()).toEqual(analyzers);
  });
});

describe("a corrupt or unsupported image never reaches a model", () => {
  const cases = [
    {
      what: "truncated JPEG (exif-samples corrupted.jpg)",
      file: () => scanFile("corrupted.jpg", sharedFile("exif-samples/jpg/corrupted.jpg"), "jpeg"),
    },
    {
      what: "JPEG cut after its header",
      file: () => scanFile("cut.jpg", sharedFile("photos/opencv-doc/board.jpg").slice(0, 2000), "jpeg"),
    },
    {
      what: "PNG with nothing after the signature",
      file: () => scanFile("empty.png", new Uint8Array([...PNG_SIGNATURE, 0x0d, 0x0a, 0x1a, 0x0a]), "png"),
    },
    { what: "PNG header claiming 100000 × 100000 pixels", file: () => scanFile("bomb.png", hugePngHeader(), "png") },
  ];
  for (const { what, file } of cases) {
    it(`${what}: level '-' finding, no inference`, async () => {
      const before = inferenceRuns();
      for (const analyzer of [recaptureAnalyzer, manipulationAnalyzer]) {
        const result = await analyzer.analyze(file(), context);
        expect(result.assessed).toBe(false);
        expect(result.findings).toHaveLength(1);
        expect(result.findings[0].level).toBe("-");
        expect(result.findings[0].code).toMatch(/_NOT_ASSESSED$/);
      }
      expect(inferenceRuns()).toBe(before);
    });
  }

  it("PDF, HEIC, TIFF and unknown files are not offered to the models at all (HEIC and TIFF pages are, as PNG sub-files)", () => {
    for (const kind of ["pdf", "heic", "tiff", "unknown"] as const) {
      expect(recaptureAnalyzer.appliesTo(scanFile("x", new Uint8Array(10), kind))).toBe(false);
      expect(manipulationAnalyzer.appliesTo(scanFile("x", new Uint8Array(10), kind))).toBe(false);
    }
  });
});

describe("a model failure degrades to '-' for that detector, not a failed request", () => {
  it("an unloadable model gives a '-' finding naming the model", async () => {
    const photo = scanFile("leuvenA.jpg", sharedFile("photos/opencv-doc/leuvenA.jpg"), "jpeg");
    for (const analyzer of [
      createRecaptureAnalyzer(brokenModel(recaptureModel)),
      createManipulationAnalyzer(brokenModel(manipulationModel)),
    ]) {
      const result = await analyzer.analyze(photo, context);
      expect(result.assessed).toBe(false);
      expect(result.findings[0]).toMatchObject({ level: "-", code: expect.stringMatching(/_MODEL_FAILED$/) });
      expect(result.findings[0].explanation).toContain("-broken");
    }
  });

  it("in the pipeline the file keeps the other detectors' level and the request completes", async () => {
    const photo = scanFile("leuvenA.jpg", sharedFile("photos/opencv-doc/leuvenA.jpg"), "jpeg");
    async function* items() {
      yield { ok: true as const, file: photo };
    }
    const stored: Attachment[] = [];
    const result = await runPipeline(items(), context, async (a) => (stored.push(a), `${a.category}/${a.name}`), [
      thumbnailAnalyzer,
      createRecaptureAnalyzer(brokenModel(recaptureModel)),
    ]);
    const file = result.Files["leuvenA.jpg"];
    expect(file.suspicion_level).toBe("Green");
    expect(file.findings.map((f) => [f.code, f.level])).toContainEqual(["RECAPTURE_MODEL_FAILED", "-"]);
  });
});

describe("recapture analyzer on real bytes", () => {
  it("a real (held-out) photo stays below Yellow and gets a Green verdict and a PNG heatmap", async () => {
    const result = await recaptureAnalyzer.analyze(
      scanFile("real-crop.png", fixturePng("real-crop.png"), "png"),
      context,
    );
    expect(result.assessed).toBe(true);
    expect(result.findings[0].code).toBe("RECAPTURE_NOT_FOUND");
    expect(result.metadata?.probability).toBeLessThan(RECAPTURE_THRESHOLDS.yellow);
    expect(Array.from(result.attachments?.[0].bytes.slice(0, 4) ?? [])).toEqual(PNG_SIGNATURE);
  });

  it("simulated screen photos are flagged, with the examined share in the explanation", async () => {
    const result = await recaptureAnalyzer.analyze(
      scanFile("screen-tiles.png", fixturePng("screen-tiles.png"), "png"),
      context,
    );
    expect(result.findings[0].code).toBe("RECAPTURE_SUSPECTED");
    expect(["Yellow", "Red"]).toContain(result.findings[0].level);
    expect(result.findings[0].explanation).toMatch(/\d+ of \d+ examined image areas/);
  });

  it("an image smaller than one 128 px patch is not assessed", async () => {
    const tiny = scanFile("tiny.png", fixturePng("tiny.png"), "png");
    const result = await recaptureAnalyzer.analyze(tiny, context);
    expect(result).toMatchObject({ assessed: false, findings: [{ level: "-", code: "RECAPTURE_NOT_ASSESSED" }] });
  });
});

describe("manipulation analyzer on real bytes", () => {
  it("gives a verdict, a score and a heatmap PNG with hatched unjudgeable areas", async () => {
    const result = await manipulationAnalyzer.analyze(
      scanFile("screen-tiles.png", fixturePng("screen-tiles.png"), "png"),
      context,
    );
    expect(result.assessed).toBe(true);
    expect(["MANIPULATION_MODEL_CLEAR", "MANIPULATION_MODEL_REGION"]).toContain(result.findings[0].code);
    const meta = result.metadata as { score: number; judgedShare: number };
    expect(meta.score).toBeGreaterThanOrEqual(0);
    expect(meta.score).toBeLessThanOrEqual(1);
    // The fixture's bottom band is flat grey: it must count as "cannot judge", not as clean.
    expect(meta.judgedShare).toBeLessThan(0.85);
    expect(Array.from(result.attachments?.[0].bytes.slice(0, 4) ?? [])).toEqual(PNG_SIGNATURE);
  });
});

/** A syntactically valid PNG signature + IHDR announcing 100000 × 100000 pixels, and nothing else. */
function hugePngHeader(): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, 100_000);
  new DataView(bytes.buffer).setUint32(20, 100_000);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

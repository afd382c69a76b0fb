/**
 * Non-interlaced PNGs larger than photon's pixel cap are streamed like baseline JPEGs: a PNG made
 * from the 12.2 MP test JPEG's own pixels must give the same thumbnail and the same model scores as
 * the JPEG, and block maps (ELA, noise, copy-move) built from its rows.
 * (Runs onnxruntime-web; kept apart from the other test files.)
 */
import { describe, expect, it } from "vitest";
import { elaAnalyzer } from "../../src/scanner/forensics/ela";
import { manipulationAnalyzer } from "../../src/scanner/forensics/manipulation-model";
import { noiseAnalyzer } from "../../src/scanner/forensics/noise";
import { recaptureAnalyzer } from "../../src/scanner/forensics/recapture-model";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { blockMaps } from "../../src/scanner/images/block-analysis";
import { MAX_PIXEL_DECODE } from "../../src/scanner/images/pixel-budget";
import { encodePng } from "../../src/scanner/images/png-encode";
import { decodeToSource } from "../../src/scanner/ml/raster";
import { context, scanFile, sharedFile } from "./fixtures";

/** 4032 × 3024 (12.2 MP) baseline JPEG: twice photon's cap. */
const LARGE = "exif-samples/jpg/tests/42_IndexError.jpg";

let cached: { jpeg: Uint8Array; png: Uint8Array } | null = null;

/** The JPEG, and an RGB PNG of exactly the pixels the strip decoder gives for it. */
function pair(): { jpeg: Uint8Array; png: Uint8Array } {
  if (cached) return cached;
  const jpeg = sharedFile(LARGE);
  const source = decodeToSource(jpeg);
  const rgb = new Uint8Array(source.width * source.height * 3);
  const rgba = source.rows(0, source.height);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) rgb.set(rgba.subarray(i, i + 3), o);
  source.close();
  cached = { jpeg, png: encodePng(rgb, source.width, source.height, 3) };
  return cached;
}

const png = () => scanFile("large.png", pair().png, "png");
const jpeg = () => scanFile("large.jpg", pair().jpeg, "jpeg");

describe("a non-interlaced PNG above photon's pixel cap", () => {
  it("is over the cap", () => {
    expect(4032 * 3024).toBeGreaterThan(MAX_PIXEL_DECODE);
  });

  it("gets the same thumbnail as the JPEG it was made from", async () => {
    const fromPng = await thumbnailAnalyzer.analyze(png(), context);
    const fromJpeg = await thumbnailAnalyzer.analyze(jpeg(), context);
    expect(fromPng.metadata).toMatchObject({ decodedWidth: 4032, decodedHeight: 3024 });
    expect(fromPng.attachments![0].bytes).toEqual(fromJpeg.attachments![0].bytes);
  });

  it("is scored by both models exactly like the JPEG (same pixels in, same score out)", async () => {
    for (const analyzer of [recaptureAnalyzer, manipulationAnalyzer]) {
      const fromPng = await analyzer.analyze(png(), context);
      const fromJpeg = await analyzer.analyze(jpeg(), context);
      expect(fromPng.assessed, analyzer.id).toBe(true);
      expect(fromPng.findings.map((f) => [f.code, f.level, f.evidence])).toEqual(
        fromJpeg.findings.map((f) => [f.code, f.level, f.evidence]),
      );
    }
  });

  it("gets block maps from its pixels whose block means match the JPEG's coefficients", async () => {
    const fromPng = await blockMaps(pair().png);
    const fromJpeg = await blockMaps(pair().jpeg);
    if (!fromPng.ok || !fromJpeg.ok) throw new Error("block maps failed");
    expect(fromPng.maps.source).toBe("pixels");
    expect([fromPng.maps.blocksWide, fromPng.maps.blocksHigh]).toEqual([504, 378]);
    let sum = 0;
    for (let i = 0; i < fromPng.maps.mean.length; i++) sum += Math.abs(fromPng.maps.mean[i] - fromJpeg.maps.mean[i]);
    // Luma recomputed from rounded RGB vs the JPEG's own Y: within a grey level on average.
    expect(sum / fromPng.maps.mean.length).toBeLessThan(1);
  });

  it("is examined by error level and noise analysis", async () => {
    for (const analyzer of [elaAnalyzer, noiseAnalyzer]) {
      const result = await analyzer.analyze(png(), context);
      expect(result.assessed, analyzer.id).toBe(true);
      expect(result.attachments?.length, analyzer.id).toBeGreaterThan(0);
    }
  });
});

describe("damage in a large PNG is reported, never thrown", () => {
  const cut = () => {
    const bytes = pair().png;
    return scanFile("cut.png", bytes.slice(0, Math.floor(bytes.length * 0.7)), "png");
  };

  it("the thumbnail gate reports `IMAGE_UNDECODABLE` and both models `undecodable`", async () => {
    expect(await thumbnailAnalyzer.analyze(cut(), context)).toMatchObject({
      assessed: false,
      findings: [{ code: "IMAGE_UNDECODABLE", level: "-" }],
    });
    for (const analyzer of [recaptureAnalyzer, manipulationAnalyzer]) {
      const result = await analyzer.analyze(cut(), context);
      expect(result.findings[0], analyzer.id).toMatchObject({ level: "-", evidence: { reason: "undecodable" } });
    }
  });

  it("the block maps say why they are missing", async () => {
    expect(await blockMaps(cut().bytes)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^image data is damaged: the image data ends in row \d+ of 3024/),
    });
  });
});

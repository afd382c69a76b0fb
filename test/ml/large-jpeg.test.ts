/**
 * Baseline JPEGs larger than photon's pixel cap reach the learned detectors and the thumbnail through
 * the streaming strip decoder; the row cursor the models read gives photon's pixels in any order.
 * (Runs onnxruntime-web; kept apart from the other test files.)
 */
import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { manipulationAnalyzer } from "../../src/scanner/forensics/manipulation-model";
import { recaptureAnalyzer } from "../../src/scanner/forensics/recapture-model";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { MAX_PIXEL_DECODE } from "../../src/scanner/images/pixel-budget";
import { decodeToSource } from "../../src/scanner/ml/raster";
import { context, scanFile, sharedFile } from "./fixtures";

/** 4032 × 3024 (12.2 MP), 4:2:2 with restart markers: twice photon's cap. */
const LARGE = "exif-samples/jpg/tests/42_IndexError.jpg";

/** Number of bytes that differ (toEqual on megabyte arrays is slow). */
function differing(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("the row cursor over a baseline JPEG", () => {
  it("returns photon's rows, forwards, skipping ahead and after going back up", () => {
    const bytes = sharedFile("photos/opencv-doc/leuvenA.jpg");
    const image = PhotonImage.new_from_byteslice(bytes);
    const reference = image.get_raw_pixels();
    image.free();
    const source = decodeToSource(bytes);
    const stride = source.width * 4;
    for (const [y, count] of [
      [0, 16],
      [5, 128],
      [300, 3],
      [400, 163],
      [10, 40],
      [0, source.height],
    ]) {
      expect(differing(source.rows(y, count), reference.subarray(y * stride, (y + count) * stride))).toBe(0);
    }
    source.close();
  });
});

describe("a baseline JPEG above photon's pixel cap", () => {
  const file = () => scanFile("large.jpg", sharedFile(LARGE), "jpeg");

  it("is over the cap that applies to interlaced PNG and progressive JPEG", () => {
    expect(4032 * 3024).toBeGreaterThan(MAX_PIXEL_DECODE);
  });

  it("gets a thumbnail of at most 320 px, made while streaming", async () => {
    const result = await thumbnailAnalyzer.analyze(file(), context);
    expect(result.assessed).toBe(true);
    expect(result.metadata).toMatchObject({ decodedWidth: 4032, decodedHeight: 3024 });
    expect(pngSize(result.attachments![0].bytes)).toEqual({ width: 320, height: 240 });
  });

  it("is scored by the recapture model with a heatmap", async () => {
    const result = await recaptureAnalyzer.analyze(file(), context);
    expect(result.assessed).toBe(true);
    expect(result.findings[0].code).toMatch(/^RECAPTURE_(NOT_FOUND|SUSPECTED)$/);
    expect(result.metadata).toMatchObject({ patchesScored: expect.any(Number) });
    expect(result.attachments?.[0].name).toBe("large.jpg.recapture.png");
  });

  it("is scored by the manipulation model with a heatmap", async () => {
    const result = await manipulationAnalyzer.analyze(file(), context);
    expect(result.assessed).toBe(true);
    expect(result.findings[0].code).toMatch(/^MANIPULATION_MODEL_(CLEAR|REGION)$/);
    expect(result.metadata).toMatchObject({ downscale: 4 });
    expect(result.attachments?.[0].name).toBe("large.jpg.manipulation.png");
  });
});

describe("damage behind a valid header is reported, never thrown", () => {
  const truncated = () => {
    const bytes = sharedFile(LARGE);
    return scanFile("cut.jpg", bytes.slice(0, Math.floor(bytes.length * 0.7)), "jpeg");
  };

  it("the thumbnail gate reports `IMAGE_UNDECODABLE`", async () => {
    const result = await thumbnailAnalyzer.analyze(truncated(), context);
    expect(result).toMatchObject({ assessed: false, findings: [{ code: "IMAGE_UNDECODABLE", level: "-" }] });
  });

  it("both models report `undecodable`, not a model failure", async () => {
    for (const analyzer of [recaptureAnalyzer, manipulationAnalyzer]) {
      const result = await analyzer.analyze(truncated(), context);
      expect(result.assessed).toBe(false);
      expect(result.findings[0]).toMatchObject({ level: "-", evidence: { reason: "undecodable" } });
    }
  });
});

describe("an image photon may not decode and no strip decoder reads (over the cap, interlaced PNG)", () => {
  it("has no thumbnail but does not close the gate: the other detectors still run", async () => {
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x0f, 0xa0, 0, 0, 0x0b,
      0xb8, 8, 6, 0, 0, 1, 0, 0, 0, 0,
    ]);
    const result = await thumbnailAnalyzer.analyze(scanFile("big.png", png, "png"), context);
    expect(result.assessed).toBe(true);
    expect(result.findings).toMatchObject([
      { code: "THUMBNAIL_TOO_LARGE", level: "-", evidence: { width: 4000, height: 3000, maxPixels: MAX_PIXEL_DECODE } },
    ]);
    expect(result.attachments).toBeUndefined();
  });
});

/**
 * Progressive JPEGs above photon's pixel cap get a thumbnail from their DC coefficients: one pixel
 * per 8×8 block, which is the full decode averaged over the block up to rounding, clipping and
 * chroma filtering.
 */
import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { thumbnailAnalyzer } from "../../../src/scanner/forensics/thumbnail";
import { type DcPreview, decodeDcPreview } from "../../../src/scanner/images/jpeg-dc-preview";
import { decodeDcCoefficients } from "../../../src/scanner/images/jpeg-dc-scans";
import { ScanDecoder } from "../../../src/scanner/images/jpeg-entropy";
import { type JpegFrame, parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { JpegDataError } from "../../../src/scanner/images/jpeg-strip-decoder";
import { MAX_PIXEL_DECODE, MAX_PROGRESSIVE_SCANS } from "../../../src/scanner/images/pixel-budget";
import { pngSize } from "../../../src/scanner/images/png-chunks";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";
import { withRepeatedLastScan } from "./progressive-fixtures";

/** 3840 × 2160 progressive 4:2:2 (8.3 MP): above photon's cap, small enough to load in workerd. */
const LARGE_PROGRESSIVE = "photos/mate-backgrounds/Elephants_3840x2160.jpg";

function preview(bytes: Uint8Array): DcPreview {
  const result = decodeDcPreview(bytes);
  if (typeof result === "string") throw new Error(result);
  return result;
}

/** Photon's full decode averaged over every 8×8 block (edge blocks over the pixels they have), RGB. */
function photonBlockMeans(bytes: Uint8Array): { width: number; height: number; rgb: Float64Array } {
  const image = PhotonImage.new_from_byteslice(bytes);
  const [w, h, pixels] = [image.get_width(), image.get_height(), image.get_raw_pixels()];
  image.free();
  const width = Math.ceil(w / 8);
  const height = Math.ceil(h / 8);
  const rgb = new Float64Array(width * height * 3);
  const counts = new Uint32Array(width * height);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const block = (y >> 3) * width + (x >> 3);
      for (let c = 0; c < 3; c++) rgb[block * 3 + c] += pixels[(y * w + x) * 4 + c];
      counts[block]++;
    }
  }
  for (let i = 0; i < rgb.length; i++) rgb[i] /= counts[Math.floor(i / 3)];
  return { width, height, rgb };
}

/** Per-channel |preview − block mean|: the mean, and the share of values off by more than 16. */
function differenceToBlockMeans(bytes: Uint8Array): { mean: number; farOff: number } {
  const ours = preview(bytes);
  const reference = photonBlockMeans(bytes);
  expect([ours.width, ours.height]).toEqual([reference.width, reference.height]);
  let sum = 0;
  let farOff = 0;
  for (let i = 0; i < reference.rgb.length; i++) {
    const d = Math.abs(ours.rgba[Math.floor(i / 3) * 4 + (i % 3)] - reference.rgb[i]);
    sum += d;
    if (d > 16) farOff++;
  }
  return { mean: sum / reference.rgb.length, farOff: farOff / reference.rgb.length };
}

/** Every block's quantised DC coefficient of a baseline file, per component, as `row,col` → value. */
function baselineDc(bytes: Uint8Array): Map<string, number>[] {
  const scan = ScanDecoder.open(bytes, parseJpegStructure(bytes));
  if (typeof scan === "string") throw new Error(scan);
  const planes = scan.components.map(() => new Map<string, number>());
  for (let row = 0; row < scan.mcusY; row++) {
    expect(
      scan.decodeRow((component, r, c, coefficients) => planes[component].set(`${r},${c}`, coefficients[0])),
    ).toBeNull();
  }
  return planes;
}

describe("DC scans of a progressive file give exactly the DC coefficients of its baseline original", () => {
  // jpegtran transcodes losslessly: the coefficients, including the refined low DC bits, are the same.
  for (const [progressive, baseline] of [
    ["progressive/separate-dc-restart.jpg", "restart-none.jpg"],
    ["progressive/grayscale.jpg", "grayscale.jpg"],
  ]) {
    it(`${progressive} = ${baseline}`, async () => {
      const bytes = await generatedFile(progressive);
      const structure = parseJpegStructure(bytes);
      const planes = decodeDcCoefficients(bytes, structure, structure.frame as JpegFrame);
      const expected = baselineDc(await generatedFile(baseline));
      expect(planes.length).toBe(expected.length);
      planes.forEach((plane, i) => {
        expect(plane.dc.length).toBe(expected[i].size);
        for (const [at, value] of expected[i]) {
          const [row, col] = at.split(",").map(Number);
          expect(plane.dc[row * plane.stride + col], `component ${i} block ${at}`).toBe(value);
        }
      });
    });
  }
});

describe("DC preview: one pixel per 8×8 block, close to photon's full decode averaged over the block", () => {
  const cases = [
    { what: "4:2:2, 487 × 121 (scenetext_word04)", file: () => sharedFile("photos/opencv-doc/scenetext_word04.jpg") },
    { what: "4:4:0, 234 × 74 (scenetext_word03)", file: () => sharedFile("photos/opencv-doc/scenetext_word03.jpg") },
    { what: "4:4:4, 897 × 708 (ela_modified)", file: () => sharedFile("photos/opencv-doc/ela_modified.jpg") },
    { what: "4:2:2, 200 × 133 (32-lens_data)", file: () => sharedFile("exif-samples/jpg/tests/32-lens_data.jpeg") },
    {
      what: "4:2:2, 2560 × 1600 (ColorfulCups)",
      file: () => sharedFile("photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg"),
    },
    {
      what: "grayscale, odd size 250 × 203 (jpegtran -progressive)",
      file: () => generatedFile("progressive/grayscale.jpg"),
    },
    {
      what: "4:2:0, one DC scan per component, Al = 1 with refinement, restart every 7 MCUs",
      file: () => generatedFile("progressive/separate-dc-restart.jpg"),
    },
  ];
  for (const { what, file } of cases) {
    it(what, async () => {
      // A misplaced block, a lost refinement bit or a wrong predictor reset is off by tens everywhere.
      const { mean, farOff } = differenceToBlockMeans(await file());
      expect(mean).toBeLessThan(3);
      expect(farOff).toBeLessThan(0.02);
    });
  }

  it("refuses baseline files (they have the strip decoder) and headers too large even for a preview", async () => {
    expect(decodeDcPreview(await generatedFile("grayscale.jpg"))).toBe("not a Huffman-coded progressive JPEG");
    const huge = (await generatedFile("progressive/grayscale.jpg")).slice();
    const sof = huge.findIndex((b, i) => b === 0xff && huge[i + 1] === 0xc2);
    huge.set([0xff, 0xff, 0xff, 0xff], sof + 5); // height, width = 65535
    expect(decodeDcPreview(huge)).toBe("too large even for a preview");
  });

  it("throws JpegDataError for a truncated file and for garbage in a DC scan", async () => {
    const bytes = await generatedFile("progressive/separate-dc-restart.jpg");
    expect(() => decodeDcPreview(bytes.subarray(0, bytes.length - 200))).toThrow(JpegDataError);
    const garbled = bytes.slice();
    const sos = garbled.findIndex((b, i) => b === 0xff && garbled[i + 1] === 0xda);
    const dataStart = sos + 2 + ((garbled[sos + 2] << 8) | garbled[sos + 3]);
    // The first DC scan's data cut short: the next marker follows after a few bytes.
    garbled.set([0xff, 0xd9], dataStart + 4);
    expect(() => decodeDcPreview(garbled)).toThrow(JpegDataError);
  });
});

describe("thumbnail analyzer: a progressive JPEG above photon's cap that the strip decoder refuses is shrunk from its DC preview", () => {
  it("gives a 320 px thumbnail and says where it came from", async () => {
    // More scans than the strip decoder walks (MAX_PROGRESSIVE_SCANS); the DC preview skips every AC scan.
    const bytes = withRepeatedLastScan(await sharedFile(LARGE_PROGRESSIVE), MAX_PROGRESSIVE_SCANS + 1);
    expect(3840 * 2160).toBeGreaterThan(MAX_PIXEL_DECODE);
    const result = await thumbnailAnalyzer.analyze(scanFile("elephants.jpg", bytes), context());
    expect(result).toMatchObject({
      assessed: true,
      findings: [],
      metadata: { decodedWidth: 3840, decodedHeight: 2160, thumbnailSource: "dc-preview" },
    });
    expect(pngSize(result.attachments![0].bytes)).toEqual({ width: 320, height: 180 });
  });

  it("reports a truncated one as undecodable and closes the gate", async () => {
    const bytes = await sharedFile(LARGE_PROGRESSIVE);
    const result = await thumbnailAnalyzer.analyze(
      scanFile("cut.jpg", bytes.subarray(0, bytes.length >> 1)),
      context(),
    );
    expect(result).toMatchObject({ assessed: false, findings: [{ code: "IMAGE_UNDECODABLE", level: "-" }] });
  });
});

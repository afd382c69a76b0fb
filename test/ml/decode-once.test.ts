/**
 * Decode once per file (issue 18): in the pipeline, the thumbnail, both models and copy-move read one
 * shared pixel decode (src/scanner/images/file-decode.ts), and every result is the one each detector
 * gets when it decodes the file by itself. (Runs onnxruntime-web; kept with the other model tests.)
 */
import { afterEach, describe, expect, it } from "vitest";
import { analyzeFile } from "../../src/scanner/analysis/pipeline";
import { analyzers } from "../../src/scanner/forensics/registry";
import { decodesOf } from "../../src/scanner/images/decode-count";
import { useSharedDecode } from "../../src/scanner/images/file-decode";
import type { Attachment, ScanFile } from "../../src/scanner/types";
import { fixture } from "../forensics/image/format-fixtures";
import { generatedFile } from "../forensics/image/fixtures";
import { context, fixturePng, scanFile, sharedFile } from "./fixtures";

async function analyzed(file: ScanFile) {
  const attachments: Attachment[] = [];
  const { result } = await analyzeFile(
    file,
    context,
    async (a) => {
      attachments.push(a);
      return `${a.category}/${a.name}`;
    },
    analyzers,
  );
  return { result, attachments, decodes: decodesOf(file.bytes) };
}

/** The same file through every registered analyzer, shared decode on (as in production) and off (the reference). */
async function bothWays(file: () => ScanFile | Promise<ScanFile>) {
  const shared = await analyzed(await file());
  useSharedDecode(false);
  try {
    return { shared, reference: await analyzed(await file()) };
  } finally {
    useSharedDecode(true);
  }
}

afterEach(() => useSharedDecode(true));

const files = [
  {
    what: "baseline JPEG with an EXIF preview (leuvenA.jpg, 751 × 563)",
    file: () => scanFile("leuvenA.jpg", sharedFile("photos/opencv-doc/leuvenA.jpg"), "jpeg"),
  },
  {
    what: "progressive JPEG (ela_original.jpg, 897 × 708)",
    file: () => scanFile("ela_original.jpg", sharedFile("photos/opencv-doc/ela_original.jpg"), "jpeg"),
  },
  { what: "8-bit RGB PNG (400 × 300)", file: () => scanFile("crop.png", fixturePng("real-crop.png"), "png") },
  // Not streamed: photon decodes them once for every product (streamed-image.ts openPixels).
  { what: "lossy WebP (leuven.webp, 751 × 563)", file: () => scanFile("leuven.webp", fixture("leuven.webp"), "webp") },
  {
    what: "interlaced (Adam7) RGB PNG (131 × 97; too small for the recapture model's heatmap)",
    file: async () => scanFile("adam7.png", await generatedFile("png/rgb-8bit-interlaced.png"), "png"),
    small: true,
  },
];

describe("every pixel detector of a file reads one decode", () => {
  for (const { what, file, small } of files) {
    it(`${what}: decoded to pixels once, the same findings, metadata and attachments as decoding per detector`, async () => {
      const { shared, reference } = await bothWays(file);
      // One decode in all: a small baseline JPEG's one Huffman pass makes its pixels and hands its luminance
      // blocks to the coefficient products (file-decode.ts jpegPass), so no second pass over its coefficients.
      expect(shared.decodes).toEqual({ pixels: 1, coefficients: 0 });
      // Without the shared decode the thumbnail, both models (recapture twice) and copy-move each decode,
      // and the block maps, the coefficient statistics and the earlier-grid tiles each read the Huffman data.
      expect(reference.decodes.pixels).toBeGreaterThanOrEqual(4);
      if ((await file()).kind === "jpeg") expect(reference.decodes.coefficients).toBe(3);
      expect(shared.result.suspicion_level).not.toBe("-");
      expect(shared.result).toEqual(reference.result);
      expect(shared.attachments.map((a) => a.name)).toEqual(reference.attachments.map((a) => a.name));
      shared.attachments.forEach((a, i) => expect(a.bytes).toEqual(reference.attachments[i].bytes));
      const expected = small ? [/thumb\.png$/] : [/thumb\.png$/, /recapture\.png$/];
      expect(shared.attachments.map((a) => a.name)).toEqual(
        expect.arrayContaining(expected.map((name) => expect.stringMatching(name))),
      );
    });
  }

  it("a damaged JPEG: the shared pass builds nothing and each detector reports the damage as before", async () => {
    const file = () => scanFile("corrupted.jpg", sharedFile("exif-samples/jpg/corrupted.jpg"), "jpeg");
    const { shared, reference } = await bothWays(file);
    expect(shared.result).toEqual(reference.result);
    expect(shared.result.findings.map((f) => f.code)).toEqual(reference.result.findings.map((f) => f.code));
    expect(shared.attachments.map((a) => a.name)).toEqual(reference.attachments.map((a) => a.name));
  });
});

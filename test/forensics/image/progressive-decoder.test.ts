/**
 * Progressive JPEGs are decoded like baseline ones (src/scanner/images/jpeg-progressive.ts): pixels
 * band by band for the thumbnail, the models and copy-move, luminance coefficients for the block maps
 * and the DQ/ghost statistics. References: libjpeg-turbo's lossless transcode of each file to one
 * baseline scan (the same quantised coefficients, so our two decoders must give the same bytes) and
 * libjpeg-turbo's own decode (djpeg -dct int; its IDCT, chroma filter and colour rounding differ from
 * ours, which follow photon's decoder, by a few levels). Fixtures: scripts/datagen/progressive-fixtures.mjs.
 */
import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { jpegDqAnalyzer } from "../../../src/scanner/forensics/jpeg-dq";
import { jpegGhostAnalyzer } from "../../../src/scanner/forensics/jpeg-ghost";
import { analyzers } from "../../../src/scanner/forensics/registry";
import { planDecode } from "../../../src/scanner/images/file-decode";
import { decodeLumaCoefficients } from "../../../src/scanner/images/jpeg-coefficients";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { ProgressiveScanDecoder } from "../../../src/scanner/images/jpeg-progressive";
import { JpegDataError, JpegStripDecoder } from "../../../src/scanner/images/jpeg-strip-decoder";
import {
  MAX_BLOCK_MAP_PIXELS,
  MAX_PIXEL_DECODE,
  MAX_PROGRESSIVE_SCANS,
} from "../../../src/scanner/images/pixel-budget";
import { PngStripDecoder } from "../../../src/scanner/images/png-strip-decoder";
import type { AnalyzerResult, Language } from "../../../src/scanner/types";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";
import { claimingSize, withRepeatedLastScan } from "./progressive-fixtures";

/** 3840 × 2160 progressive 4:2:2 from GIMP (8.3 MP): above photon's cap, small enough to load in workerd. */
const LARGE_PROGRESSIVE = "photos/mate-backgrounds/Elephants_3840x2160.jpg";

const CASES = [
  { name: "p420-restart", what: "4:2:0, restart every 3 MCUs" },
  { name: "p422", what: "4:2:2" },
  { name: "p440", what: "4:4:0" },
  { name: "p444-restart", what: "4:4:4, restart every MCU row" },
  { name: "gray-restart", what: "greyscale, restart every block" },
  { name: "scan-script", what: "4:2:0, one DC scan per component, spectral split, AC refinement twice" },
];

/** The whole picture as RGBA from the strip decoder (`reference`: the JavaScript kernels). */
function decodeJpeg(bytes: Uint8Array, reference = false): { width: number; height: number; rgba: Uint8Array } {
  const decoder = JpegStripDecoder.open(bytes, undefined, { reference });
  if (typeof decoder === "string") throw new Error(decoder);
  const rgba = new Uint8Array(decoder.width * decoder.height * 4);
  for (let band = decoder.next(); band; band = decoder.next()) rgba.set(band.rgba, band.y * decoder.width * 4);
  return { width: decoder.width, height: decoder.height, rgba };
}

function decodePng(bytes: Uint8Array): Uint8Array {
  const decoder = PngStripDecoder.open(bytes);
  if (typeof decoder === "string") throw new Error(decoder);
  const rgba = new Uint8Array(decoder.width * decoder.height * 4);
  for (let band = decoder.next(); band; band = decoder.next()) rgba.set(band.rgba, band.y * decoder.width * 4);
  return rgba;
}

/** Per-channel |a − b| over RGB (alpha ignored): largest, mean, and how many differ at all. */
function difference(a: Uint8Array, b: Uint8Array): { max: number; mean: number; differing: number } {
  expect(a.length).toBe(b.length);
  let max = 0;
  let sum = 0;
  let differing = 0;
  for (let i = 0; i < a.length; i++) {
    if ((i & 3) === 3) continue;
    const d = Math.abs(a[i] - b[i]);
    max = Math.max(max, d);
    sum += d;
    if (d) differing++;
  }
  return { max, mean: sum / ((a.length / 4) * 3), differing };
}

describe("progressive decoder: the same pixels as the baseline transcode, within rounding of libjpeg-turbo", () => {
  for (const { name, what } of CASES)
    it(`${what} (170 × 126)`, async () => {
      const progressive = decodeJpeg(await generatedFile(`progressive/${name}.jpg`));
      const baseline = decodeJpeg(await generatedFile(`progressive/${name}.base.jpg`));
      expect([progressive.width, progressive.height]).toEqual([170, 126]);
      // Same coefficients, same IDCT: any lost refinement bit or misplaced block shows here.
      expect(difference(progressive.rgba, baseline.rgba).differing).toBe(0);
      // The JavaScript kernels give the same bytes as the wasm ones.
      expect(
        difference(decodeJpeg(await generatedFile(`progressive/${name}.jpg`), true).rgba, progressive.rgba),
      ).toEqual({ max: 0, mean: 0, differing: 0 });
      const libjpeg = decodePng(await generatedFile(`progressive/${name}.djpeg.png`));
      const { max, mean } = difference(progressive.rgba, libjpeg);
      // Measured: max 2–3, mean 0.003 (grey) to 0.12 (4:4:0); a decoding error is off by tens.
      expect(max).toBeLessThanOrEqual(3);
      expect(mean).toBeLessThan(0.2);
    });

  it("a small progressive photo (ela_original.jpg) decodes to exactly photon's pixels", async () => {
    const bytes = await sharedFile("photos/opencv-doc/ela_original.jpg");
    const image = PhotonImage.new_from_byteslice(bytes);
    const reference = image.get_raw_pixels();
    image.free();
    expect(difference(decodeJpeg(bytes).rgba, reference).differing).toBe(0);
  });

  it("the luminance coefficients are the baseline transcode's, block for block", async () => {
    for (const { name } of CASES) {
      const blocksOf = async (bytes: Uint8Array) => {
        const blocks = new Map<string, string>();
        const result = await decodeLumaCoefficients(bytes, parseJpegStructure(bytes), (row, col, q) =>
          blocks.set(`${row},${col}`, q.join(",")),
        );
        expect(result.error).toBeNull();
        return blocks;
      };
      const progressive = await blocksOf(await generatedFile(`progressive/${name}.jpg`));
      const baseline = await blocksOf(await generatedFile(`progressive/${name}.base.jpg`));
      expect(progressive.size, name).toBe(Math.ceil(170 / 8) * Math.ceil(126 / 8));
      expect(progressive, name).toEqual(baseline);
    }
  });
});

describe("hostile and damaged progressive files: a reason, never an exception other than JpegDataError", () => {
  it("random bytes changed in the scans: decodes or stops with JpegDataError", async () => {
    const original = await generatedFile("progressive/p420-restart.jpg");
    for (let seed = 1; seed <= 40; seed++) {
      const bytes = original.slice();
      for (let k = 0; k < 6; k++)
        bytes[700 + ((seed * 7919 * (k + 1)) % (bytes.length - 800))] = (seed * 31 + k * 17) & 0xff;
      const decoder = JpegStripDecoder.open(bytes);
      if (typeof decoder === "string") continue;
      try {
        while (decoder.next());
      } catch (error) {
        expect(error).toBeInstanceOf(JpegDataError);
      }
    }
  });

  it("a header claiming 65535 × 65535 is refused before anything is allocated", async () => {
    const bytes = claimingSize(await generatedFile("progressive/gray-restart.jpg"), 65_535, 65_535);
    expect(ProgressiveScanDecoder.open(bytes, parseJpegStructure(bytes))).toBe("too large to stream (65535 × 65535)");
  });

  it(`more than ${MAX_PROGRESSIVE_SCANS} scans are refused (each scan walks every block)`, async () => {
    const many = withRepeatedLastScan(await generatedFile("progressive/gray-restart.jpg"), MAX_PROGRESSIVE_SCANS + 1);
    expect(parseJpegStructure(many).scanStarts.length).toBe(MAX_PROGRESSIVE_SCANS + 1);
    expect(ProgressiveScanDecoder.open(many, parseJpegStructure(many))).toBe(
      `${MAX_PROGRESSIVE_SCANS + 1} scans (at most ${MAX_PROGRESSIVE_SCANS} are decoded)`,
    );
  });

  it("an arithmetic-coded progressive file is refused with a reason", async () => {
    expect(JpegStripDecoder.open(await generatedFile("progressive/arithmetic.jpg"))).toBe(
      "arithmetic-coded progressive JPEG",
    );
  });
});

/** Every registered detector that applies (or those of `only`), in registry order, keyed by id, sharing one decode as the pipeline does. */
async function runAll(
  name: string,
  bytes: Uint8Array,
  language: Language = "en",
  only?: string[],
): Promise<Record<string, AnalyzerResult>> {
  const file = scanFile(name, bytes);
  const applying = analyzers.filter((a) => a.appliesTo(file) && (!only || only.includes(a.id)));
  planDecode(
    bytes,
    applying.flatMap((a) => a.reads ?? []),
  );
  const out: Record<string, AnalyzerResult> = {};
  for (const a of applying) out[a.id] = await a.analyze(file, context({ language }));
  return out;
}

const codes = (r: AnalyzerResult) => r.findings.map((f) => `${f.code}:${f.level}`);

describe("a progressive photo over photon's 6 MP cap is analysed like a baseline one", () => {
  it("8.3 MP (GIMP export): every pixel detector, both models, DQ, ghosts and the double-compression check", async () => {
    const bytes = await sharedFile(LARGE_PROGRESSIVE);
    expect(3840 * 2160).toBeGreaterThan(MAX_PIXEL_DECODE);
    const r = await runAll("elephants.jpg", bytes, "de");
    expect(r.thumbnail.metadata).toMatchObject({ decodedWidth: 3840, decodedHeight: 2160 });
    expect(r.thumbnail.metadata).not.toHaveProperty("thumbnailSource");
    for (const id of ["ela", "noise", "copy-move", "jpeg-dq", "jpeg-ghost", "recapture-model", "manipulation-model"]) {
      expect(r[id].assessed, id).toBe(true);
      expect(r[id].findings.length, id).toBeGreaterThan(0);
      for (const f of r[id].findings) expect(f.level, `${id} ${f.code}`).not.toBe("-");
    }
    expect(codes(r["jpeg-structure"]).join()).not.toMatch(/NOT_ASSESSED/);
  }, 120_000);

  it("the same photo cut in half: every pixel detector is `-` with a reason in the request's language", async () => {
    const bytes = await sharedFile(LARGE_PROGRESSIVE);
    const checked = ["thumbnail", "ela", "noise", "jpeg-dq", "jpeg-ghost", "manipulation-model"];
    const r = await runAll("cut.jpg", bytes.slice(0, bytes.length >> 1), "pl", checked);
    expect(codes(r.thumbnail)).toContain("IMAGE_UNDECODABLE:-");
    for (const [id, code] of [
      ["ela", "ELA_NOT_ASSESSED"],
      ["noise", "NOISE_NOT_ASSESSED"],
      ["jpeg-dq", "JPEG_DQ_NOT_ASSESSED"],
      ["jpeg-ghost", "JPEG_GHOST_NOT_ASSESSED"],
      ["manipulation-model", "MANIPULATION_NOT_ASSESSED"],
    ]) {
      expect(r[id].assessed, id).toBe(false);
      expect(r[id].findings[0], id).toMatchObject({ code, level: "-" });
      expect(r[id].findings[0].explanation, id).not.toMatch(/\b(the|image|truncated|decode|entropy)\b/);
    }
  }, 60_000);

  it("a header claiming 20000 × 20000 (400 MP) is `-` as too large, in German", async () => {
    const bytes = claimingSize(await generatedFile("progressive/gray-restart.jpg"), 20_000, 20_000);
    const r = await runAll("big.jpg", bytes, "de");
    for (const id of ["ela", "noise"]) {
      expect(r[id].findings[0]).toMatchObject({ level: "-", evidence: { maxPixels: MAX_BLOCK_MAP_PIXELS } });
      expect(r[id].findings[0].title).toMatch(/Bild zu groß/);
    }
    expect(codes(r["manipulation-model"])).toContain("MANIPULATION_NOT_ASSESSED:-");
  });
});

describe("damaged progressive files through every detector: findings, `-` where not assessed, never a throw", () => {
  /** Offset of the first entropy-coded byte of scan `i` and its header (SOS payload). */
  const scanAt = (bytes: Uint8Array, i: number) => {
    const structure = parseJpegStructure(bytes);
    const sos = structure.segments.filter((s) => s.marker === 0xda)[i];
    return { data: structure.scanStarts[i], header: sos.offset + 4, length: sos.data.length };
  };
  /** What the strip decoder says about the file: why it cannot open it, why it stopped, or null. */
  const decoderVerdict = (bytes: Uint8Array): string | null => {
    const decoder = JpegStripDecoder.open(bytes);
    if (typeof decoder === "string") return decoder;
    try {
      while (decoder.next());
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(JpegDataError);
      return (error as Error).message;
    }
  };
  const variants: [string, (bytes: Uint8Array) => Uint8Array, string][] = [
    [
      "cut in the middle of its scans",
      (b) => b.slice(0, Math.floor(b.length * 0.6)),
      "entropy-coded data ends early (truncated file?)",
    ],
    [
      "an AC scan whose spectral selection ends past 63",
      (b) => {
        const out = b.slice();
        const { header, length } = scanAt(out, 3);
        out[header + length - 2] = 64;
        return out;
      },
      "invalid spectral selection",
    ],
    [
      "Huffman data replaced by one bits, which no table decodes",
      (b) => {
        const out = b.slice();
        const { data } = scanAt(out, 1);
        // 0xFF 0x00 is a stuffed 0xFF: all one bits, which no Huffman code is (JPEG reserves it).
        for (let i = data; i < data + 200; i += 2) out.set([0xff, 0x00], i);
        return out;
      },
      "corrupt entropy-coded data",
    ],
    [
      "a scan naming a Huffman table that was never defined",
      (b) => {
        const out = b.slice();
        const { header } = scanAt(out, 2);
        out[header + 2] = 0x33;
        return out;
      },
      "scan refers to a missing Huffman table",
    ],
  ];
  for (const [what, damage, reason] of variants)
    it(what, async () => {
      const bytes = damage(await generatedFile("progressive/p420-restart.jpg"));
      expect(decoderVerdict(bytes)).toBe(reason);
      const r = await runAll("damaged.jpg", bytes);
      expect(Object.keys(r).length).toBeGreaterThan(5);
      for (const [id, result] of Object.entries(r)) {
        if (id === "file-type") continue; // the gatekeeper speaks only about files it refuses
        expect(result.findings.length, id).toBeGreaterThan(0);
        if (!result.assessed)
          expect(
            result.findings.some((f) => f.level === "-"),
            id,
          ).toBe(true);
      }
    });
});

describe("DQ and ghosts read a progressive file's coefficients", () => {
  it("a greyscale progressive file is assessed (was `-`: coefficients not read)", async () => {
    const bytes = await generatedFile("progressive/grayscale.jpg");
    for (const analyzer of [jpegDqAnalyzer, jpegGhostAnalyzer]) {
      const r = await analyzer.analyze(scanFile("p.jpg", bytes), context());
      expect(r.findings[0].code, analyzer.id).not.toMatch(/NOT_ASSESSED/);
    }
  });
});

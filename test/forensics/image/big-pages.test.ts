/**
 * Pages over the full-bitmap budget (issue 17): a 24 MP tiled HEIC is reduced by 2 tile row by tile row,
 * an 8.7 MP A4 scan TIFF in Deflate strips is decoded a group of strips at a time at full resolution,
 * each straight into its PNG sub-file, which every pixel detector then checks (POST /v2/scanner). A
 * page stored as one compressed strip over the budget stays IMAGE_FORMAT_TOO_LARGE with that reason.
 * Fixtures: scripts/datagen/formats.sh (tiled_heic.py, scan_tiff.py).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../helpers";
import { zip } from "../../scanner/fixtures";
import { postScanner, scanCase } from "../../scanner/http";
import { imagePages } from "../../../src/scanner/forensics/image-pages";
import { thumbnailAnalyzer } from "../../../src/scanner/forensics/thumbnail";
import { AreaDownscaler } from "../../../src/scanner/images/area-downscale";
import { decodeHeif } from "../../../src/scanner/images/heif-decode";
import { PagePngWriter, reductionFactor } from "../../../src/scanner/images/page-png";
import { encodeRgbaPngStreamed } from "../../../src/scanner/images/png-encode";
import { readTiffPages, splitTiffPage } from "../../../src/scanner/images/tiff-pages";
import type { ScanFile } from "../../../src/scanner/types";
import { expectRegisteredFindings } from "../../support/finding-codes";
import {
  expectPixelDetectors,
  expectTooLarge,
  type FileResult,
  fixture,
  formatFile as scanFile,
} from "./format-fixtures";
import { context, sharedFile } from "./fixtures";

/** Byte equality without vitest's element-wise diff (seconds on megabytes). */
const sameBytes = (a: Uint8Array | undefined, b: Uint8Array) => a?.length === b.length && a.every((v, i) => v === b[i]);

const decoded = (file: FileResult) => file.findings.find((f) => f.code === "IMAGE_FORMAT_DECODED");

let files: Record<string, FileResult>;

beforeAll(async () => {
  const { apiKey } = await createAccount({ name: "Big pages E2E" });
  const res = await postScanner({
    apiKey,
    caseNumber: scanCase("BIG"),
    zip: zip({ "tiled-24mp.heic": fixture("tiled-24mp.heic"), "scan-a4.tiff": fixture("scan-a4.tiff") }),
    headers: { accept: "application/json", language: "en" },
  });
  expect(res.status).toBe(200);
  ({ Files: files } = await res.json<{ Files: Record<string, FileResult> }>());
  expectRegisteredFindings(Object.values(files).flatMap((f) => f.findings as never[]));
}, 300_000);

describe("a 24 MP tiled HEIC (5712 × 4284, as an iPhone's) is checked at half size", () => {
  it("the HEIC says so: factor 2, the stored and the analysed size", () => {
    const finding = decoded(files["tiled-24mp.heic"]);
    expect(finding?.level).toBe("Green");
    expect(finding?.evidence.pages).toEqual([
      {
        name: "tiled-24mp.heic#p1.png",
        page: 1,
        width: 2856,
        height: 2142,
        reducedFrom: { width: 5712, height: 4284, factor: 2 },
      },
    ]);
    expect(finding?.explanation).toContain("page 1: 5712 × 4284 → 2856 × 2142 (1/2, each pixel the average of 2 × 2)");
    expect(finding?.explanation).toContain("positions in the results of these pages refer to the reduced picture");
  });

  it("its picture `tiled-24mp.heic#p1.png` (2856 × 2142) goes through every pixel detector", () => {
    const page = files["tiled-24mp.heic#p1.png"];
    expectPixelDetectors(page);
    expect(page.suspicion_level).toMatch(/Green|Yellow|Red/);
    expect(page.metadata.thumbnail).toMatchObject({ decodedWidth: 2856, decodedHeight: 2142 });
  });

  it("the reduction is the area average of the whole picture, fed tile row by tile row", async () => {
    const bytes = fixture("tiled-24mp.heic");
    let whole: AreaDownscaler | null = null;
    let writer: PagePngWriter | null = null;
    const bands: number[] = [];
    await decodeHeif(bytes, {
      accept: (layout) => {
        whole = new AreaDownscaler(layout.width, layout.height, 2856, 2142);
        writer = new PagePngWriter(layout.width, layout.height);
        return true;
      },
      band: (rgba, rows) => {
        whole?.add({ y: bands.reduce((a, b) => a + b, 0), rows, rgba });
        writer?.add(rgba, rows);
        bands.push(rows);
      },
    });
    // One band is one row of 512 × 512 tiles: what the decode holds besides the PNG.
    expect(bands).toEqual([...Array(8).fill(512), 4284 - 8 * 512]);
    const page = (writer as PagePngWriter | null)?.finish();
    const expected = (whole as AreaDownscaler | null)?.finish() ?? new Uint8Array(0);
    expect(sameBytes(page?.png, encodeRgbaPngStreamed(expected, 2856, 2142))).toBe(true);
  });

  it("de and pl texts name the reduction too", async () => {
    const file = scanFile("big.heic", fixture("tiled-24mp.heic"), "heic");
    for (const [language, words] of [
      ["de", "Seite 1: 5712 × 4284 → 2856 × 2142 (1/2, jedes Pixel der Mittelwert von 2 × 2)"],
      ["pl", "strona 1: 5712 × 4284 → 2856 × 2142 (1/2, każdy piksel to średnia z 2 × 2)"],
    ] as const) {
      const result = await imagePages.analyze(file, context({ language }));
      expect(result.findings[0].explanation).toContain(words);
    }
  });
});

describe("an A4 scan at 300 dpi (2480 × 3508, 8.7 MP, Deflate strips) is checked at full resolution", () => {
  it("the TIFF lists its page at its own size, not reduced", () => {
    expect(decoded(files["scan-a4.tiff"])?.evidence.pages).toEqual([
      { name: "scan-a4.tiff#p1.png", page: 1, width: 2480, height: 3508 },
    ]);
    expect(decoded(files["scan-a4.tiff"])?.explanation).not.toContain("reduced");
  });

  it("its page goes through every pixel detector", () => {
    expectPixelDetectors(files["scan-a4.tiff#p1.png"]);
    expect(files["scan-a4.tiff#p1.png"].metadata.thumbnail).toMatchObject({ decodedWidth: 2480, decodedHeight: 3508 });
  });

  it("it is decoded in bands of whole strips of at most 1 MP, not as one 8.7 MP bitmap", () => {
    const read = readTiffPages(fixture("scan-a4.tiff"));
    if (!read.ok) throw new Error(read.reason);
    const bands = splitTiffPage(read.pages[0], 1_000_000, 6_000_000) ?? [];
    expect(bands.map((b) => b.height)).toEqual([...Array(8).fill(400), 3508 - 8 * 400]);
    expect(bands.every((b) => b.width * b.height <= 1_000_000)).toBe(true);
    expect(bands.reduce((n, b) => n + (b.tags.t273 as number[]).length, 0)).toBe(Math.ceil(3508 / 16));
  });
});

/** A little-endian TIFF of one 8-bit grey page; `strip` is its pixel data, in one strip. */
function greyTiff(width: number, height: number, compression: number, strip: Uint8Array): Uint8Array {
  const tags: [number, number][] = [
    [256, width],
    [257, height],
    [258, 8],
    [259, compression],
    [262, 1],
    [273, 0],
    [277, 1],
    [278, height],
    [279, strip.length],
  ];
  const data = 8 + 2 + tags.length * 12 + 4;
  const out = new Uint8Array(data + strip.length);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0]);
  view.setUint32(4, 8, true);
  view.setUint16(8, tags.length, true);
  tags.forEach(([tag, value], i) => {
    view.setUint16(10 + i * 12, tag, true);
    view.setUint16(12 + i * 12, 4, true);
    view.setUint32(14 + i * 12, 1, true);
    view.setUint32(18 + i * 12, tag === 273 ? data : value, true);
  });
  out.set(strip, data);
  return out;
}

describe("TIFF pages over 6 MP in one strip", () => {
  it("one compressed (Deflate) strip of 3000 × 3000: IMAGE_FORMAT_TOO_LARGE, because it can only be inflated whole", async () => {
    const file = scanFile("one.tiff", greyTiff(3000, 3000, 8, new Uint8Array(64)), "tiff");
    const refused = await expectTooLarge(file, [
      ["de", "als ein einziger komprimierter Block gespeichert"],
      ["en", "stored as one compressed block, which can only be decoded in full; above 6 MP"],
      ["pl", "zapisana jako jeden skompresowany blok"],
    ]);
    expect(refused.evidence.pages).toEqual([
      { page: 1, problem: "too-large", width: 3000, height: 3000, limit: 6_000_000, cause: "one-strip" },
    ]);
  });

  it("one uncompressed strip of 2600 × 2600 (odd rows per band) is cut into bands: the same pixels", async () => {
    const width = 2600;
    const height = 2600;
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) pixels.fill((y * 7) & 255, y * width, y * width + ((y * 13) % width));
    const result = await imagePages.analyze(
      scanFile("raw.tiff", greyTiff(width, height, 1, pixels), "tiff"),
      context(),
    );
    expect(result.findings[0].evidence.pages).toEqual([{ name: "raw.tiff#p1.png", page: 1, width, height }]);
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < pixels.length; i++) rgba.set([pixels[i], pixels[i], pixels[i], 255], i * 4);
    expect(sameBytes(result.extracted?.[0].bytes, encodeRgbaPngStreamed(rgba, width, height))).toBe(true);
  });
});

describe("reduction factor: the smallest integer that brings a page to 13 MP", () => {
  it("12 MP stays, 24 and 48 MP phone photos halve, 100 MP is divided by 3", () => {
    expect(reductionFactor(4032, 3024)).toBe(1);
    expect(reductionFactor(5712, 4284)).toBe(2);
    expect(reductionFactor(8064, 6048)).toBe(2);
    expect(reductionFactor(11_547, 8_660)).toBe(3);
  });
});

describe("a real 15.9 MP phone HEIF turned by its irot (Nokia 8.3)", () => {
  it("is reduced by 2 to 2304 × 1728, keeps its orientation, and its thumbnail stands upright", async () => {
    const name = "nokia.heif";
    const result = await imagePages.analyze(
      scanFile(name, await sharedFile("exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif"), "heic"),
      context(),
    );
    expect(result.findings[0].evidence.pages).toEqual([
      {
        name: `${name}#p1.png`,
        page: 1,
        width: 2304,
        height: 1728,
        reducedFrom: { width: 4608, height: 3456, factor: 2 },
      },
    ]);
    const page = result.extracted?.[0] as ScanFile;
    expect(page.orientation).toBe(6);
    const thumbnail = await thumbnailAnalyzer.analyze(page, context());
    const png = thumbnail.attachments?.[0].bytes ?? new Uint8Array(0);
    const view = new DataView(png.buffer, png.byteOffset);
    expect(view.getUint32(16)).toBeLessThan(view.getUint32(20)); // IHDR: upright, taller than wide
  });
});

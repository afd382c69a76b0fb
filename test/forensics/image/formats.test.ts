/**
 * WebP, HEIC and multi-page TIFF through the real endpoint (POST /v2/scanner): each goes through every
 * detector that applies and gets a real level with findings; their EXIF reaches the metadata checks;
 * cut-off and damaged variants are '-' with a reason, never a 500. Fixtures: scripts/datagen/formats.sh.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "../../helpers";
import { zip } from "../../scanner/fixtures";
import { postScanner, scanCase } from "../../scanner/http";
import { tokenPrices } from "../../../src/scanner/analysis/pricing";
import { decodeHeif } from "../../../src/scanner/images/heif-decode";
import { fileTypeAnalyzer } from "../../../src/scanner/forensics/file-type";
import { imagePages } from "../../../src/scanner/forensics/image-pages";
import { expectRegisteredFindings } from "../../support/finding-codes";
import { expectPixelDetectors, expectTooLarge, type FileResult, fixture, formatFile as file } from "./format-fixtures";
import { context, sharedFile } from "./fixtures";

const half = (bytes: Uint8Array) => bytes.slice(0, bytes.length >> 1);

const decodedPages = (file: FileResult) =>
  file.findings.find((f) => f.code === "IMAGE_FORMAT_DECODED")?.evidence.pages as {
    name: string;
    width: number;
    height: number;
  }[];

let apiKey: string;
let files: Record<string, FileResult>;
let tokens: number;

beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "Formats E2E" }));
  const res = await postScanner({
    apiKey,
    caseNumber: scanCase("FMT"),
    zip: zip({
      "leuven.webp": fixture("leuven.webp"),
      "leuven.heic": fixture("leuven.heic"),
      "pages.tiff": fixture("pages.tiff"),
      "cut.webp": half(fixture("leuven.webp")),
      "cut.heic": half(fixture("leuven.heic")),
      "cut.tiff": half(fixture("pages.tiff")),
      "Cremieux11.tiff": await sharedFile("exif-samples/tiff/Crémieux11.tiff"),
      "samplefilehub.heif": await sharedFile("exif-samples/heic/samplefilehub.heif"),
      "IMG_5195.HEIC": await sharedFile("exif-samples/heic/IMG_5195.HEIC"),
    }),
    headers: { accept: "application/json", language: "en" },
  });
  expect(res.status).toBe(200);
  ({ Files: files, tokensConsumed: tokens } = await res.json<{
    Files: Record<string, FileResult>;
    tokensConsumed: number;
  }>());
  expectRegisteredFindings(Object.values(files).flatMap((f) => f.findings as never[]));
}, 300_000);

describe("WebP is decoded in place and goes through every pixel detector and the metadata checks", () => {
  it("gets a real level, a thumbnail, both models, ELA, noise, copy-move and its EXIF read", () => {
    const webp = files["leuven.webp"];
    expect(webp.suspicion_level).not.toBe("-");
    expectPixelDetectors(webp);
    expect(webp.findings.filter((f) => f.level === "-")).toEqual([]);
    expect(webp.metadata.metadata).toMatchObject({
      make: "Apple",
      model: "iPhone 6",
      dateTimeOriginal: "2019:04:14 13:46:10",
    });
    expect(webp.attachments.some((a) => a.startsWith("thumbnails/"))).toBe(true);
  });
});

describe("HEIC: the file's EXIF goes through the metadata checks, its picture through every pixel detector as a PNG sub-file", () => {
  it("the HEIC itself: assessed, decoded, its iPhone EXIF read", () => {
    const heic = files["leuven.heic"];
    expect(heic.suspicion_level).not.toBe("-");
    expect(heic.findings).toContainEqual(expect.objectContaining({ code: "IMAGE_FORMAT_DECODED", level: "Green" }));
    expect(heic.metadata.metadata).toMatchObject({
      make: "Apple",
      model: "iPhone 6",
      dateTimeOriginal: "2019:04:14 13:46:10",
    });
    expect(decodedPages(heic)).toEqual([{ name: "leuven.heic#p1.png", page: 1, width: 751, height: 563 }]);
  });

  it("its picture `leuven.heic#p1.png`: every pixel detector, a real level; the metadata checks stay with the HEIC", () => {
    const page = files["leuven.heic#p1.png"];
    expect(page.source).toEqual({ parent: "leuven.heic", page: 1 });
    expect(page.suspicion_level).not.toBe("-");
    expectPixelDetectors(page);
    expect(page.metadata).not.toHaveProperty("metadata");
  });
});

describe("real HEIFs from the shared data", () => {
  it("samplefilehub.heif (640 × 426) is decoded and its picture checked", () => {
    expect(decodedPages(files["samplefilehub.heif"])).toEqual([
      { name: "samplefilehub.heif#p1.png", page: 1, width: 640, height: 426 },
    ]);
    expectPixelDetectors(files["samplefilehub.heif#p1.png"]);
  });

  it("an iPhone 11 Pro Max HEIC of 8.5 MP (6 × 7 tiles): decoded tile row by tile row, its EXIF checked on the file", () => {
    const heic = files["IMG_5195.HEIC"];
    expect(heic.metadata.metadata).toMatchObject({ make: "Apple", model: "iPhone 11 Pro Max" });
    expect(decodedPages(heic)).toEqual([{ name: "IMG_5195.HEIC#p1.png", page: 1, width: 2566, height: 3313 }]);
    expectPixelDetectors(files["IMG_5195.HEIC#p1.png"]);
  });
});

describe("multi-page TIFF: every page is checked like a PDF page, the first page's EXIF by the metadata checks", () => {
  it("the TIFF itself: three pages decoded, its EXIF read", () => {
    const tiff = files["pages.tiff"];
    expect(tiff.suspicion_level).not.toBe("-");
    expect(decodedPages(tiff).map((p) => [p.name, p.width, p.height])).toEqual([
      ["pages.tiff#p1.png", 256, 192],
      ["pages.tiff#p2.png", 288, 160],
      ["pages.tiff#p3.png", 192, 144],
    ]);
    expect(tiff.metadata.metadata).toMatchObject({
      make: "Apple",
      model: "iPhone 6",
      dateTimeOriginal: "2019:04:14 13:46:10",
    });
  });

  it("each page `pages.tiff#p<n>.png` goes through every pixel detector", () => {
    for (const n of [1, 2, 3]) {
      const page = files[`pages.tiff#p${n}.png`];
      expect(page.source).toEqual({ parent: "pages.tiff", page: n });
      expect(page.suspicion_level).not.toBe("-");
      expectPixelDetectors(page);
    }
  });

  it("the page with a copied area (page 2) is Red by the copy-move detector; the untouched photo page is not", () => {
    expect(files["pages.tiff#p2.png"].findings).toContainEqual(
      expect.objectContaining({ code: "COPY_MOVE_FOUND", level: "Red" }),
    );
    expect(files["pages.tiff#p2.png"].suspicion_level).toBe("Red");
    expect(files["pages.tiff#p1.png"].findings.map((f) => f.code)).not.toContain("COPY_MOVE_FOUND");
  });

  it("a real scanner TIFF from the shared data (Mac OS X, 199 × 47) is decoded too", () => {
    const tiff = files["Cremieux11.tiff"];
    expect(tiff.suspicion_level).not.toBe("-");
    expect(decodedPages(tiff)).toEqual([{ name: "Cremieux11.tiff#p1.png", page: 1, width: 199, height: 47 }]);
    expect(files["Cremieux11.tiff#p1.png"].suspicion_level).not.toBe("-");
  });
});

describe("tokensConsumed: an assessed WebP, HEIC or TIFF is priced as an image, each decoded page as an extracted one", () => {
  it("6 files × image + 7 pages × extracted + 3 cut-off files × not assessed", () => {
    expect(tokens).toBe(6 * tokenPrices.image + 7 * tokenPrices.extracted + 3 * tokenPrices.notAssessed);
  });
});

describe("cut-off WebP, HEIC and TIFF are '-' with a reason", () => {
  it.each(["cut.webp", "cut.heic", "cut.tiff"])("%s", (name) => {
    const file = files[name];
    expect(file.suspicion_level).toBe("-");
    expect(file.findings).toContainEqual(expect.objectContaining({ code: "FILE_TRUNCATED", level: "-" }));
    expect(Object.keys(files).filter((n) => n.startsWith(`${name}#`))).toEqual([]);
  });
});

/** A little-endian TIFF: one IFD at offset 8 with these LONG-valued tags, then `next`; 16 bytes of pixels. */
/** A little-endian TIFF of one IFD (LONG values); strip/tile offsets point at `dataBytes` zero bytes after it. */
function tiff(tags: Record<number, number>, next = 0, dataBytes = 16): Uint8Array {
  const entries = Object.entries(tags);
  const data = 8 + 2 + entries.length * 12 + 4;
  const out = new Uint8Array(data + dataBytes);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0]);
  view.setUint32(4, 8, true);
  view.setUint16(8, entries.length, true);
  entries.forEach(([tag, value], i) => {
    const at = 10 + i * 12;
    view.setUint16(at, Number(tag), true);
    view.setUint16(at + 2, 4, true);
    view.setUint32(at + 4, 1, true);
    view.setUint32(at + 8, Number(tag) === 273 || Number(tag) === 324 ? data : value, true);
  });
  view.setUint32(10 + entries.length * 12, next, true);
  return out;
}

const grey = (width: number, height: number) => ({
  256: width,
  257: height,
  258: 8,
  259: 1,
  262: 1,
  273: 0,
  277: 1,
  279: 16,
});

describe("the pixel budget: a page larger than a full decode may be is refused before decoding, with a reason", () => {
  it("a 16-byte TIFF claiming 20 000 × 20 000 pixels: '-' IMAGE_FORMAT_TOO_LARGE in de, en and pl, nothing decoded", async () => {
    const huge = file("huge.tiff", tiff(grey(20_000, 20_000)), "tiff");
    expect((await fileTypeAnalyzer.analyze(huge, context())).assessed).toBe(true);
    await expectTooLarge(huge, [
      ["de", "20000 × 20000 (400 MP)"],
      ["en", "above 120 MP even decoding them"],
      ["pl", "powyżej 120 MP"],
    ]);
  });

  it("a HEIC whose header (ispe) claims 12 000 × 12 000 pixels is refused the same way, libheif never sees it", async () => {
    const bytes = fixture("leuven.heic").slice();
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < bytes.length - 16; i++)
      if (String.fromCharCode(...bytes.subarray(i, i + 4)) === "ispe") {
        view.setUint32(i + 8, 12_000);
        view.setUint32(i + 12, 12_000);
      }
    const result = await imagePages.analyze(file("big.heic", bytes, "heic"), context());
    expect(result.findings).toEqual([expect.objectContaining({ code: "IMAGE_FORMAT_TOO_LARGE", level: "-" })]);
    expect(result.findings[0].evidence.pages).toEqual([
      { page: 1, problem: "too-large", width: 12_000, height: 12_000, limit: 120_000_000, cause: "reduced" },
    ]);
  });
});

describe("HEIC layout: the budget is judged from the tile grid before any tile is decoded", () => {
  it("the iPhone HEIC is 6 × 7 tiles of 512 × 512; a sink that refuses gets no band", async () => {
    const bands: number[] = [];
    const outcome = await decodeHeif(await sharedFile("exif-samples/heic/IMG_5195.HEIC"), {
      accept: () => false,
      band: (_rgba, rows) => bands.push(rows),
    });
    expect(outcome).toEqual({
      ok: false,
      refused: { width: 2566, height: 3313, columns: 6, rows: 7, tileWidth: 512, tileHeight: 512 },
    });
    expect(bands).toEqual([]);
  });

  it("the generated HEIC arrives in bands of whole tile rows covering every row", async () => {
    const bands: number[] = [];
    const outcome = await decodeHeif(fixture("leuven.heic"), {
      accept: () => true,
      band: (_rgba, rows) => bands.push(rows),
    });
    expect(outcome).toMatchObject({ ok: true, layout: { width: 751, height: 563 } });
    expect(bands.reduce((a, b) => a + b, 0)).toBe(563);
  });

  it("a cut-off HEIC that passes no structural check still never throws: libheif's reason comes back", async () => {
    const outcome = await decodeHeif(half(fixture("leuven.heic")), { accept: () => true, band: () => {} });
    expect(outcome).toMatch(/^libheif: /);
  });
});

describe("hostile TIFFs end at the gatekeeper: utif2 never reads an IFD chain we have not checked", () => {
  it("an IFD chain that points back to itself is damaged, not an endless loop", async () => {
    const result = await fileTypeAnalyzer.analyze(file("loop.tiff", tiff(grey(4, 4), 8), "tiff"), context());
    expect(result.assessed).toBe(false);
    expect(result.findings).toEqual([expect.objectContaining({ code: "FILE_MALFORMED", level: "-" })]);
  });

  it("a tag claiming 4 billion values is damaged, not a 16 GB allocation", async () => {
    const bytes = tiff(grey(4, 4));
    new DataView(bytes.buffer).setUint32(10 + 4, 0xffffffff, true); // count of the first entry
    const result = await fileTypeAnalyzer.analyze(file("count.tiff", bytes, "tiff"), context());
    expect(result.findings).toEqual([expect.objectContaining({ code: "FILE_MALFORMED", level: "-" })]);
  });

  it("a tiled TIFF (16 × 16 grey, one tile) is decoded without utif2's debug line in the service's log", async () => {
    const { 273: _, 279: __, ...strips } = grey(16, 16);
    const tiled = file("tiled.tiff", tiff({ ...strips, 322: 16, 323: 16, 324: 0, 325: 256 }, 0, 256), "tiff");
    const log = vi.spyOn(console, "log");
    try {
      const result = await imagePages.analyze(tiled, context());
      expect(result.extracted?.map((f) => f.name)).toEqual(["tiled.tiff#p1.png"]);
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });

  it("a tiny valid TIFF (4 × 4 grey) passes and is decoded to one PNG page", async () => {
    const small = file("small.tiff", tiff(grey(4, 4)), "tiff");
    expect((await fileTypeAnalyzer.analyze(small, context())).assessed).toBe(true);
    const result = await imagePages.analyze(small, context());
    expect(result.extracted?.map((f) => [f.name, f.kind, f.decodedFrom, f.source])).toEqual([
      ["small.tiff#p1.png", "png", "tiff", { parent: "small.tiff", page: 1 }],
    ]);
  });
});

import { sha256Hex } from "../../lib/crypto";
import { cooperative } from "../../lib/cooperate";
import { IsolateOnce } from "../../lib/isolate-once";
import { finding } from "../finding";
import type { HeifLayout } from "../images/heif-decode";
import { heifOrientation, heifSize } from "../images/isobmff";
import { validOrientation } from "../images/orientation";
import { MAX_PIXEL_DECODE } from "../images/pixel-budget";
import { encodeRgbaPngStreamed, PngRowWriter } from "../images/png-encode";
import { decodeTiffPage, readTiffPages, type TiffPage } from "../images/tiff-pages";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanFile } from "../types";
import { imagePagesText as T, type PageProblem } from "./image-pages-texts";

/**
 * TIFF and HEIC/HEIF, which no strip decoder reads: every page of a TIFF (a fax, a scan batch) and
 * the primary image of a HEIC are decoded and handed on as lossless PNG sub-files
 * `<file>#p<page>.png`, each checked by every pixel detector under its own name, like the images of
 * a PDF (pdf-images.ts). The file itself keeps the gatekeeper and the metadata checks (its EXIF).
 * Budgets, judged before decoding: a TIFF page or a single-image HEIC is a full bitmap and must fit
 * MAX_PIXEL_DECODE; a tiled HEIC (every phone's) is decoded one row of tiles at a time straight into
 * the PNG, so only the PNG grows with the picture: MAX_TILED_HEIF_PIXELS.
 */
export const imagePages: Analyzer = {
  id: "image-pages",
  version: "1.0.0",
  appliesTo: (file) => (file.kind === "tiff" || file.kind === "heic") && !file.source,
  async analyze(file, ctx): Promise<AnalyzerResult> {
    const pages = file.kind === "tiff" ? tiffPages(file.bytes) : heicPages(file.bytes);
    if (typeof pages === "string")
      return notDecoded(ctx.language, file, [{ page: 1, problem: "undecodable", reason: pages }]);
    const extracted: ScanFile[] = [];
    const problems: PageProblem[] = [];
    const sizes = new Map<string, { width: number; height: number }>();
    const turn = cooperative(1);
    let outputBytes = 0;
    for (const page of pages.list) {
      await turn();
      if (page.width * page.height * Math.max(4, page.bytesPerPixel) > page.maxPixels * 4) {
        problems.push({ page: page.number, problem: "too-large", ...size(page), limit: page.maxPixels });
        continue;
      }
      if (outputBytes > MAX_OUTPUT_BYTES) {
        problems.push({ page: page.number, problem: "limit" });
        continue;
      }
      const picture = await page.decode().catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
      if (typeof picture === "string") {
        problems.push({ page: page.number, problem: "undecodable", reason: picture.slice(0, 200) });
        continue;
      }
      if ("refused" in picture) {
        problems.push({ page: page.number, problem: "too-large", ...size(picture.refused), limit: picture.limit });
        continue;
      }
      const { png } = picture;
      outputBytes += png.length;
      extracted.push(await subFile(file.name, file.kind === "tiff" ? "tiff" : "heic", page, png));
      sizes.set(pageName(file.name, page.number), { width: picture.width, height: picture.height });
    }
    if (pages.more) problems.push({ page: pages.list.length + 1, problem: "limit" });
    if (extracted.length === 0) return notDecoded(ctx.language, file, problems);
    return {
      assessed: true,
      findings: [
        decodedFinding(ctx.language, file, extracted, sizes),
        ...problemFindings(ctx.language, file, problems),
      ],
      extracted,
      metadata: { pages: pages.list.length + (pages.more ? 1 : 0), decoded: extracted.length },
    };
  },
};

/** PNG bytes held for the sub-files of one file before they are staged (≈ 6 pages at the pixel budget). */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Largest tiled HEIC: a 12 MP phone photo (4032 × 3024, 4080 × 3072). What grows with the picture is
 * the PNG (≈ 1–3 bytes a pixel for photos), held once while written and once as the file: ≈ 25–75 MB.
 */
export const MAX_TILED_HEIF_PIXELS = 13_000_000;

const size = ({ width, height }: { width: number; height: number }) => ({ width, height });

interface Page {
  number: number;
  width: number;
  height: number;
  /** Decoded bytes per pixel before conversion to RGBA (16-bit CMYK: 8). */
  bytesPerPixel: number;
  /** The budget for the declared size (pixels of 4 bytes). */
  maxPixels: number;
  /** The page as PNG, encoded straight from the decoder's pixels, or why it cannot be decoded. */
  decode(): Promise<PngPage | { refused: HeifLayout; limit: number } | string>;
  /** How the page is meant to be shown (EXIF orientation 1–8); its pixels stay as stored. */
  orientation: number;
}

type PngPage = { width: number; height: number; png: Uint8Array };

const toPng = ({ width, height, rgba }: { width: number; height: number; rgba: Uint8Array }): PngPage => ({
  width,
  height,
  png: encodeRgbaPngStreamed(rgba, width, height),
});

function tiffPages(bytes: Uint8Array): { list: Page[]; more: boolean } | string {
  const read = readTiffPages(bytes);
  if (!read.ok) return `TIFF ${read.reason}`;
  const list = read.pages.map((page, i) => ({
    number: i + 1,
    width: page.width,
    height: page.height,
    bytesPerPixel: bytesPerPixel(page),
    maxPixels: MAX_PIXEL_DECODE,
    decode: async () => toPng(decodeTiffPage(bytes, page)),
    orientation: validOrientation(page.tags.t274?.[0]),
  }));
  return { list, more: read.morePages };
}

function bytesPerPixel(page: TiffPage): number {
  const bits = (page.tags.t258 as number[] | undefined) ?? [1];
  const samples = (page.tags.t277 as number[] | undefined)?.[0] ?? bits.length;
  return Math.ceil(((bits[0] ?? 1) * samples) / 8);
}

function heicPages(bytes: Uint8Array): { list: Page[]; more: boolean } | string {
  const declared = heifSize(bytes);
  if (!declared) return "HEIF image size (ispe) missing";
  const decode = () => heicToPng(bytes);
  return {
    list: [
      {
        number: 1,
        ...declared,
        bytesPerPixel: 4,
        maxPixels: MAX_TILED_HEIF_PIXELS,
        decode,
        orientation: heifOrientation(bytes),
      },
    ],
    more: false,
  };
}

/**
 * libheif (≈ 1.4 MB of wasm and its glue) is loaded on the first HEIC, not with the Worker: few files are
 * HEICs, and every isolate (and test file) would otherwise compile it (lib/isolate-once.ts: one loader).
 */
const heifDecoder = new IsolateOnce<"heif", typeof import("../images/heif-decode")>();

/** The HEIC's primary image as PNG, tile row by tile row; refused when its layout is over budget. */
async function heicToPng(bytes: Uint8Array): Promise<PngPage | { refused: HeifLayout; limit: number } | string> {
  const { decodeHeif } = await heifDecoder.get("heif", () => import("../images/heif-decode"));
  let writer: PngRowWriter | null = null;
  let limit = MAX_PIXEL_DECODE;
  const outcome = await decodeHeif(bytes, {
    accept(layout) {
      const tiled = layout.columns * layout.rows > 1;
      limit = tiled ? MAX_TILED_HEIF_PIXELS : MAX_PIXEL_DECODE;
      // A tiled picture also holds one row of tiles: bounded like a bitmap.
      const fits = layout.width * layout.height <= limit && layout.width * layout.tileHeight <= MAX_PIXEL_DECODE;
      if (fits) writer = new PngRowWriter(layout.width, layout.height);
      return fits;
    },
    band: (rgba, rows) => writer?.add(rgba, rows),
  });
  if (typeof outcome === "string") return outcome;
  if (!outcome.ok) return { refused: outcome.refused, limit };
  const png = (writer as PngRowWriter | null)?.finish();
  return png ? { ...size(outcome.layout), png } : "libheif: no picture";
}

export function pageName(parent: string, page: number): string {
  return `${parent}#p${page}.png`;
}

async function subFile(parent: string, kind: "tiff" | "heic", page: Page, png: Uint8Array): Promise<ScanFile> {
  return {
    name: pageName(parent, page.number),
    bytes: png,
    kind: "png",
    mimeType: "image/png",
    sha256: await sha256Hex(png),
    size: png.length,
    source: { parent, page: page.number },
    decodedFrom: kind,
    ...(page.orientation !== 1 && { orientation: page.orientation }),
  };
}

const format = (file: ScanFile) => (file.kind === "tiff" ? "TIFF" : "HEIC");

function decodedFinding(
  language: Language,
  file: ScanFile,
  extracted: ScanFile[],
  sizes: Map<string, { width: number; height: number }>,
): Finding {
  return finding(language, "IMAGE_FORMAT_DECODED", "Green", T.decoded(format(file), extracted.length), {
    pages: extracted.map((f) => ({ name: f.name, page: f.source?.page, ...sizes.get(f.name) })),
  });
}

function problemFindings(language: Language, file: ScanFile, problems: PageProblem[]): Finding[] {
  const kinds = ["too-large", "undecodable", "limit"] as const;
  return kinds.flatMap((kind) => {
    const these = problems.filter((p) => p.problem === kind);
    if (these.length === 0) return [];
    const code = {
      "too-large": "IMAGE_FORMAT_TOO_LARGE",
      undecodable: "IMAGE_FORMAT_UNDECODABLE",
      limit: "IMAGE_FORMAT_PAGES_LIMITED",
    } as const;
    return [finding(language, code[kind], "-", T[kind](format(file), these), { pages: these })];
  });
}

function notDecoded(language: Language, file: ScanFile, problems: PageProblem[]): AnalyzerResult {
  return { assessed: false, findings: problemFindings(language, file, problems) };
}

import { sha256Hex } from "../../lib/crypto";
import { cooperative } from "../../lib/cooperate";
import { IsolateOnce } from "../../lib/isolate-once";
import { finding } from "../finding";
import type { HeifLayout } from "../images/heif-decode";
import { heifOrientation, heifSize } from "../images/isobmff";
import { validOrientation } from "../images/orientation";
import { MAX_PIXEL_DECODE } from "../images/pixel-budget";
import { MAX_REDUCED_PAGE_PIXELS, type PagePng, PagePngWriter } from "../images/page-png";
import { encodeRgbaPngStreamed } from "../images/png-encode";
import {
  decodeTiffBands,
  decodeTiffPage,
  isOneCompressedStrip,
  readTiffPages,
  splitTiffPage,
  type TiffPage,
} from "../images/tiff-pages";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanFile } from "../types";
import { imagePagesText as T, type PageProblem, type TooLargeCause } from "./image-pages-texts";

/**
 * TIFF and HEIC/HEIF, which no strip decoder reads: every page of a TIFF (a fax, a scan batch) and
 * the primary image of a HEIC are decoded and handed on as lossless PNG sub-files
 * `<file>#p<page>.png`, each checked by every pixel detector under its own name, like the images of
 * a PDF (pdf-images.ts). The file itself keeps the gatekeeper and the metadata checks (its EXIF).
 * Budgets, judged before decoding: a single-image HEIC, and a TIFF page stored as one compressed strip,
 * is a full bitmap and must fit MAX_PIXEL_DECODE; a tiled HEIC (every phone's) is decoded one row of
 * tiles at a time, a larger TIFF page a group of strips or a row of tiles at a time, straight into the
 * PNG (images/page-png.ts): pages over 13 MP are reduced by an integer factor on the way, up to
 * MAX_REDUCED_PAGE_PIXELS declared.
 */
export const imagePages: Analyzer = {
  id: "image-pages",
  // 1.1.0 (2026-11-29): TIFF pages over 6 MP in bands, pages over 13 MP reduced (were IMAGE_FORMAT_TOO_LARGE).
  version: "1.1.0",
  appliesTo: (file) => (file.kind === "tiff" || file.kind === "heic") && !file.source,
  async analyze(file, ctx): Promise<AnalyzerResult> {
    const pages = file.kind === "tiff" ? tiffPages(file.bytes) : heicPages(file.bytes);
    if (typeof pages === "string")
      return notDecoded(ctx.language, file, [{ page: 1, problem: "undecodable", reason: pages }]);
    const extracted: ScanFile[] = [];
    const problems: PageProblem[] = [];
    const sizes = new Map<string, AnalysedSize>();
    const turn = cooperative(1);
    let outputBytes = 0;
    for (const page of pages.list) {
      await turn();
      if (page.width * page.height * Math.max(4, page.bytesPerPixel) > MAX_REDUCED_PAGE_PIXELS * 4) {
        problems.push({
          page: page.number,
          problem: "too-large",
          ...size(page),
          limit: MAX_REDUCED_PAGE_PIXELS,
          cause: "reduced",
        });
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
        const { refused, limit, cause } = picture;
        problems.push({ page: page.number, problem: "too-large", ...size(refused), limit, ...(cause && { cause }) });
        continue;
      }
      const { png, ...analysed } = picture;
      outputBytes += png.length;
      extracted.push(await subFile(file.name, file.kind === "tiff" ? "tiff" : "heic", page, png));
      sizes.set(pageName(file.name, page.number), analysed);
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

/** Pixels decoded per band of a TIFF page too large for a full bitmap (≈ 4 MB of RGBA; 403 rows of an A4 scan). */
const TIFF_BAND_PIXELS = 1_000_000;

const size = ({ width, height }: { width: number; height: number }) => ({ width, height });

interface Page {
  number: number;
  width: number;
  height: number;
  /** Decoded bytes per pixel before conversion to RGBA (16-bit CMYK: 8). */
  bytesPerPixel: number;
  /** The page as PNG, encoded straight from the decoder's pixels, or why it cannot be decoded. */
  decode(): Promise<PagePng | Refusal | string>;
  /** How the page is meant to be shown (EXIF orientation 1–8); its pixels stay as stored. */
  orientation: number;
}

/** A page over its budget, found while decoding started: its stored size, the budget, why it applies. */
type Refusal = { refused: { width: number; height: number }; limit: number; cause?: TooLargeCause };

type AnalysedSize = Omit<PagePng, "png">;

const toPng = ({ width, height, rgba }: { width: number; height: number; rgba: Uint8Array }): PagePng => ({
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
    decode: () => tiffToPng(bytes, page),
    orientation: validOrientation(page.tags.t274?.[0]),
  }));
  return { list, more: read.morePages };
}

/** A page within MAX_PIXEL_DECODE as one bitmap (as it always was); a larger one band by band, or refused. */
async function tiffToPng(bytes: Uint8Array, page: TiffPage): Promise<PagePng | Refusal> {
  const bitmap = page.width * page.height * Math.max(4, bytesPerPixel(page));
  if (bitmap <= MAX_PIXEL_DECODE * 4) return toPng(decodeTiffPage(bytes, page));
  const bands = splitTiffPage(page, TIFF_BAND_PIXELS, MAX_PIXEL_DECODE);
  if (!bands) {
    const cause = isOneCompressedStrip(page) ? { cause: "one-strip" as const } : {};
    return { refused: size(page), limit: MAX_PIXEL_DECODE, ...cause };
  }
  const writer = new PagePngWriter(page.width, page.height);
  const turn = cooperative(1);
  for (const band of decodeTiffBands(bytes, bands)) {
    writer.add(band.rgba, band.height);
    await turn();
  }
  return writer.finish();
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

/**
 * The HEIC's primary image as PNG, tile row by tile row (reduced on the way when over 13 MP); refused
 * when its layout is over budget.
 */
async function heicToPng(bytes: Uint8Array): Promise<PagePng | Refusal | string> {
  const { decodeHeif } = await heifDecoder.get("heif", () => import("../images/heif-decode"));
  let writer: PagePngWriter | null = null;
  let refusal: Refusal | null = null;
  const outcome = await decodeHeif(bytes, {
    accept(layout) {
      refusal = heicRefusal(layout);
      if (!refusal) writer = new PagePngWriter(layout.width, layout.height);
      return !refusal;
    },
    band: (rgba, rows) => writer?.add(rgba, rows),
  });
  if (typeof outcome === "string") return outcome;
  if (!outcome.ok) return refusal ?? { refused: size(outcome.refused), limit: MAX_PIXEL_DECODE };
  return (writer as PagePngWriter | null)?.finish() ?? "libheif: no picture";
}

/**
 * A single HEVC image is a full bitmap inside libheif: MAX_PIXEL_DECODE. A tiled one holds one row of
 * tiles (bounded like a bitmap) and the reduced PNG: MAX_REDUCED_PAGE_PIXELS.
 */
function heicRefusal(layout: HeifLayout): Refusal | null {
  const pixels = layout.width * layout.height;
  if (layout.columns * layout.rows === 1)
    return pixels <= MAX_PIXEL_DECODE ? null : { refused: size(layout), limit: MAX_PIXEL_DECODE };
  if (pixels > MAX_REDUCED_PAGE_PIXELS)
    return { refused: size(layout), limit: MAX_REDUCED_PAGE_PIXELS, cause: "reduced" };
  return layout.width * layout.tileHeight <= MAX_PIXEL_DECODE
    ? null
    : { refused: size(layout), limit: MAX_PIXEL_DECODE };
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
  sizes: Map<string, AnalysedSize>,
): Finding {
  const pages = extracted.map((f) => ({ name: f.name, page: f.source?.page, ...sizes.get(f.name) }));
  const reduced = extracted.flatMap((f) => {
    const analysed = sizes.get(f.name);
    return analysed?.reducedFrom ? [{ page: f.source?.page ?? 0, ...analysed, reducedFrom: analysed.reducedFrom }] : [];
  });
  return finding(language, "IMAGE_FORMAT_DECODED", "Green", T.decoded(format(file), extracted.length, reduced), {
    pages,
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

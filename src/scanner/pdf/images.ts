import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
  type PDFDocument,
  type PDFPage,
} from "pdf-lib";
import { extractImages } from "unpdf";
import { pageContentStreams, pageContentTooLarge } from "./content-size";
import { pdfLimits } from "./limits";
import { openPdfJs } from "./pdfjs";
import { encodePng } from "../images/png-encode";

/** One image found on a page, as bytes ready for the image detectors. */
export interface PageImage {
  page: number;
  /** 1-based index on its page. */
  index: number;
  ext: "jpg" | "png";
  bytes: Uint8Array;
  width: number;
  height: number;
  /** `original`: the embedded JPEG stream as stored; `decoded`: pixels from pdf.js re-encoded as PNG. */
  origin: "original" | "decoded";
}

/**
 * Every image of the first pages: JPEGs (DCTDecode) byte for byte from the raw XObject stream, so
 * EXIF and JPEG quantisation survive; everything else (Flate, CCITT, inline images, …) decoded
 * by pdf.js and written as PNG. An XObject used on several pages is taken once.
 */
export async function extractPageImages(
  doc: PDFDocument,
  bytes: Uint8Array,
  encrypted = false,
): Promise<{ images: PageImage[]; undecodable: { page: number; filter: string }[] }> {
  const out: PageImage[] = [];
  const undecodable: { page: number; filter: string }[] = [];
  const seen = new Set<string>();
  const pages = doc.getPages().slice(0, pdfLimits.maxPages);
  for (let p = 0; p < pages.length && out.length < pdfLimits.maxImages; p++) {
    // Streams of an encrypted file are stored encrypted: only pdf.js (which decrypts) may read them.
    const jpegs = encrypted ? [] : rawJpegs(pages[p], doc, seen, (filter) => undecodable.push({ page: p + 1, filter }));
    let index = 0;
    for (const j of jpegs.filter((x) => x.fresh))
      out.push({
        page: p + 1,
        index: ++index,
        ext: "jpg",
        bytes: j.bytes,
        width: j.width,
        height: j.height,
        origin: "original",
      });
    if (pageContentTooLarge(doc, p) || (!encrypted && !mayHoldDecodableImages(pages[p], doc))) continue;
    for (const img of await decodedImages(bytes, p + 1, jpegs)) out.push({ page: p + 1, index: ++index, ...img });
  }
  return { images: out.slice(0, pdfLimits.maxImages), undecodable };
}

/** When pdf-lib cannot read the file (e.g. some encrypted ones): every image decoded by pdf.js, as PNG. */
export async function extractDecodedImagesOnly(
  bytes: Uint8Array,
): Promise<{ images: PageImage[]; undecodable: { page: number; filter: string }[] }> {
  const doc = await openPdfJs(bytes);
  const images: PageImage[] = [];
  for (let p = 1; p <= Math.min(doc.numPages, pdfLimits.maxPages) && images.length < pdfLimits.maxImages; p++) {
    let index = 0;
    for (const img of await decodedImages(bytes, p, [])) images.push({ page: p, index: ++index, ...img });
  }
  return { images: images.slice(0, pdfLimits.maxImages), undecodable: [] };
}

/** Filters the serverless pdf.js build cannot decode (its JPEG 2000 and JBIG2 decoders need wasm). */
const UNDECODABLE = new Set(["/JPXDecode", "/JBIG2Decode"]);

interface RawJpeg {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** False when the same XObject was already taken from an earlier page. */
  fresh: boolean;
}

/** DCTDecode image XObjects of a page (and of its form XObjects, three levels deep). */
function rawJpegs(
  page: PDFPage,
  doc: PDFDocument,
  seen: Set<string>,
  onUndecodable: (filter: string) => void,
): RawJpeg[] {
  const found: RawJpeg[] = [];
  const visit = (resources: PDFDict | undefined, depth: number) => {
    const xobjects = resources?.lookup(PDFName.of("XObject"));
    if (!(xobjects instanceof PDFDict) || depth > 3) return;
    for (const value of xobjects.values()) {
      const stream = value instanceof PDFRef ? doc.context.lookup(value) : value;
      if (!(stream instanceof PDFRawStream)) continue;
      const key = value instanceof PDFRef ? value.toString() : "";
      const subtype = stream.dict.get(PDFName.of("Subtype"))?.toString();
      if (subtype === "/Form") visit(stream.dict.lookup(PDFName.of("Resources")) as PDFDict | undefined, depth + 1);
      if (subtype !== "/Image") continue;
      const filter = filtersOf(stream).find((f) => UNDECODABLE.has(f));
      if (filter) onUndecodable(filter.slice(1));
      if (!isPlainDct(stream)) continue;
      const fresh = !key || !seen.has(key);
      if (key) seen.add(key);
      const num = (k: string) => Number(stream.dict.get(PDFName.of(k))?.toString() ?? 0);
      found.push({ bytes: stream.contents, width: num("Width"), height: num("Height"), fresh });
    }
  };
  visit(page.node.Resources(), 0);
  return found;
}

/**
 * pdf.js decodes every image of a page (JPEGs too) to extract any: only ask it when the page has
 * an image XObject that is not a plain JPEG, a form XObject, or inline image data in its content.
 */
function mayHoldDecodableImages(page: PDFPage, doc: PDFDocument): boolean {
  const xobjects = page.node.Resources()?.lookup(PDFName.of("XObject"));
  if (xobjects instanceof PDFDict)
    for (const value of xobjects.values()) {
      const stream = value instanceof PDFRef ? doc.context.lookup(value) : value;
      if (!(stream instanceof PDFRawStream)) continue;
      const subtype = stream.dict.get(PDFName.of("Subtype"))?.toString();
      if (subtype === "/Form" || (subtype === "/Image" && !isPlainDct(stream))) return true;
    }
  return hasInlineImage(page, doc);
}

/** `BI` … `ID` inline image operators in the page's (decoded) content. */
function hasInlineImage(page: PDFPage, doc: PDFDocument): boolean {
  try {
    return pageContentStreams(page, doc).some(
      (part) =>
        part instanceof PDFRawStream &&
        /(^|\s)BI\s/.test(new TextDecoder("latin1").decode(decodePDFRawStream(part).decode())),
    );
  } catch {
    return true;
  }
}

function filtersOf(stream: PDFRawStream): string[] {
  const filter = stream.dict.get(PDFName.of("Filter"));
  return filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
}

function isPlainDct(stream: PDFRawStream): boolean {
  const names = filtersOf(stream);
  return names.length === 1 && names[0] === "/DCTDecode";
}

/** Non-JPEG images of the page from pdf.js; JPEGs already taken raw are skipped by their size. */
async function decodedImages(
  bytes: Uint8Array,
  page: number,
  jpegs: RawJpeg[],
): Promise<Omit<PageImage, "page" | "index">[]> {
  let images: Awaited<ReturnType<typeof extractImages>>;
  const doc = await openPdfJs(bytes);
  try {
    images = await extractImages(doc, page);
  } catch {
    return [];
  } finally {
    await doc
      .getPage(page)
      .then((p) => p.cleanup())
      .catch(() => undefined);
  }
  const pending = jpegs.map((j) => `${j.width}x${j.height}`);
  const out: Omit<PageImage, "page" | "index">[] = [];
  for (const img of images) {
    const at = pending.indexOf(`${img.width}x${img.height}`);
    if (at >= 0) {
      pending.splice(at, 1);
      continue;
    }
    if (img.width * img.height > pdfLimits.maxImagePixels || img.width < 8 || img.height < 8) continue;
    out.push({
      ext: "png",
      bytes: encodePng(img.data, img.width, img.height, img.channels),
      width: img.width,
      height: img.height,
      origin: "decoded",
    });
  }
  return out;
}

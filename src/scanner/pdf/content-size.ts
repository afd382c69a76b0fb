import { PDFArray, PDFName, PDFRawStream, PDFRef, type PDFDocument, type PDFPage } from "pdf-lib";
import { inflateWithin } from "../images/bounded-inflate";
import { pdfLimits } from "./limits";

/**
 * pdf.js builds a page's whole operator list with no limit of its own, so a page whose content
 * streams decode to more than `maxContentBytes` is not handed to it. Flate streams are inflated
 * incrementally and abandoned at the cap (a deflate bomb never expands in memory).
 */
export function pageContentTooLarge(doc: PDFDocument, pageIndex: number): boolean {
  try {
    let total = 0;
    for (const part of pageContentStreams(doc.getPage(pageIndex), doc)) {
      if (!(part instanceof PDFRawStream)) continue;
      total += decodedSize(part, pdfLimits.maxContentBytes - total);
      if (total > pdfLimits.maxContentBytes) return true;
    }
    return false;
  } catch {
    return false;
  }
}

/**
 * Decoded size of a content stream, counted up to just past `budget`. The filter may be a name or
 * an array (`[/FlateDecode]` counts as Flate too: it once slipped past this check). Only a leading
 * Flate is inflated; any other first filter counts its raw length (the stream budget of
 * stream-budget.ts has already refused files whose Flate streams unpack beyond their budget).
 */
function decodedSize(stream: PDFRawStream, budget: number): number {
  const filter = stream.dict.lookup(PDFName.of("Filter"));
  const first = filter instanceof PDFArray ? filter.lookup(0) : filter;
  const name = first instanceof PDFName ? first.asString() : null;
  if (name !== "/FlateDecode" && name !== "/Fl") return stream.contents.length;
  return inflateWithin(stream.contents, budget, false).size;
}

/** The page's `/Contents`: one stream or an array of them, references resolved. */
export function pageContentStreams(page: PDFPage, doc: PDFDocument): unknown[] {
  const contents = page.node.get(PDFName.of("Contents"));
  const resolved = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
  return resolved instanceof PDFArray
    ? resolved.asArray().map((r) => (r instanceof PDFRef ? doc.context.lookup(r) : r))
    : [resolved];
}

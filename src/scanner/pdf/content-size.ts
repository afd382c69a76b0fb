import { Inflate } from "fflate";
import { PDFArray, PDFName, PDFRawStream, PDFRef, type PDFDocument } from "pdf-lib";
import { pdfLimits } from "./limits";

/**
 * pdf.js builds a page's whole operator list with no limit of its own, so a page whose content
 * streams decode to more than `maxContentBytes` is not handed to it. Flate streams are inflated
 * incrementally and abandoned at the cap (a deflate bomb never expands in memory).
 */
export function pageContentTooLarge(doc: PDFDocument, pageIndex: number): boolean {
  try {
    const page = doc.getPage(pageIndex);
    const contents = page.node.get(PDFName.of("Contents"));
    const resolved = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
    const parts = resolved instanceof PDFArray ? resolved.asArray().map((r) => (r instanceof PDFRef ? doc.context.lookup(r) : r)) : [resolved];
    let total = 0;
    for (const part of parts) {
      if (!(part instanceof PDFRawStream)) continue;
      total += decodedSize(part, pdfLimits.maxContentBytes - total);
      if (total > pdfLimits.maxContentBytes) return true;
    }
    return false;
  } catch {
    return false;
  }
}

function decodedSize(stream: PDFRawStream, budget: number): number {
  const filter = stream.dict.get(PDFName.of("Filter"));
  if (filter?.toString() !== "/FlateDecode") return stream.contents.length;
  let size = 0;
  const inflate = new Inflate((chunk) => {
    size += chunk.length;
    if (size > budget) throw new Error("over budget");
  });
  try {
    for (let at = 0; at < stream.contents.length && size <= budget; at += 16_384) inflate.push(stream.contents.subarray(at, at + 16_384), at + 16_384 >= stream.contents.length);
  } catch {
    // over budget or corrupt: the size so far decides
  }
  return size;
}

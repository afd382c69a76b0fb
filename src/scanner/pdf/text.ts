import { extractText } from "unpdf";
import { pdfLimits } from "./limits";
import { withTimeout } from "../../lib/timeout";
import { openPdfJs } from "./pdfjs";

/** Plain text per page, for cross-file analyses (same amounts, names, invoice numbers across files). */
export interface PdfText {
  pages: string[];
  totalPages: number;
  /** True when pages beyond `pdfLimits.maxPages` were left out. */
  truncated: boolean;
}

/** Extracts the text of the first pages with unpdf (pdf.js); never throws, empty when unreadable. */
export async function extractPdfText(bytes: Uint8Array): Promise<PdfText> {
  try {
    const doc = await openPdfJs(bytes);
    const { text, totalPages } = await withTimeout(
      extractText(doc, { mergePages: false }),
      pdfLimits.pdfJsTimeoutMs,
      "text extraction",
    );
    const pages = (text as string[]).slice(0, pdfLimits.maxPages).map((p) => p.replace(/[ \t]+/g, " ").trim());
    return { pages, totalPages, truncated: totalPages > pages.length };
  } catch {
    return { pages: [], totalPages: 0, truncated: false };
  }
}

import { documentFields } from "../cross-file/fields";
import { extractPdfText } from "../pdf/text";
import { pdfReadable } from "../pdf/stream-budget";
import type { Analyzer } from "../types";

/**
 * Reads a PDF's text fields (dates, amounts, IBANs, invoice numbers, names, licence plates and the
 * template skeleton) into the file's metadata for the cross-file analyses, which compare them with
 * the other files and the request's issueDate. It judges nothing on its own (never `assessed`).
 */
export const pdfFields: Analyzer = {
  id: "pdf-fields",
  version: "1.0.0",
  appliesTo: (file) => file.kind === "pdf" && !file.source,
  async analyze(file) {
    if (!pdfReadable(file.bytes)) return { assessed: false, findings: [] };
    const text = await extractPdfText(file.bytes);
    if (text.pages.length === 0) return { assessed: false, findings: [] };
    return {
      assessed: false,
      findings: [],
      metadata: { ...documentFields(text.pages.join("\n")), pagesRead: text.pages.length, truncated: text.truncated },
    };
  },
};

import { getDocumentProxy, getResolvedPDFJS } from "unpdf";
import { IsolateOnce } from "../../lib/isolate-once";
import { pdfLimits } from "./limits";
import { openWithinBudget } from "./stream-budget";

/** pdf.js document as unpdf returns it. */
export type PdfJsDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
export type PdfJsPage = Awaited<ReturnType<PdfJsDocument["getPage"]>>;

const documents = new WeakMap<Uint8Array, Promise<PdfJsDocument>>();

/**
 * Opens bytes with pdf.js (through unpdf), once per bytes object. pdf.js DETACHES the buffer it
 * is given, so it gets a copy. Encrypted files open when the user password is empty. A file over
 * its unpack budget (stream-budget.ts) is never handed to pdf.js: the promise rejects with
 * PdfBudgetError, which the detectors report as a `-` finding.
 */
export function openPdfJs(bytes: Uint8Array): Promise<PdfJsDocument> {
  // maxImageSize: pdf.js decodes images while building operator lists; larger ones are dropped.
  return openWithinBudget(documents, bytes, async () => {
    await pdfJsModule();
    return getDocumentProxy(bytes.slice(), {
      stopAtErrors: false,
      verbosity: 0,
      password: "",
      maxImageSize: pdfLimits.maxImagePixels,
    });
  });
}

/**
 * unpdf loads pdf.js on first use with a dynamic import that concurrent callers would share: it is
 * loaded one caller at a time instead (lib/isolate-once.ts says why).
 */
const pdfJs = new IsolateOnce<"pdfjs", Awaited<ReturnType<typeof getResolvedPDFJS>>>();
const pdfJsModule = () => pdfJs.get("pdfjs", getResolvedPDFJS);

/** Destroys the pdf.js document of these bytes (workers and copies) and forgets it. */
export function closePdfJs(bytes: Uint8Array): void {
  const doc = documents.get(bytes);
  documents.delete(bytes);
  doc?.then((d) => d.loadingTask.destroy()).catch(() => undefined);
}

/** pdf.js operator codes (`OPS`), resolved once. */
let ops: Record<string, number> | null = null;
export async function pdfJsOps(): Promise<Record<string, number>> {
  if (!ops) ops = (await pdfJsModule()).OPS as Record<string, number>;
  return ops;
}

import { pdfLimits } from "./limits";
import { buildPageModel, type PageModel } from "./page-model";
import { pageContentTooLarge } from "./content-size";
import { withTimeout } from "../../lib/timeout";
import { openPdfJs } from "./pdfjs";
import { openPdfLib } from "./pdflib";

const models = new WeakMap<Uint8Array, Promise<PageModel[]>>();

/** Page models of the first `maxPages` pages, built once per bytes object. */
export function pageModels(bytes: Uint8Array): Promise<PageModel[]> {
  let result = models.get(bytes);
  if (!result) {
    result = withTimeout(readPages(bytes), pdfLimits.pdfJsTimeoutMs, "reading the pages");
    models.set(bytes, result);
  }
  return result;
}

/** Pages whose content is too large to interpret get an empty model marked `truncated`. */
async function readPages(bytes: Uint8Array): Promise<PageModel[]> {
  const doc = await openPdfJs(bytes);
  const structure = await openPdfLib(bytes).catch(() => null);
  const pages: PageModel[] = [];
  for (let n = 1; n <= Math.min(doc.numPages, pdfLimits.maxPages); n++) {
    const page = await doc.getPage(n);
    if (structure && pageContentTooLarge(structure, n - 1)) {
      const [x0, y0, x1, y1] = page.view;
      pages.push({ page: n, view: { x0, y0, x1, y1 }, runs: [], fills: [], images: [], truncated: true });
    } else pages.push(await buildPageModel(page, n));
    // Frees the decoded images pdf.js keeps per page; the model holds only boxes.
    page.cleanup();
  }
  return pages;
}

/** Forgets the page models of these bytes. */
export function forgetPageModels(bytes: Uint8Array): void {
  models.delete(bytes);
}

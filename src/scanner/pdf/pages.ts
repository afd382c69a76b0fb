import { pdfLimits } from "./limits";
import { buildPageModel, type PageModel } from "./page-model";
import { openPdfJs, withTimeout } from "./pdfjs";

const models = new WeakMap<Uint8Array, Promise<PageModel[]>>();

/** Time budget for reading one file's pages with pdf.js. */
export const pageReadTimeoutMs = 20_000;

/** Page models of the first `maxPages` pages, built once per bytes object. */
export function pageModels(bytes: Uint8Array): Promise<PageModel[]> {
  let result = models.get(bytes);
  if (!result) {
    result = withTimeout(readPages(bytes), pageReadTimeoutMs, "reading the pages");
    models.set(bytes, result);
  }
  return result;
}

async function readPages(bytes: Uint8Array): Promise<PageModel[]> {
  const doc = await openPdfJs(bytes);
  const pages: PageModel[] = [];
  for (let n = 1; n <= Math.min(doc.numPages, pdfLimits.maxPages); n++) pages.push(await buildPageModel(await doc.getPage(n), n));
  return pages;
}

import type { Attachment } from "../types";
import type { Revision } from "./revisions";
import { pdfLimits } from "./limits";
import { forgetPageModels } from "./pages";
import { closePdfJs } from "./pdfjs";
import { forgetPdfLib } from "./pdflib";

/**
 * Earlier revisions as standalone PDFs. Revision k of an incrementally updated file is exactly the
 * first `end` bytes: the file as it was saved then, with its own header, objects, xref and %%EOF.
 * They are views into the file's bytes (no copies); the newest earlier revisions come first when
 * `maxVersionBytes` does not allow all of them.
 */
export function earlierVersions(fileName: string, bytes: Uint8Array, revisions: Revision[]): Attachment[] {
  const out: Attachment[] = [];
  let budget = pdfLimits.maxVersionBytes;
  for (const r of revisions.slice(0, -1).slice(-pdfLimits.maxRevisions).reverse()) {
    if (r.end > budget) break;
    budget -= r.end;
    out.unshift({
      category: "pdf_versions",
      name: `${fileName}.rev${r.index}.pdf`,
      contentType: "application/pdf",
      bytes: bytes.subarray(0, r.end),
    });
  }
  return out;
}

const views = new WeakMap<Uint8Array, Map<number, Uint8Array>>();

/**
 * Bytes of revision k (1-based), or the whole file for the latest. The same view object is
 * returned each time, so the parse caches keyed by bytes (pdf-lib, pdf.js) are shared.
 */
export function revisionBytes(bytes: Uint8Array, revisions: Revision[], index: number): Uint8Array {
  if (index === revisions.length) return bytes;
  let byIndex = views.get(bytes);
  if (!byIndex) views.set(bytes, (byIndex = new Map()));
  let view = byIndex.get(index);
  if (!view) byIndex.set(index, (view = bytes.subarray(0, revisions[index - 1].end)));
  return view;
}

/**
 * Revisions from `first` to `last` whose cumulative size fits `maxDiffBytes` (each is opened by
 * pdf.js, which copies its input): the indexes to analyse, newest kept when the budget runs out.
 */
export function revisionsWithinBudget(
  revisions: Revision[],
  first: number,
  last: number,
): { indexes: number[]; skipped: number[] } {
  const indexes: number[] = [];
  const skipped: number[] = [];
  let budget = pdfLimits.maxDiffBytes;
  for (let k = last; k >= first; k--) {
    const size = revisions[k - 1].end + revisions[Math.max(0, k - 2)].end;
    if (size <= budget) {
      indexes.unshift(k);
      budget -= size;
    } else skipped.unshift(k);
  }
  return { indexes, skipped };
}

/** Releases the parse caches of an earlier revision once it has been compared. */
export function releaseRevision(bytes: Uint8Array, revisions: Revision[], index: number): void {
  if (index >= revisions.length) return;
  const view = revisionBytes(bytes, revisions, index);
  closePdfJs(view);
  forgetPdfLib(view);
  forgetPageModels(view);
}

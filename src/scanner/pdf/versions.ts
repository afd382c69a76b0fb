import type { Attachment } from "../types";
import type { Revision } from "./revisions";
import { pdfLimits } from "./limits";

/**
 * Earlier revisions as standalone PDFs. Revision k of an incrementally updated file is exactly the
 * first `end` bytes: the file as it was saved then, with its own header, objects, xref and %%EOF.
 */
export function earlierVersions(fileName: string, bytes: Uint8Array, revisions: Revision[]): Attachment[] {
  return revisions
    .slice(0, -1)
    .slice(-pdfLimits.maxRevisions)
    .map((r) => ({
      category: "pdf_versions" as const,
      name: `${fileName}.rev${r.index}.pdf`,
      contentType: "application/pdf",
      bytes: bytes.slice(0, r.end),
    }));
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

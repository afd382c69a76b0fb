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

/** Bytes of revision k (1-based), or the whole file for the latest. */
export function revisionBytes(bytes: Uint8Array, revisions: Revision[], index: number): Uint8Array {
  const r = revisions[index - 1];
  return index === revisions.length ? bytes : bytes.subarray(0, r.end);
}

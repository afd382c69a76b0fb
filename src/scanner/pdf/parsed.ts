import { splitRevisions, type RevisionSplit } from "./revisions";

/**
 * Per-file memo so that the PDF detectors (revisions, signatures, structure, images, diffs)
 * split the same bytes once. Keyed by the bytes object; entries go with it.
 */
const splits = new WeakMap<Uint8Array, RevisionSplit>();

export function revisionsOf(bytes: Uint8Array): RevisionSplit {
  let split = splits.get(bytes);
  if (!split) {
    split = splitRevisions(bytes);
    splits.set(bytes, split);
  }
  return split;
}

/** `%PDF-` within the first 1024 bytes (leading junk is allowed by readers). */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return head.includes("%PDF-");
}

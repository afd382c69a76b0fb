import type { ObjectChange } from "./changes";
import type { PdfValue } from "./objects";
import type { Revision } from "./revisions";

/** Trailer entries every xref section carries; they never point a reader at other content. */
const BOOKKEEPING = new Set(["Size", "Prev", "ID", "XRefStm", "Type", "W", "Index", "Length", "Filter", "DecodeParms"]);

/**
 * References in a revision's trailer(s), per key, read by our own parser: pdf-lib keeps only
 * Root/Info/Encrypt/ID, and a forger can hide a reference under any other key.
 */
export function trailerRefs(revision: Revision): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const section of revision.sections)
    for (const [key, value] of Object.entries(section.trailer.v)) {
      if (BOOKKEEPING.has(key) || out.has(key)) continue;
      out.set(key, refsOf(value, 0));
    }
  return out;
}

function refsOf(v: PdfValue, depth: number): string[] {
  if (depth > 8 || v === null || typeof v !== "object") return [];
  if (Array.isArray(v)) return v.flatMap((x) => refsOf(x, depth + 1));
  if (v.t === "ref") return [`${v.num} ${v.gen} R`];
  if (v.t === "dict") return Object.values(v.v).flatMap((x) => refsOf(x, depth + 1));
  return [];
}

/**
 * A new trailer may point to new document info; switching the catalog or the encryption, or adding
 * references under other keys, changes what a reader shows without touching a single signed object.
 */
export function trailerChanges(before: Map<string, string[]>, after: Map<string, string[]>): ObjectChange[] {
  if (before.size === 0 || after.size === 0) return [];
  const out: ObjectChange[] = [];
  for (const [key, refs] of after) {
    if (key === "Info" || refs.length === 0) continue;
    if ((before.get(key) ?? []).join() === refs.join()) continue;
    const detail =
      key === "Root"
        ? `the trailer now points to another document catalog (${refs.join(", ")})`
        : key === "Encrypt"
          ? "the trailer's encryption entry changed"
          : `the trailer entry /${key} was added or changed (${refs.slice(0, 3).join(", ")})`;
    out.push({ ref: "trailer", kind: "trailer", allowed: false, added: !before.has(key), needs: null, detail });
  }
  return out;
}

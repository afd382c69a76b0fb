import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from "pdf-lib";
import { pdfLimits } from "./limits";

/** One place an indirect object is used: by another object (under its top-level key) or by the trailer. */
export interface Usage {
  /** `N G R` of the object that refers, or "trailer". */
  parent: string;
  /** Key path inside the parent down to the reference, e.g. "AP/N" or "AcroForm/Fields" ("" for an array). */
  key: string;
}

/**
 * Reverse references of one revision: for each indirect object, every object (and trailer key)
 * that refers to it. A change to an object that existed when a document was signed is judged by
 * *all* of these paths (pyHanko's reference tracker does the same): an appearance stream shared
 * with another field, or an object also reachable from an odd catalog or trailer key, is not
 * cleared by the one harmless path a forger shows.
 */
export function usagesOf(doc: PDFDocument, trailer: Map<string, string[]>): Map<string, Usage[]> {
  const usages = new Map<string, Usage[]>();
  let total = 0;
  const add = (child: string, usage: Usage) => {
    // Bounded memory: a file with more references than this is not judged (the caller reports "not checked").
    if (++total > MAX_USAGES) throw new RangeError(`more than ${MAX_USAGES} references to follow`);
    const list = usages.get(child);
    if (!list) usages.set(child, [usage]);
    else if (list.length < 64) list.push(usage);
  };
  for (const [key, refs] of trailer) for (const r of refs) add(r, { parent: "trailer", key });
  let scanned = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (++scanned > pdfLimits.maxObjectsScanned) break;
    const parent = ref.toString();
    const dict = obj instanceof PDFStream ? obj.dict : obj;
    if (dict instanceof PDFDict || dict instanceof PDFArray)
      visitRefs(dict, "", 0, (child, key) => add(child, { parent, key }));
  }
  return usages;
}

/** References one revision may hold before the difference analysis gives up on it (≈ 100 bytes each). */
const MAX_USAGES = 500_000;

/** Calls `found` for each indirect reference inside a direct value, with its key path (bounded depth). */
function visitRefs(
  value: PDFObject | undefined,
  path: string,
  depth: number,
  found: (ref: string, path: string) => void,
): void {
  if (value instanceof PDFRef) found(value.toString(), path);
  else if (depth > pdfLimits.maxNesting) return;
  else if (value instanceof PDFArray) for (const v of value.asArray()) visitRefs(v, path, depth + 1, found);
  else if (value instanceof PDFDict)
    for (const [k, v] of value.entries())
      visitRefs(v, path ? `${path}/${k.decodeText()}` : k.decodeText(), depth + 1, found);
}

/** Fully qualified field name: the /T of the field and its parents joined with dots. */
export function fieldNameOf(doc: PDFDocument, field: PDFDict): string {
  const parts: string[] = [];
  let node: PDFDict | undefined = field;
  for (let depth = 0; node && depth < 32; depth++) {
    const t = node.get(PDFName.of("T"));
    if (t instanceof PDFString || t instanceof PDFHexString) parts.unshift(t.decodeText());
    const parent: PDFObject | undefined = node.get(PDFName.of("Parent"));
    const next: PDFObject | undefined = parent instanceof PDFRef ? doc.context.lookup(parent) : undefined;
    node = next instanceof PDFDict ? next : undefined;
  }
  return parts.join(".");
}

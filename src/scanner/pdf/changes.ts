import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  decodePDFRawStream,
  type PDFDocument,
  type PDFObject,
} from "pdf-lib";
import { latin1Slice } from "./bytes";
import { pdfLimits } from "./limits";
import { openPdfLib } from "./pdflib";
import type { Revision } from "./revisions";
import { revisionBytes } from "./versions";

/** What one object (re)defined by an incremental update is, and whether it may change a signed file. */
export interface ObjectChange {
  ref: string;
  kind:
    | "content"
    | "page"
    | "pages"
    | "catalog"
    | "info"
    | "signature"
    | "annotation"
    | "form-field"
    | "image"
    | "xobject"
    | "font"
    | "metadata"
    | "security"
    | "other";
  /** Allowed after signing: form filling, annotations, further signatures, timestamps, DSS. */
  allowed: boolean;
  added: boolean;
  detail: string;
}

/** Catalog keys a form fill or a later signature may touch. */
const ALLOWED_CATALOG_KEYS = new Set(["AcroForm", "DSS", "Extensions", "Metadata", "Perms", "Version"]);

/**
 * Objects defined in revision `index` (its appended bytes), classified against revision
 * `index - 1`. Identical rewrites (some viewers re-save untouched objects) are not changes.
 */
export async function changesInRevision(
  bytes: Uint8Array,
  revisions: Revision[],
  index: number,
): Promise<ObjectChange[]> {
  const before = revisionBytes(bytes, revisions, index - 1);
  const after = revisionBytes(bytes, revisions, index);
  const [oldDoc, newDoc] = await Promise.all([openPdfLib(before), openPdfLib(after)]);
  const refs = definedIn(after, revisions[index - 2].end, revisions[index - 1].end, newDoc);
  const reach = reachability(newDoc);
  const changes: ObjectChange[] = [];
  for (const ref of refs.slice(0, pdfLimits.maxChangedObjects)) {
    const now = newDoc.context.lookup(ref);
    if (!now) continue;
    const was = oldDoc.context.lookup(ref);
    if (was && sameObject(was, now)) continue;
    const change = classify(ref, was, now, reach, newDoc);
    if (change) changes.push(change);
  }
  return changes;
}

/** Object numbers whose `N G obj` header lies in [from, to), plus members of object streams there. */
function definedIn(bytes: Uint8Array, from: number, to: number, doc: PDFDocument): PDFRef[] {
  const text = latin1Slice(bytes, from, Math.min(to, from + pdfLimits.maxFileBytes));
  const refs = new Map<string, PDFRef>();
  for (const m of text.matchAll(/(?:^|[\r\n])\s*(\d+)\s+(\d+)\s+obj\b/g)) {
    const ref = PDFRef.of(Number(m[1]), Number(m[2]));
    refs.set(ref.toString(), ref);
    const obj = doc.context.lookup(ref);
    if (obj instanceof PDFRawStream && nameOf(obj.dict, "Type") === "ObjStm")
      for (const member of objectStreamMembers(obj)) refs.set(member.toString(), member);
    if (refs.size > pdfLimits.maxChangedObjects) break;
  }
  return [...refs.values()];
}

function objectStreamMembers(stream: PDFRawStream): PDFRef[] {
  try {
    const first = Number(stream.dict.get(PDFName.of("First"))?.toString());
    const head = new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode().subarray(0, first));
    const nums = head.trim().split(/\s+/).map(Number);
    const out: PDFRef[] = [];
    for (let i = 0; i + 1 < nums.length; i += 2) out.push(PDFRef.of(nums[i], 0));
    return out;
  } catch {
    return [];
  }
}

interface Reach {
  contents: Set<string>;
  pages: Set<string>;
  pageTree: Set<string>;
  pageXObjects: Set<string>;
  catalog: string;
  info: string | null;
}

/** Which objects draw the pages (contents, XObjects), which are pages, catalog and info. */
function reachability(doc: PDFDocument): Reach {
  const reach: Reach = {
    contents: new Set(),
    pages: new Set(),
    pageTree: new Set(),
    pageXObjects: new Set(),
    catalog: "",
    info: null,
  };
  const root = doc.context.trailerInfo.Root;
  reach.catalog = root ? root.toString() : "";
  reach.info = doc.context.trailerInfo.Info ? doc.context.trailerInfo.Info.toString() : null;
  try {
    const pages = doc.getPages().slice(0, pdfLimits.maxPages * 20);
    for (const page of pages) {
      reach.pages.add(page.ref.toString());
      const contents = page.node.get(PDFName.of("Contents"));
      if (contents instanceof PDFRef) reach.contents.add(contents.toString());
      const array = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
      if (array instanceof PDFArray)
        for (const c of array.asArray()) if (c instanceof PDFRef) reach.contents.add(c.toString());
      const xobjects = page.node.Resources()?.lookup(PDFName.of("XObject"));
      if (xobjects instanceof PDFDict)
        for (const v of xobjects.values()) if (v instanceof PDFRef) reach.pageXObjects.add(v.toString());
      for (
        let parent = page.node.get(PDFName.of("Parent")), depth = 0;
        parent instanceof PDFRef && depth < 32;
        depth++
      ) {
        reach.pageTree.add(parent.toString());
        const node = doc.context.lookup(parent);
        parent = node instanceof PDFDict ? node.get(PDFName.of("Parent")) : undefined;
      }
    }
  } catch {
    // A broken page tree leaves the sets partial; classification then errs towards "other".
  }
  return reach;
}

function classify(
  ref: PDFRef,
  was: PDFObject | undefined,
  now: PDFObject,
  reach: Reach,
  doc: PDFDocument,
): ObjectChange | null {
  const id = ref.toString();
  const dict = now instanceof PDFDict ? now : now instanceof PDFStream ? now.dict : null;
  const type = dict ? nameOf(dict, "Type") : null;
  const make = (kind: ObjectChange["kind"], allowed: boolean, detail: string): ObjectChange => ({
    ref: id,
    kind,
    allowed,
    added: !was,
    detail,
  });
  if (type === "ObjStm" || type === "XRef") return null;
  if (reach.contents.has(id))
    return make("content", false, was ? "page content stream rewritten" : "page content stream added");
  if (reach.pages.has(id)) {
    const keys = changedKeys(was, now).filter((k) => k !== "Annots");
    return keys.length === 0
      ? make("page", true, "annotation list of a page")
      : make("page", false, `page entries changed: ${keys.join(", ")}`);
  }
  if (reach.pageTree.has(id) || type === "Pages")
    return make("pages", false, "page tree changed (pages added, removed or reordered)");
  if (id === reach.catalog) {
    const keys = changedKeys(was, now).filter((k) => !ALLOWED_CATALOG_KEYS.has(k));
    return keys.length === 0
      ? make("catalog", true, "form or signature entries of the catalog")
      : make("catalog", false, `catalog entries changed: ${keys.join(", ")}`);
  }
  if (id === reach.info) return make("info", true, "document info (producer, dates)");
  if (!dict) return make("other", true, "value object");
  if (type === "Sig" || type === "DocTimeStamp" || dict.has(PDFName.of("ByteRange")))
    return make("signature", true, "signature value");
  if (type === "DSS" || type === "VRI" || dict.has(PDFName.of("VRI")) || dict.has(PDFName.of("Certs")))
    return make("security", true, "validation data (DSS)");
  const subtype = nameOf(dict, "Subtype");
  if (subtype === "Widget" || dict.has(PDFName.of("FT")) || (dict.has(PDFName.of("T")) && !subtype))
    return make("form-field", true, `form field${fieldValue(dict, doc)}`);
  if (type === "Annot" || (subtype && dict.has(PDFName.of("Rect"))))
    return make("annotation", true, `annotation ${subtype ?? ""}`.trim());
  if (reach.pageXObjects.has(id))
    return make(
      subtype === "Image" ? "image" : "xobject",
      false,
      subtype === "Image" ? "image on a page replaced" : "drawn form object replaced",
    );
  if (subtype === "Image") return make("image", true, "image not drawn on a page (e.g. signature appearance)");
  if (
    type === "Font" ||
    type === "FontDescriptor" ||
    dict.has(PDFName.of("Length1")) ||
    subtype === "Type1C" ||
    subtype === "CIDFontType0C" ||
    subtype === "OpenType"
  )
    return make("font", true, "font data");
  if (type === "Metadata") return make("metadata", true, "XMP metadata");
  if (type === "XObject" || subtype === "Form") return make("xobject", true, "appearance of a field or annotation");
  return make("other", true, type ? `object of type ${type}` : "untyped object");
}

function fieldValue(dict: PDFDict, doc: PDFDocument): string {
  const v = dict.get(PDFName.of("V"));
  if (!v) return "";
  const value = v instanceof PDFRef ? doc.context.lookup(v) : v;
  if (value instanceof PDFDict) return value.has(PDFName.of("ByteRange")) ? " (signature)" : " (dictionary)";
  const text = value?.toString() ?? "";
  return ` = ${text.slice(0, 80)}`;
}

function nameOf(dict: PDFDict, key: string): string | null {
  const v = dict.get(PDFName.of(key));
  return v instanceof PDFName ? v.decodeText() : null;
}

function changedKeys(was: PDFObject | undefined, now: PDFObject): string[] {
  const a = was instanceof PDFDict ? was : null;
  const b = now instanceof PDFDict ? now : null;
  if (!a || !b) return ["(whole object)"];
  const keys = new Set([...a.keys(), ...b.keys()].map((k) => k.decodeText()));
  return [...keys].filter((k) => String(a.get(PDFName.of(k))) !== String(b.get(PDFName.of(k))));
}

function sameObject(a: PDFObject, b: PDFObject): boolean {
  if (a instanceof PDFRawStream && b instanceof PDFRawStream)
    return a.dict.toString() === b.dict.toString() && equalBytes(a.contents, b.contents);
  return a.constructor === b.constructor && a.toString() === b.toString();
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

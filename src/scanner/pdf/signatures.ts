import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from "pdf-lib";
import { isWhite, latin1Slice } from "./bytes";
import { fieldNameOf } from "./references";
import { pdfLimits } from "./limits";
import type { Revision } from "./revisions";

/** DocMDP permission of a certification signature: 1 no changes, 2 form filling and signing, 3 also annotations. */
export type DocMdpLevel = 1 | 2 | 3;

/** FieldMDP of a signature: which form fields it locks against later changes. */
export interface FieldLock {
  action: "All" | "Include" | "Exclude";
  fields: string[];
}

/** One signature value (/Sig or /DocTimeStamp dictionary with a /ByteRange). */
export interface SignatureInfo {
  ref: string;
  kind: "signature" | "timestamp";
  byteRange: number[];
  signer: string | null;
  signedAt: string | null;
  subFilter: string | null;
  /** Fully qualified name of the signature field holding this value, when there is one. */
  field: string | null;
  /** DocMDP /P when this is a certification signature, else null (an approval signature). */
  docMdp: DocMdpLevel | null;
  /** FieldMDP locks of this signature (its /Reference, else its field's /Lock). */
  lock: FieldLock | null;
  /** Revision (1-based) whose end the byte range covers, or null when it ends elsewhere. */
  revision: number | null;
  problems: ByteRangeProblem[];
}

/** Ways a /ByteRange fails to cover "the whole revision minus its own /Contents value". */
export type ByteRangeProblem =
  | { kind: "malformed"; detail: string }
  | { kind: "range-count"; ranges: number }
  | { kind: "not-from-start"; start: number }
  | { kind: "gap-not-contents"; from: number; to: number }
  | { kind: "beyond-file"; coveredTo: number; size: number }
  | { kind: "tail-uncovered"; coveredTo: number; revisionEnd: number | null }
  | { kind: "empty-signature" };

/** Every signature dictionary of the (latest) document with its coverage and permissions. */
export function findSignatures(doc: PDFDocument, bytes: Uint8Array, revisions: Revision[]): SignatureInfo[] {
  const fieldOfValue = signatureFields(doc);
  const certification = certificationRef(doc);
  const out: SignatureInfo[] = [];
  let scanned = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (++scanned > pdfLimits.maxObjectsScanned) break;
    if (!(obj instanceof PDFDict) || !obj.has(PDFName.of("ByteRange"))) continue;
    const type = obj.get(PDFName.of("Type"));
    const range = obj.get(PDFName.of("ByteRange"));
    const numbers =
      range instanceof PDFArray ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN)) : [];
    const sub = obj.get(PDFName.of("SubFilter"));
    const field = fieldOfValue.get(ref.toString()) ?? null;
    const transforms = transformParams(doc, obj);
    const info: SignatureInfo = {
      ref: ref.toString(),
      kind: type instanceof PDFName && type.decodeText() === "DocTimeStamp" ? "timestamp" : "signature",
      byteRange: numbers,
      signer: text(obj.get(PDFName.of("Name"))),
      signedAt: text(obj.get(PDFName.of("M"))),
      subFilter: sub instanceof PDFName ? sub.decodeText() : null,
      field: field ? fieldNameOf(doc, field) : null,
      docMdp: transforms.docMdp ?? (certification === ref.toString() ? 2 : null),
      lock: transforms.lock ?? (field ? lockOf(doc, field) : null),
      revision: null,
      problems: [],
    };
    checkByteRange(info, obj, bytes, revisions);
    out.push(info);
    if (out.length >= pdfLimits.maxSignatures) break;
  }
  return out.sort((a, b) => coveredEnd(a) - coveredEnd(b));
}

function coveredEnd(s: SignatureInfo): number {
  const n = s.byteRange.length;
  return n >= 2 ? (s.byteRange[n - 2] ?? 0) + (s.byteRange[n - 1] ?? 0) : 0;
}

/**
 * The standard layout, and the only one that signs a whole revision: `[0 a c d]` where
 * bytes [a, c) are exactly this signature's `/Contents <hex>` value and c + d is where the
 * revision ends. Everything else leaves bytes unsigned (pyHanko: "non-standard coverage").
 */
function checkByteRange(info: SignatureInfo, dict: PDFDict, bytes: Uint8Array, revisions: Revision[]): void {
  const numbers = info.byteRange;
  if (numbers.length === 0 || numbers.length % 2 !== 0 || !numbers.every((n) => Number.isInteger(n) && n >= 0)) {
    info.problems.push({ kind: "malformed", detail: `ByteRange [${numbers.join(" ")}]` });
    return;
  }
  if (numbers.length !== 4) {
    info.problems.push({ kind: "range-count", ranges: numbers.length / 2 });
    return;
  }
  const [a, b, c, d] = numbers;
  if (a !== 0) info.problems.push({ kind: "not-from-start", start: a });
  if (a + b > c) {
    info.problems.push({ kind: "malformed", detail: `ByteRange [${numbers.join(" ")}] overlaps itself` });
    return;
  }
  const coveredTo = c + d;
  if (coveredTo > bytes.length) {
    info.problems.push({ kind: "beyond-file", coveredTo, size: bytes.length });
    return;
  }
  const contents = dict.get(PDFName.of("Contents"));
  if (!gapIsContents(bytes, a + b, c, contents)) info.problems.push({ kind: "gap-not-contents", from: a + b, to: c });
  if (contents instanceof PDFHexString && /^0*$/.test(contents.asString()))
    info.problems.push({ kind: "empty-signature" });
  const end = endIgnoringWhitespace(bytes, coveredTo);
  const revision = revisions.find((r) => endIgnoringWhitespace(bytes, r.end) === end);
  info.revision = revision?.index ?? null;
  if (!revision)
    info.problems.push({
      kind: "tail-uncovered",
      coveredTo,
      revisionEnd: revisions.find((r) => r.end > coveredTo)?.end ?? null,
    });
}

/**
 * The uncovered gap must be exactly `<hex…>`, directly after the `/Contents` key, and hold this
 * signature's own value: a bigger gap, or the hole of some other hex string, leaves content unsigned.
 */
function gapIsContents(bytes: Uint8Array, from: number, to: number, contents: PDFObject | undefined): boolean {
  if (to - from < 2 || bytes[from] !== 0x3c || bytes[to - 1] !== 0x3e) return false;
  let hex = "";
  for (let i = from + 1; i < to - 1; i++) {
    const x = bytes[i];
    const isHex = (x >= 0x30 && x <= 0x39) || (x >= 0x41 && x <= 0x46) || (x >= 0x61 && x <= 0x66);
    if (isHex) hex += String.fromCharCode(x);
    else if (!isWhite(x)) return false;
  }
  let k = from - 1;
  while (k > 0 && isWhite(bytes[k])) k--;
  if (latin1Slice(bytes, k - 8, k + 1) !== "/Contents") return false;
  if (!(contents instanceof PDFHexString)) return false;
  return contents.asString().replace(/\s/g, "").toLowerCase() === hex.toLowerCase();
}

/** Position before trailing whitespace, so `%%EOF\n` and `%%EOF` count as the same end. */
function endIgnoringWhitespace(bytes: Uint8Array, end: number): number {
  let e = end;
  while (e > 0 && isWhite(bytes[e - 1])) e--;
  return e;
}

/** Signature value ref → the field dictionary whose /V it is. */
function signatureFields(doc: PDFDocument): Map<string, PDFDict> {
  const out = new Map<string, PDFDict>();
  let scanned = 0;
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (++scanned > pdfLimits.maxObjectsScanned) break;
    if (!(obj instanceof PDFDict)) continue;
    const v = obj.get(PDFName.of("V"));
    if (v instanceof PDFRef && !obj.has(PDFName.of("ByteRange"))) out.set(v.toString(), obj);
  }
  return out;
}

/** The catalog's /Perms /DocMDP names the certification signature. */
function certificationRef(doc: PDFDocument): string | null {
  const perms = resolve(doc, doc.catalog.get(PDFName.of("Perms")));
  const docMdp = perms instanceof PDFDict ? perms.get(PDFName.of("DocMDP")) : undefined;
  return docMdp instanceof PDFRef ? docMdp.toString() : null;
}

/** DocMDP /P and FieldMDP locks from the signature's /Reference dictionaries (entries may be indirect). */
function transformParams(doc: PDFDocument, sig: PDFDict): { docMdp?: DocMdpLevel; lock?: FieldLock } {
  const out: { docMdp?: DocMdpLevel; lock?: FieldLock } = {};
  const refs = resolve(doc, sig.get(PDFName.of("Reference")));
  if (!(refs instanceof PDFArray)) return out;
  for (const item of refs.asArray().slice(0, 16)) {
    const entry = resolve(doc, item);
    if (!(entry instanceof PDFDict)) continue;
    const method = entry.get(PDFName.of("TransformMethod"));
    const params = resolve(doc, entry.get(PDFName.of("TransformParams")));
    if (!(method instanceof PDFName) || !(params instanceof PDFDict)) continue;
    if (method.decodeText() === "DocMDP") out.docMdp = mdpLevel(resolve(doc, params.get(PDFName.of("P"))));
    if (method.decodeText() === "FieldMDP") out.lock = lockFrom(doc, params) ?? undefined;
  }
  return out;
}

function mdpLevel(p: PDFObject | undefined): DocMdpLevel {
  const n = p instanceof PDFNumber ? p.asNumber() : 2;
  return n === 1 || n === 3 ? n : 2;
}

function lockOf(doc: PDFDocument, field: PDFDict): FieldLock | null {
  const lock = resolve(doc, field.get(PDFName.of("Lock")));
  return lock instanceof PDFDict ? lockFrom(doc, lock) : null;
}

function lockFrom(doc: PDFDocument, params: PDFDict): FieldLock | null {
  const action = params.get(PDFName.of("Action"));
  const name = action instanceof PDFName ? action.decodeText() : "";
  if (name !== "All" && name !== "Include" && name !== "Exclude") return null;
  const list = resolve(doc, params.get(PDFName.of("Fields")));
  const fields =
    list instanceof PDFArray
      ? list
          .asArray()
          .slice(0, 500)
          .map((f) => text(resolve(doc, f)))
          .filter((f): f is string => f !== null)
      : [];
  return { action: name, fields };
}

function resolve(doc: PDFDocument, v: PDFObject | undefined): PDFObject | undefined {
  return v instanceof PDFRef ? doc.context.lookup(v) : v;
}

/** Whether a FieldMDP lock covers a field (a listed name also covers the fields below it). */
export function isLocked(lock: FieldLock, field: string): boolean {
  const listed = lock.fields.some((f) => field === f || field.startsWith(`${f}.`));
  if (lock.action === "All") return true;
  return lock.action === "Include" ? listed : !listed;
}

function text(v: unknown): string | null {
  return v instanceof PDFString || v instanceof PDFHexString ? v.decodeText() : null;
}

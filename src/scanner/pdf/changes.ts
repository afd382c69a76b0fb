import {
  PDFArray,
  PDFDict,
  PDFInvalidObject,
  PDFName,
  PDFRawStream,
  PDFRef,
  decodePDFRawStream,
  type PDFDocument,
  type PDFObject,
} from "pdf-lib";
import { latin1Slice } from "./bytes";
import { catalogProblems, fieldChange, isFieldOrWidget, type FormContext } from "./change-rules";
import { pdfLimits } from "./limits";
import { openPdfLib } from "./pdflib";
import { Judge, nameOf } from "./object-judge";
import { usagesOf } from "./references";
import type { Revision } from "./revisions";
import { type ChangePolicy, type Permission, needsAtMost, APPROVAL } from "./change-policy";
import { trailerChanges, trailerRefs } from "./trailer-changes";
import { revisionBytes } from "./versions";
import { mergedEntries, xrefChanges } from "./xref-changes";
import type { XrefEntry } from "./xref-entries";

/** What one object (re)defined by an incremental update is, and whether it may change a signed file. */
export interface ObjectChange {
  ref: string;
  kind:
    | "content"
    | "page"
    | "pages"
    | "catalog"
    | "trailer"
    | "xref"
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
  /** Allowed under the policy it was judged by (form filling, signatures, DSS, annotations if permitted). */
  allowed: boolean;
  added: boolean;
  /** What the change needs at least (lta < form < annotation), or null when no permission allows it. */
  needs: Permission | null;
  detail: string;
  /** The form field concerned, when there is one. */
  field?: string;
  /** For a changed object still used elsewhere: the first place no change is allowed. */
  usedBy?: UsedBy;
}

/** Where else a changed object is used (localised by the detector; `name` is a key, field name or page number). */
export interface UsedBy {
  where: "trailer" | "catalog" | "form" | "page" | "field" | "signature" | "unused" | "deep";
  name: string;
}

/**
 * Objects defined in revision `index` (its appended bytes) and its trailer, judged against revision
 * `index - 1` under `policy` (the DocMDP/FieldMDP permissions of the signatures before it).
 * Identical rewrites (some viewers re-save untouched objects) are not changes. A pre-existing object
 * is judged by every path the earlier revision reaches it on (`references.ts`).
 */
export async function changesInRevision(
  bytes: Uint8Array,
  revisions: Revision[],
  index: number,
  policy: ChangePolicy = APPROVAL,
): Promise<ObjectChange[]> {
  const before = revisionBytes(bytes, revisions, index - 1);
  const after = revisionBytes(bytes, revisions, index);
  const [oldDoc, newDoc] = await Promise.all([openPdfLib(before), openPdfLib(after)]);
  const refs = definedIn(after, revisions[index - 2].end, revisions[index - 1].end, newDoc);
  const oldTrailer = trailerRefs(revisions[index - 2]);
  const earlierXref = mergedEntries(bytes, revisions.slice(0, index - 1));
  const changed: { ref: PDFRef; was: PDFObject | undefined; now: PDFObject }[] = [];
  for (const ref of refs) {
    const now = newDoc.context.lookup(ref);
    if (!now) continue;
    // pdf-lib keeps what it cannot parse as an invalid object: a damaged update is "not checked", not "allowed".
    if (now instanceof PDFInvalidObject) throw new Error(`object ${ref} of revision ${index} cannot be read`);
    // pdf-lib reads objects in byte order and ignores free entries: an object the earlier xref freed is new.
    const was = inUse(earlierXref, ref) ? oldDoc.context.lookup(ref) : undefined;
    if (!was || !sameObject(was, now)) changed.push({ ref, was, now });
  }
  const form = formContext(oldDoc, newDoc, changed, policy);
  const judge = new Judge(oldDoc, newDoc, form, () => usagesOf(oldDoc, oldTrailer));
  const changes = changed
    .map(({ ref, was, now }) => judge.classify(ref, was, now))
    .filter((c): c is ObjectChange => c !== null);
  changes.push(...trailerChanges(oldTrailer, trailerRefs(revisions[index - 1])));
  changes.push(...catalogProblems(oldDoc, newDoc));
  changes.push(...xrefChanges(bytes, revisions, index));
  return changes.map((c) => ({ ...c, allowed: c.needs !== null && needsAtMost(c.needs, policy) && c.allowed }));
}

/** Whether the earlier revisions' xref has the object in use (no xref read: trust pdf-lib). */
function inUse(xref: Map<number, XrefEntry>, ref: PDFRef): boolean {
  if (xref.size === 0) return true;
  const entry = xref.get(ref.objectNumber);
  if (!entry || entry.type === "free") return false;
  return entry.type === "compressed" || entry.gen === ref.generationNumber;
}

/** Which fields were filled or signed in this revision, and which of those changes are allowed. */
function formContext(
  oldDoc: PDFDocument,
  newDoc: PDFDocument,
  changed: { ref: PDFRef; was: PDFObject | undefined; now: PDFObject }[],
  policy: ChangePolicy,
): FormContext {
  const form: FormContext = { oldDoc, newDoc, policy, filled: new Set(), verdicts: new Map(), kidParents: new Map() };
  for (const { now } of changed)
    if (now instanceof PDFDict && isFieldOrWidget(now))
      for (const kid of kidsOf(newDoc, now)) form.kidParents.set(kid.toString(), now);
  for (const { ref, was, now } of changed) {
    if (!(now instanceof PDFDict) || !isFieldOrWidget(now)) continue;
    const verdict = fieldChange(form, ref, was instanceof PDFDict ? was : undefined, now);
    form.verdicts.set(ref.toString(), verdict);
    if (verdict.needs === null || !verdict.allowed) continue;
    form.filled.add(ref.toString());
    for (const kid of kidsOf(newDoc, now)) form.filled.add(kid.toString());
  }
  return form;
}

function kidsOf(doc: PDFDocument, field: PDFDict): PDFRef[] {
  const kids = field.get(PDFName.of("Kids"));
  const list = kids instanceof PDFRef ? doc.context.lookup(kids) : kids;
  return list instanceof PDFArray
    ? list
        .asArray()
        .slice(0, 256)
        .filter((k): k is PDFRef => k instanceof PDFRef)
    : [];
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
    // Judging only some would let a forger hide one change behind thousands of harmless ones.
    if (refs.size > pdfLimits.maxChangedObjects)
      throw new RangeError(`more than ${pdfLimits.maxChangedObjects} objects in one revision`);
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

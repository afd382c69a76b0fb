import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFDocument,
  type PDFObject,
} from "pdf-lib";
import type { ChangePolicy, Permission } from "./change-policy";
import type { ObjectChange } from "./changes";
import { fieldNameOf } from "./references";
import { isLocked } from "./signatures";

/** The fields of one revision step: which were filled or signed (and allowed), and each field's verdict. */
export interface FormContext {
  oldDoc: PDFDocument;
  newDoc: PDFDocument;
  policy: ChangePolicy;
  /** Refs of fields/widgets whose change is allowed form filling, and the widgets below them. */
  filled: Set<string>;
  verdicts: Map<string, FieldVerdict>;
  /** Widgets listed in the /Kids of a field changed in this revision, which may lack /Parent. */
  kidParents: Map<string, PDFDict>;
}

export interface FieldVerdict {
  allowed: boolean;
  needs: Permission | null;
  detail: string;
  field: string;
}

/** Keys a field or widget changes when it is filled in or signed (pyHanko: VALUE_UPDATE_KEYS, plus /M). */
const VALUE_KEYS = new Set(["V", "AP", "AS", "F", "DA", "Q", "M", "Ff"]);
/** Of these, the ones that change what the field shows: subject to FieldMDP locks. */
const SHOWN_KEYS = new Set(["V", "AP", "AS", "F", "DA", "Q"]);

/**
 * A field or widget defined again after signing. Allowed: a value, appearance or signature put
 * into an existing field that no signature locks, and new signature fields. Not allowed: a signed
 * field's signature removed or replaced, new non-signature fields, renamed fields, changed field
 * type or hierarchy (/Kids), and (like pyHanko) a new visible signature field after certification.
 */
export function fieldChange(form: FormContext, ref: PDFRef, was: PDFDict | undefined, now: PDFDict): FieldVerdict {
  const parent = now.has(PDFName.of("Parent")) ? undefined : form.kidParents.get(ref.toString());
  const field = fieldNameOf(form.newDoc, now) || (parent && fieldNameOf(form.newDoc, parent)) || ref.toString();
  const verdict = (needs: Permission | null, detail: string): FieldVerdict => ({
    allowed: needs !== null,
    needs,
    detail,
    field,
  });
  const type = inherited(form.newDoc, now, "FT") ?? (parent ? inherited(form.newDoc, parent, "FT") : null);
  const visible = isVisible(form.newDoc, now);
  if (!was) {
    if (type !== "Sig") return verdict(null, `new form field "${field}" (${type ?? "no type"}) added after signing`);
    if (visible && form.policy.docMdp !== null)
      return verdict(null, `new visible signature field "${field}" added after a certification signature`);
    return verdict(visible ? "form" : "lta", `new signature field "${field}"`);
  }
  const keys = changedKeys(was, now);
  const typeProblem = typeEntryProblem(was, now);
  if (typeProblem) return verdict(null, `form field "${field}": ${typeProblem}`);
  const other = keys.filter((k) => !VALUE_KEYS.has(k) && k !== "Type");
  if (other.length > 0) return verdict(null, `form field "${field}": ${other.map((k) => `/${k}`).join(", ")} changed`);
  if (keys.includes("AP") && !(resolve(form.newDoc, now.get(PDFName.of("AP"))) instanceof PDFDict))
    return verdict(null, `form field "${field}": its appearance entry is no longer a dictionary`);
  if (type === "Sig" && was.has(PDFName.of("V")) && keys.includes("V"))
    return verdict(null, `the signature in field "${field}" was removed or replaced`);
  const shown = keys.filter((k) => SHOWN_KEYS.has(k));
  // pyHanko: a field that already holds a signature must stay as it is (only its flags may change).
  if (type === "Sig" && signedBefore(form, now, was) && shown.length > 0)
    return verdict(null, `the signed field "${field}": ${shown.map((k) => `/${k}`).join(", ")} changed`);
  const lock = shown.length > 0 ? form.policy.locks.find((l) => isLocked(l.lock, field)) : undefined;
  if (lock) return verdict(null, `form field "${field}" changed although signature "${lock.signature}" locks it`);
  if (shown.length === 0) return verdict("lta", `form field "${field}": flags or date`);
  return verdict("form", type === "Sig" ? `signature field "${field}" signed` : `form field "${field}" filled in`);
}

/** The field (or, for a widget, its parent field) already had a value in the earlier revision. */
function signedBefore(form: FormContext, now: PDFDict, was: PDFDict): boolean {
  if (was.has(PDFName.of("V"))) return true;
  const parent = resolve(form.oldDoc, was.get(PDFName.of("Parent")));
  return (
    parent instanceof PDFDict &&
    parent.has(PDFName.of("V")) &&
    String(now.get(PDFName.of("Parent"))) === String(was.get(PDFName.of("Parent")))
  );
}

/** pyHanko is strict about /Type on fields: it may only be added as /Annot, never changed or deleted. */
function typeEntryProblem(was: PDFDict, now: PDFDict): string | null {
  const before = was.get(PDFName.of("Type"));
  const after = now.get(PDFName.of("Type"));
  if (before && !after) return "/Type deleted";
  if (before && after && String(before) !== String(after)) return "/Type altered";
  if (!before && after && String(after) !== "/Annot") return "/Type set to something other than /Annot";
  return null;
}

/**
 * Checks of the catalog's allowed entries between two revisions: entries may be added or updated
 * but not removed, /Metadata must stay an XMP stream, the DSS must keep its shape and its earlier VRI
 * entries, no form field may disappear, and /AcroForm may change only in its fields and defaults.
 * (/Perms is not among them: a certification cannot be added or altered after a signature.)
 */
export function catalogProblems(oldDoc: PDFDocument, newDoc: PDFDocument): ObjectChange[] {
  const out: ObjectChange[] = [];
  const oldCat = oldDoc.catalog;
  const newCat = newDoc.catalog;
  const problem = (detail: string) =>
    out.push({
      ref: newDoc.context.trailerInfo.Root?.toString() ?? "catalog",
      kind: "catalog",
      allowed: false,
      added: false,
      needs: null,
      detail,
    });
  for (const key of ["AcroForm", "DSS", "Extensions", "Metadata"])
    if (
      oldCat.has(PDFName.of(key)) &&
      !(
        resolve(newDoc, newCat.get(PDFName.of(key))) instanceof PDFDict ||
        resolve(newDoc, newCat.get(PDFName.of(key))) instanceof PDFStream
      )
    )
      problem(`the catalog entry /${key} was removed or emptied`);
  const metadata = newCat.get(PDFName.of("Metadata"));
  if (metadata && String(metadata) !== String(oldCat.get(PDFName.of("Metadata"))) && !isXmp(resolve(newDoc, metadata)))
    problem("the catalog's /Metadata no longer points to an XMP metadata stream");
  const dss = dssProblem(oldDoc, newDoc);
  if (dss) problem(dss);
  const oldForm = resolve(oldDoc, oldCat.get(PDFName.of("AcroForm")));
  const newForm = resolve(newDoc, newCat.get(PDFName.of("AcroForm")));
  if (oldForm instanceof PDFDict && newForm instanceof PDFDict) {
    const keys = changedKeys(oldForm, newForm).filter(
      (k) => !["Fields", "SigFlags", "DR", "DA", "Q", "NeedAppearances"].includes(k),
    );
    if (keys.length > 0) problem(`form entries changed: ${keys.map((k) => `/${k}`).join(", ")}`);
    const before = refsOfArray(oldDoc, oldForm.get(PDFName.of("Fields")));
    const after = new Set(refsOfArray(newDoc, newForm.get(PDFName.of("Fields"))));
    const removed = before.filter((r) => !after.has(r));
    if (removed.length > 0)
      problem(`${removed.length} form field(s) removed from the form (${removed.slice(0, 3).join(", ")})`);
  }
  return out;
}

const DSS_KEYS = new Set(["Type", "VRI", "Certs", "CRLs", "OCSPs"]);
const VRI_KEYS = new Set(["Type", "TU", "TS", "Cert", "CRL", "OCSP"]);

/** PAdES: the DSS holds arrays of certificate/CRL/OCSP streams and a VRI whose old entries stay. */
function dssProblem(oldDoc: PDFDocument, newDoc: PDFDocument): string | null {
  const raw = newDoc.catalog.get(PDFName.of("DSS"));
  if (!raw || (String(raw) === String(oldDoc.catalog.get(PDFName.of("DSS"))) && !(raw instanceof PDFRef))) return null;
  const dss = resolve(newDoc, raw);
  if (!(dss instanceof PDFDict) || dss instanceof PDFStream) return "the DSS is not a dictionary";
  const extra = dss
    .keys()
    .map((k) => k.decodeText())
    .filter((k) => !DSS_KEYS.has(k));
  if (extra.length > 0) return `unexpected DSS entries: ${extra.map((k) => `/${k}`).join(", ")}`;
  for (const key of ["Certs", "CRLs", "OCSPs"])
    if (!streamArray(newDoc, dss.get(PDFName.of(key)))) return `DSS /${key} is not an array of streams`;
  const vri = resolve(newDoc, dss.get(PDFName.of("VRI")));
  if (dss.has(PDFName.of("VRI")) && !(vri instanceof PDFDict)) return "DSS /VRI is not a dictionary";
  const oldDss = resolve(oldDoc, oldDoc.catalog.get(PDFName.of("DSS")));
  const oldVri = oldDss instanceof PDFDict ? resolve(oldDoc, oldDss.get(PDFName.of("VRI"))) : undefined;
  if (oldVri instanceof PDFDict) {
    if (!(vri instanceof PDFDict)) return "DSS /VRI was removed";
    for (const [k, v] of oldVri.entries())
      if (String(vri.get(k)) !== String(v)) return `VRI entry ${k.decodeText().slice(0, 16)}… was changed or removed`;
  }
  if (vri instanceof PDFDict)
    for (const [k, v] of vri.entries()) {
      if (!/^[0-9A-Fa-f]{40}$/.test(k.decodeText()) && !(oldVri instanceof PDFDict && oldVri.has(k)))
        return `VRI key ${k.decodeText().slice(0, 20)} is not a certificate hash`;
      const entry = resolve(newDoc, v);
      if (!(entry instanceof PDFDict) || entry instanceof PDFStream) return "a VRI entry is not a dictionary";
      const odd = entry
        .keys()
        .map((x) => x.decodeText())
        .filter((x) => !VRI_KEYS.has(x));
      if (odd.length > 0) return `unexpected VRI entries: ${odd.map((x) => `/${x}`).join(", ")}`;
      for (const key of ["Cert", "CRL", "OCSP"])
        if (!streamArray(newDoc, entry.get(PDFName.of(key)))) return `VRI /${key} is not an array of streams`;
    }
  return null;
}

function streamArray(doc: PDFDocument, v: PDFObject | undefined): boolean {
  if (v === undefined) return true;
  const array = resolve(doc, v);
  return (
    array instanceof PDFArray &&
    array
      .asArray()
      .slice(0, 4096)
      .every((x) => x instanceof PDFRef && doc.context.lookup(x) instanceof PDFStream)
  );
}

/** An XMP packet: a stream whose (first MB of) data holds x:xmpmeta or rdf:RDF. */
export function isXmp(obj: PDFObject | undefined): boolean {
  if (!(obj instanceof PDFRawStream)) return false;
  try {
    const text = new TextDecoder("latin1").decode(
      decodePDFRawStream(obj)
        .decode()
        .subarray(0, 1 << 20),
    );
    return /<x:xmpmeta|<rdf:RDF/.test(text);
  } catch {
    return false;
  }
}

export function isFieldOrWidget(dict: PDFDict): boolean {
  if (isSignatureValue(dict)) return false;
  const subtype = dict.get(PDFName.of("Subtype"));
  return String(subtype) === "/Widget" || dict.has(PDFName.of("FT")) || (dict.has(PDFName.of("T")) && !subtype);
}

export function isAnnotation(dict: PDFDict): boolean {
  const subtype = dict.get(PDFName.of("Subtype"));
  if (String(subtype) === "/Widget") return false;
  return (
    String(dict.get(PDFName.of("Type"))) === "/Annot" || (subtype instanceof PDFName && dict.has(PDFName.of("Rect")))
  );
}

export function isSignatureValue(dict: PDFDict): boolean {
  const type = String(dict.get(PDFName.of("Type")));
  return type === "/Sig" || type === "/DocTimeStamp" || dict.has(PDFName.of("ByteRange"));
}

export function isValidationData(dict: PDFDict, type: string | null): boolean {
  return type === "DSS" || type === "VRI" || ["VRI", "Certs", "OCSPs", "CRLs"].some((k) => dict.has(PDFName.of(k)));
}

/** A field attribute (/FT) from the field or the parents it inherits from. */
function inherited(doc: PDFDocument, dict: PDFDict, key: string): string | null {
  let node: PDFDict | undefined = dict;
  for (let depth = 0; node && depth < 32; depth++) {
    const v = node.get(PDFName.of(key));
    if (v instanceof PDFName) return v.decodeText();
    const parent = resolve(doc, node.get(PDFName.of("Parent")));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return null;
}

/** A field is visible when it or one of its widgets has a rectangle with an area. */
export function isVisible(doc: PDFDocument, dict: PDFDict): boolean {
  const area = (d: PDFObject | undefined) => {
    const rect = d instanceof PDFDict ? resolve(doc, d.get(PDFName.of("Rect"))) : undefined;
    if (!(rect instanceof PDFArray) || rect.size() !== 4) return 0;
    const [x1, y1, x2, y2] = rect.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : 0));
    return Math.abs(x2 - x1) * Math.abs(y2 - y1);
  };
  if (area(dict) > 0) return true;
  const kids = resolve(doc, dict.get(PDFName.of("Kids")));
  return (
    kids instanceof PDFArray &&
    kids
      .asArray()
      .slice(0, 64)
      .some((k) => area(resolve(doc, k)) > 0)
  );
}

function refsOfArray(doc: PDFDocument, v: PDFObject | undefined): string[] {
  const array = resolve(doc, v);
  return array instanceof PDFArray
    ? array
        .asArray()
        .slice(0, 4096)
        .filter((x) => x instanceof PDFRef)
        .map(String)
    : [];
}

function resolve(doc: PDFDocument, v: PDFObject | undefined): PDFObject | undefined {
  return v instanceof PDFRef ? doc.context.lookup(v) : v;
}

/** Top-level keys whose values differ (a non-dictionary on either side: the whole object). */
export function changedKeys(was: PDFObject | undefined, now: PDFObject): string[] {
  if (!(was instanceof PDFDict) || !(now instanceof PDFDict)) return ["(whole object)"];
  const keys = new Set([...was.keys(), ...now.keys()].map((k) => k.decodeText()));
  return [...keys].filter((k) => String(was.get(PDFName.of(k))) !== String(now.get(PDFName.of(k))));
}

import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from "pdf-lib";
import type { Permission } from "./change-policy";
import {
  changedKeys,
  isAnnotation,
  isFieldOrWidget,
  isSignatureValue,
  isValidationData,
  isVisible,
  isXmp,
  type FormContext,
} from "./change-rules";
import type { ObjectChange, UsedBy } from "./changes";
import { pdfLimits } from "./limits";
import { fieldNameOf, type Usage } from "./references";

/**
 * The judgement of one redefined object: what it is (page content, page, catalog, field, annotation …)
 * and what permission its change needs, over every path of the earlier revision that reaches it.
 */

/** English wording of where else a changed object is used (the evidence detail; the finding localises it). */
const USED_BY_TEXT: Record<UsedBy["where"], (name: string) => string> = {
  trailer: (n) => `the trailer entry /${n}`,
  catalog: (n) => `the catalog entry /${n}`,
  form: (n) => `the form entry /${n}`,
  page: (n) => `page ${n}`,
  field: (n) => `the unchanged form field "${n}"`,
  signature: () => "an earlier signature value",
  unused: () => "nothing in the signed version (an unused object brought back)",
  deep: () => "a chain of objects too deep to follow",
};

interface Reach {
  contents: Set<string>;
  pages: Map<string, number>;
  pageTree: Set<string>;
  pageXObjects: Set<string>;
  catalog: string;
  /** The catalog's /AcroForm when it is an indirect object. */
  acroForm: string | null;
  info: string | null;
}

/** Which objects draw the pages (contents, XObjects), which are pages, catalog and info. */
export function reachability(doc: PDFDocument): Reach {
  const reach: Reach = {
    contents: new Set(),
    pages: new Map(),
    pageTree: new Set(),
    pageXObjects: new Set(),
    catalog: "",
    acroForm: null,
    info: null,
  };
  const root = doc.context.trailerInfo.Root;
  reach.catalog = root ? root.toString() : "";
  reach.info = doc.context.trailerInfo.Info ? doc.context.trailerInfo.Info.toString() : null;
  const acroForm = doc.catalog.get(PDFName.of("AcroForm"));
  reach.acroForm = acroForm instanceof PDFRef ? acroForm.toString() : null;
  try {
    const pages = doc.getPages().slice(0, pdfLimits.maxPages * 20);
    pages.forEach((page, i) => {
      reach.pages.set(page.ref.toString(), i + 1);
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
    });
  } catch {
    // A broken page tree leaves the sets partial; classification then errs towards "other".
  }
  return reach;
}

/** A path on which no change is allowed, with the key inside the user when it says more. */
type Via = UsedBy & { key?: string };

/** Keys of a field whose objects change when the field is filled or signed. */
const FIELD_VALUE_KEYS = new Set(["AP", "V", "MK"]);
/** Usages followed per revision (each changed object walks its users up to the catalog or trailer). */
const MAX_STEPS = 200_000;
/** Entries of /AcroForm whose objects form filling and signing may change. */
const FORM_KEYS = new Set(["Fields", "DR"]);
const RANK: Record<Permission, number> = { lta: 0, form: 1, annotation: 2 };
/** Catalog entries a signed file may change, and what that needs (pyHanko: ROOT_EXEMPT_STRICT_COMPARISON). */
const CATALOG_NEEDS: Record<string, Permission> = {
  // The form's fields carry their own needs (an invisible signature field for a timestamp is lta).
  AcroForm: "lta",
  DSS: "lta",
  Extensions: "lta",
  Metadata: "lta",
  MarkInfo: "lta",
  Version: "lta",
};

/** Classifies one redefined object of a revision. */
export class Judge {
  private readonly reach: Reach;
  private readonly oldReach: Reach;
  private usages: Map<string, Usage[]> | null = null;
  /** Usages followed for this revision; a hostile reference web ends the judgement ("not checked"). */
  private steps = 0;
  constructor(
    private readonly oldDoc: PDFDocument,
    private readonly newDoc: PDFDocument,
    private readonly form: FormContext,
    private readonly loadUsages: () => Map<string, Usage[]>,
  ) {
    this.reach = reachability(newDoc);
    this.oldReach = reachability(oldDoc);
  }

  classify(ref: PDFRef, was: PDFObject | undefined, now: PDFObject): ObjectChange | null {
    const id = ref.toString();
    const dict = now instanceof PDFDict ? now : now instanceof PDFStream ? now.dict : null;
    const type = dict ? nameOf(dict, "Type") : null;
    const make = (kind: ObjectChange["kind"], needs: Permission | null, detail: string, field?: string) =>
      ({ ref: id, kind, allowed: true, added: !was, needs, detail, ...(field ? { field } : {}) }) as ObjectChange;
    if (type === "ObjStm" || type === "XRef") return null;
    if (this.reach.contents.has(id) || this.oldReach.contents.has(id))
      return make("content", null, was ? "page content stream rewritten" : "page content stream added");
    const page = this.reach.pages.get(id) ?? this.oldReach.pages.get(id);
    if (page !== undefined) return this.pageChange(make, page, was, now);
    if (this.reach.pageTree.has(id) || this.oldReach.pageTree.has(id) || type === "Pages")
      return make("pages", null, "page tree changed (pages added, removed or reordered)");
    if (id === this.reach.catalog) return this.catalogChange(make, was, now);
    if (id === this.reach.info) return make("info", "lta", "document info (producer, dates)");
    const verdict = this.form.verdicts.get(id);
    if (verdict) return make("form-field", verdict.allowed ? verdict.needs : null, verdict.detail, verdict.field);
    if (dict && isSignatureValue(dict))
      return was
        ? make("signature", null, "signature value of an earlier signature changed")
        : make("signature", type === "DocTimeStamp" ? "lta" : "form", "signature value");
    const subtype = dict ? nameOf(dict, "Subtype") : null;
    const kind = this.kindOf(id, dict, type, subtype);
    if (!was) {
      if (kind === "image" || kind === "xobject")
        if (this.reach.pageXObjects.has(id))
          return make(kind, null, kind === "image" ? "new image drawn on a page" : "new form object drawn on a page");
      return make(kind, kind === "annotation" ? "annotation" : "lta", `new ${describe(kind, type, subtype)}`);
    }
    if (kind === "metadata" && !isXmp(now))
      return make(kind, null, "XMP metadata replaced by something that is not XMP");
    const context = this.contextOf(id, new Set([id]), 0);
    if (typeof context !== "string")
      return {
        ...make(
          kind,
          null,
          `${describe(kind, type, subtype)} changed, but it is also used by ${USED_BY_TEXT[context.where](context.name)}${context.key ? ` (/${context.key})` : ""}`,
        ),
        usedBy: { where: context.where, name: context.name },
      };
    const needs = kind === "annotation" && RANK[context] < RANK.annotation ? "annotation" : context;
    return make(kind, needs, `${describe(kind, type, subtype)} changed`);
  }

  private kindOf(id: string, dict: PDFDict | null, type: string | null, subtype: string | null): ObjectChange["kind"] {
    if (!dict) return "other";
    if (isValidationData(dict, type)) return "security";
    if (isAnnotation(dict)) return "annotation";
    if (subtype === "Image") return "image";
    if (type === "Metadata") return "metadata";
    if (
      type === "Font" ||
      type === "FontDescriptor" ||
      dict.has(PDFName.of("Length1")) ||
      ["Type1C", "CIDFontType0C", "OpenType"].includes(subtype ?? "")
    )
      return "font";
    if (type === "XObject" || subtype === "Form" || this.reach.pageXObjects.has(id)) return "xobject";
    return "other";
  }

  private pageChange(
    make: (kind: ObjectChange["kind"], needs: Permission | null, detail: string) => ObjectChange,
    page: number,
    was: PDFObject | undefined,
    now: PDFObject,
  ): ObjectChange {
    const keys = changedKeys(was, now).filter((k) => k !== "Annots");
    if (keys.length > 0) return make("page", null, `page ${page}: entries changed: ${keys.join(", ")}`);
    const list = (doc: PDFDocument, obj: PDFObject | undefined) =>
      obj instanceof PDFDict ? arrayRefs(doc, obj.get(PDFName.of("Annots"))) : [];
    const annots = this.annotsNeeds(list(this.oldDoc, was), list(this.newDoc, now));
    return annots.removed > 0
      ? make("page", null, `page ${page}: ${annots.removed} annotation(s) removed from the signed page`)
      : make("page", annots.needs, `page ${page}: annotation list (${annots.added} added)`);
  }

  /** Annotations may be added to a page (widgets of signature fields: form level), never removed. */
  private annotsNeeds(before: string[], after: string[]): { removed: number; added: number; needs: Permission } {
    const now = new Set(after);
    const was = new Set(before);
    const added = after.filter((r) => !was.has(r));
    const annots = added.map((r) => this.newDoc.context.lookup(PDFRef.of(...refNumbers(r))));
    const widget = (a: PDFObject | undefined): a is PDFDict => a instanceof PDFDict && isFieldOrWidget(a);
    // Invisible widgets (document timestamps) are lta, visible ones form filling, anything else an annotation.
    const needs: Permission = !annots.every(widget)
      ? "annotation"
      : annots.some((a) => isVisible(this.newDoc, a))
        ? "form"
        : "lta";
    return { removed: before.filter((r) => !now.has(r)).length, added: added.length, needs };
  }

  private catalogChange(
    make: (kind: ObjectChange["kind"], needs: Permission | null, detail: string) => ObjectChange,
    was: PDFObject | undefined,
    now: PDFObject,
  ): ObjectChange {
    const keys = changedKeys(was, now);
    // A certification adds /Perms in the revision it signs; after any signature /Perms is fixed.
    const allowedKeys = (k: string) => k in CATALOG_NEEDS || (k === "Perms" && this.form.policy.signaturesBefore === 0);
    const forbidden = keys.filter((k) => !allowedKeys(k));
    if (forbidden.length > 0) return make("catalog", null, `catalog entries changed: ${forbidden.join(", ")}`);
    const needs = keys.reduce<Permission>(
      (n, k) => (RANK[CATALOG_NEEDS[k] ?? "lta"] > RANK[n] ? CATALOG_NEEDS[k] : n),
      "lta",
    );
    return make("catalog", needs, `catalog entries ${keys.join(", ") || "(rewritten)"}`);
  }

  /** Under the catalog: DSS, extensions, XMP, permissions; in the form only its fields and default resources. */
  private catalogUsage(path: string): Permission | Via {
    const [key, sub] = path.split("/");
    if (key === "AcroForm" && sub !== undefined && !FORM_KEYS.has(sub)) return { where: "form", name: sub };
    if (key === "AcroForm" && sub === "DR") return "form";
    return CATALOG_NEEDS[key] ?? { where: "catalog", name: key };
  }

  /**
   * The permission a change to pre-existing object `id` needs, over every path of the earlier
   * revision that reaches it; a `Via` names the first path on which no change is allowed.
   */
  private contextOf(id: string, seen: Set<string>, depth: number): Permission | Via {
    this.usages ??= this.loadUsages();
    const uses = this.usages.get(id) ?? [];
    if (uses.length === 0) return { where: "unused", name: "" };
    let needs: Permission = "lta";
    for (const use of uses) {
      if (++this.steps > MAX_STEPS) throw new RangeError(`more than ${MAX_STEPS} references followed`);
      const r = this.usageNeeds(use, seen, depth);
      if (typeof r !== "string") return r;
      if (RANK[r] > RANK[needs]) needs = r;
    }
    return needs;
  }

  private usageNeeds(use: Usage, seen: Set<string>, depth: number): Permission | Via {
    if (use.parent === "trailer")
      return use.key === "Root" || use.key === "Info" ? "lta" : { where: "trailer", name: use.key };
    if (use.parent === this.oldReach.catalog) return this.catalogUsage(use.key);
    if (use.parent === this.oldReach.acroForm) return this.catalogUsage(`AcroForm/${use.key}`);
    const page = this.oldReach.pages.get(use.parent);
    if (page !== undefined)
      return use.key === "Annots" ? "annotation" : { where: "page", name: String(page), key: use.key };
    const parent = this.oldDoc.context.lookup(PDFRef.of(...refNumbers(use.parent)));
    const dict = parent instanceof PDFStream ? parent.dict : parent;
    if (dict instanceof PDFDict) {
      if (this.form.filled.has(use.parent) && FIELD_VALUE_KEYS.has(use.key.split("/")[0])) return "form";
      if (isFieldOrWidget(dict))
        return { where: "field", name: fieldNameOf(this.oldDoc, dict) || use.parent, key: use.key };
      if (isAnnotation(dict)) return "annotation";
      if (isSignatureValue(dict)) return { where: "signature", name: use.parent, key: use.key };
      if (isValidationData(dict, nameOf(dict, "Type"))) return "lta";
    }
    if (seen.has(use.parent)) return "lta";
    if (depth >= 12) return { where: "deep", name: "" };
    seen.add(use.parent);
    return this.contextOf(use.parent, seen, depth + 1);
  }
}

function describe(kind: ObjectChange["kind"], type: string | null, subtype: string | null): string {
  const names: Partial<Record<ObjectChange["kind"], string>> = {
    security: "validation data (DSS)",
    annotation: `annotation${subtype ? ` ${subtype}` : ""}`,
    image: "image",
    metadata: "XMP metadata",
    font: "font data",
    xobject: "form object (appearance stream)",
  };
  return names[kind] ?? (type ? `object of type ${type}` : "untyped object");
}

function arrayRefs(doc: PDFDocument, v: PDFObject | undefined): string[] {
  const array = v instanceof PDFRef ? doc.context.lookup(v) : v;
  return array instanceof PDFArray
    ? array
        .asArray()
        .slice(0, 4096)
        .filter((x): x is PDFRef => x instanceof PDFRef)
        .map((x) => x.toString())
    : [];
}

function refNumbers(id: string): [number, number] {
  const [num, gen] = id.split(" ").map(Number);
  return [num, gen];
}

export function nameOf(dict: PDFDict, key: string): string | null {
  const v = dict.get(PDFName.of(key));
  return v instanceof PDFName ? v.decodeText() : null;
}

import { describe, expect, it } from "vitest";
import { pdfSignatures } from "../../../src/scanner/forensics/pdf-signatures";
import { pdfStructure } from "../../../src/scanner/forensics/pdf-structure";
import type { ScanContext } from "../../../src/scanner/types";
import {
  appearance,
  certified,
  comment,
  fillName,
  form,
  locking,
  signSig1,
  signSig2InPlace,
  signed,
  signedFormCases,
} from "../../../scripts/datagen/pdf/signed-cases";
import {
  baseForm,
  byteRangeOf,
  concat,
  offsetOf,
  rawUpdate,
  sign,
  stream,
  update,
  withByteRange,
  xrefOffset,
} from "../../../scripts/datagen/pdf/signed-forms";
import { ctx, pdfFile } from "./fixtures";

/**
 * The difference analysis on hand-made signed forms (scripts/datagen/pdf/signed-forms.ts), one
 * describe per rule. Each suspicious case rebuilds an attack pyHanko's test suite asserts
 * suspicious (test names in the comments): those files are held out of the shared data.
 */
const analyze = async (bytes: Uint8Array, c: ScanContext = ctx) =>
  pdfSignatures.analyze(await pdfFile("s.pdf", bytes), c);
const codes = (r: { findings: { level: string; code: string }[] }) => r.findings.map((f) => `${f.level}:${f.code}`);
const changes = (r: { findings: { evidence: Record<string, unknown> }[] }) =>
  r.findings.flatMap((f) => (f.evidence.changes as { kind: string; detail: string; ref: string }[] | undefined) ?? []);
const o = form.objects;

describe("signatures: every rebuilt pyHanko case, allowed ones Green and suspicious ones Red", () => {
  it.each(signedFormCases().map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const r = await analyze(c.bytes);
    const levels = r.findings.map((f) => f.level);
    if (c.expected === "allowed") expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
    else expect(levels).toContain("Red");
  });
});

describe("signatures: signed and untouched", () => {
  it("a signature over its whole revision, nothing after it, is Green", async () => {
    expect(codes(await analyze(signed))).toEqual(["Green:PDF_SIGNED_UNCHANGED"]);
  });
  it("reports the signature's field, revision and coverage in the metadata", async () => {
    const r = await analyze(signed);
    expect(r.metadata?.signatures).toEqual([
      expect.objectContaining({ field: "Sig1", revision: 2, certification: null, byteRange: byteRangeOf(signed) }),
    ]);
  });
});

describe("signatures: form filling and further signatures after an approval signature are Green", () => {
  it("a text field filled in with a new appearance (pyHanko test_form_field_postsign_fill)", async () => {
    const r = await analyze(fillName(signed));
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
    expect(changes(r)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "form-field", ref: "5 0 R" })]));
    expect(r.findings[0].explanation).toContain("form field");
  });
  it("a second signature that overwrites its own field's appearance stream in place (test_appearance_update_edge_cases)", async () => {
    const r = await analyze(signSig2InPlace(signed));
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
    expect(changes(r)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "xobject", ref: "9 0 R" })]));
  });
  it("a comment added after an approval signature", async () => {
    expect(codes(await analyze(comment(signed)))).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
  it("/Extensions added to the catalog (test_diff_analysis_add_extensions_dict)", async () => {
    const bytes = update(signed, {
      1: o[1].replace(/>>$/, "/Extensions << /ADBE << /BaseVersion /1.7 /ExtensionLevel 8 >> >> >>"),
    });
    expect(codes(await analyze(bytes))).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
  it("explains in the request's language", async () => {
    const r = await analyze(fillName(signed), { ...ctx, language: "de" });
    expect(r.findings[0].explanation).toMatch(/Formularfeld.*Zertifizierung|Formularfeld.*Signatur/s);
    expect(r.findings[0].explanation).not.toMatch(/form field|appearance|signature value/);
  });
});

describe("signatures: page content, page tree, catalog and signature values may never change after signing", () => {
  it("the page's content stream rewritten (test_skip_diff_scenario_2)", async () => {
    const r = await analyze(update(signed, { 7: stream("BT /F1 18 Tf 50 760 Td (Invoice total 9.234,00 EUR) Tj ET") }));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)).toEqual([expect.objectContaining({ kind: "content", ref: "7 0 R" })]);
    expect(r.findings[0].explanation).toContain("page content (object 7 0 R)");
  });
  it("a form field removed from the form", async () => {
    const r = await analyze(update(signed, { 1: o[1].replace("5 0 R ", "") }));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("form field(s) removed");
  });
  it("a new non-signature field added (test_no_field_type)", async () => {
    const bytes = update(signed, {
      1: o[1].replace("6 0 R]", "6 0 R 32 0 R]"),
      32: "<< /FT /Tx /T (Extra) /V (x) >>",
    });
    expect(codes(await analyze(bytes))).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
  });
  it("a field's type changed (test_form_field_ft_tamper)", async () => {
    const r = await analyze(update(signed, { 5: o[5].replace("/FT /Tx", "/FT /Sig") }));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("/FT");
  });
  it("the earlier signature removed from its field (test_delete_signature)", async () => {
    const twice = signSig2InPlace(signed);
    const r = await analyze(update(twice, { 4: o[4] }));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("removed or replaced");
  });
  it("the appearance of the signed field replaced (pyHanko: a signed field must stay as it is)", async () => {
    const r = await analyze(
      update(signed, {
        4: o[4].replace(/>>$/, "/V 20 0 R /AP << /N 34 0 R >> >>"),
        34: appearance("BT /F1 12 Tf (Approved by the CEO) Tj ET"),
      }),
    );
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain('the signed field "Sig1": /AP changed');
  });
  it("XMP metadata replaced by bogus data (test_bogus_metadata_manipulation)", async () => {
    const withMetadata = (data: string) =>
      update(signed, {
        1: o[1].replace(/>>$/, "/Metadata 33 0 R >>"),
        33: stream(data, "/Type /Metadata /Subtype /XML"),
      });
    const xmp = withMetadata('<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>');
    expect(codes(await analyze(xmp))).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
    expect(codes(await analyze(withMetadata("This is bogus data, yay!")))).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    const inPlace = update(xmp, { 33: stream("This is bogus data, yay!", "/Type /Metadata /Subtype /XML") });
    expect(codes(await analyze(inPlace))).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    const nulled = update(xmp, { 1: o[1].replace(/>>$/, "/Metadata null >>") });
    expect(codes(await analyze(nulled))).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
  });
});

describe("signatures: an object changed after signing is judged by every path that reaches it", () => {
  it("an appearance stream shared with an unchanged field is overwritten (test_disallow_appearance_stream_override_if_clobbers)", async () => {
    const shared = baseForm({
      1: o[1].replace("6 0 R]", "6 0 R 11 0 R]"),
      3: o[3].replace("6 0 R]", "6 0 R 11 0 R]"),
      11: "<< /Type /Annot /Subtype /Widget /FT /Tx /T (FooBar) /Rect [300 700 450 720] /P 3 0 R /AP << /N 9 0 R >> >>",
    });
    const bytes = signSig2InPlace(
      sign(shared.bytes, { sigNumber: 20, field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")] }),
    );
    const r = await analyze(bytes);
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)).toEqual([
      expect.objectContaining({ ref: "9 0 R", detail: expect.stringContaining('"FooBar"') }),
    ]);
    const de = await analyze(bytes, { ...ctx, language: "de" });
    expect(de.findings[0].explanation).toContain("(Objekt 9 0 R), auch vom unveränderten Feld „FooBar“ verwendet");
  });
  it("the appearance stream is also referenced from the trailer (form-update-ap-indirect-sneaky-trailer)", async () => {
    const withTrailerRef = baseForm({}, " /FooBar 9 0 R");
    const first = sign(withTrailerRef.bytes, {
      sigNumber: 20,
      field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")],
      trailerExtra: " /FooBar 9 0 R",
    });
    const r = await analyze(signSig2InPlace(first));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("trailer entry /FooBar");
  });
  it("/Extensions updated while the same object is also a second catalog entry (test_diff_analysis_update_indirect_extensions_not_all_paths)", async () => {
    const twoPaths = baseForm({
      1: o[1].replace(/>>$/, "/Extensions 11 0 R /DontOverrideMe 11 0 R >>"),
      11: "<< /ADBE << /BaseVersion /1.7 /ExtensionLevel 3 >> >>",
    });
    const first = sign(twoPaths.bytes, { sigNumber: 20, field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")] });
    const r = await analyze(update(first, { 11: "<< /ADBE << /BaseVersion /1.7 /ExtensionLevel 8 >> >>" }));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("/DontOverrideMe");
  });
  it("an appearance stream also hung under an odd /AcroForm entry is overwritten", async () => {
    const odd = baseForm({ 1: o[1].replace("/SigFlags 3", "/SigFlags 3 /FooBar 9 0 R") });
    const first = sign(odd.bytes, { sigNumber: 20, field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")] });
    const r = await analyze(signSig2InPlace(first));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("form entry /FooBar");
  });
  it("an object the signed version did not use is brought back (test_pades_dss_object_clobber)", async () => {
    const orphan = baseForm({ 12: "(Hi there)" });
    const first = sign(orphan.bytes, { sigNumber: 20, field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")] });
    const r = await analyze(update(first, { 1: o[1].replace(/>>$/, "/DSS 12 0 R >>"), 12: "<< /Certs [] >>" }));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
  });
  it("an object number the signed version had freed may be used again (pdf-lib still parses the freed body)", async () => {
    const freed = rawUpdate(baseForm({ 12: "(Hi there)" }).bytes, "", ["12 1", "0000000000 00001 f "]);
    const first = signSig1({}, freed);
    const r = await analyze(update(first, { 1: o[1].replace(/>>$/, "/DSS 12 0 R >>"), 12: "<< /Certs [] >>" }));
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
});

describe("signatures: the trailer may not switch what a reader shows", () => {
  it("the trailer points to another catalog hidden in the signed bytes (shadow attack)", async () => {
    const shadow = baseForm({ 12: "<< /Type /Catalog /Pages 2 0 R >>" });
    const first = sign(shadow.bytes, { sigNumber: 20, field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")] });
    const r = await analyze(update(first, { 30: "<< /Producer (x) >>" }, " /Info 30 0 R", "12 0 R"));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0]).toMatchObject({
      kind: "trailer",
      detail: expect.stringContaining("another document catalog"),
    });
  });
  it("a new trailer entry that references an object", async () => {
    const r = await analyze(update(signed, { 30: "<< /A 1 >>" }, " /FooBar 7 0 R"));
    expect(changes(r)).toEqual([
      expect.objectContaining({ kind: "trailer", detail: expect.stringContaining("/FooBar") }),
    ]);
  });
  it("new document info is allowed", async () => {
    const r = await analyze(update(signed, { 30: "<< /Producer (Reader) >>" }, " /Info 30 0 R"));
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
});

describe("signatures: an update's own xref may not free or redirect signed objects (pdf-lib never reads it)", () => {
  it("an object of the signed version freed (test_sign_reject_freed)", async () => {
    const r = await analyze(rawUpdate(signed, "", ["8 1", "0000000000 00001 f "]));
    expect(changes(r)).toEqual([expect.objectContaining({ kind: "xref", detail: expect.stringContaining("freed") })]);
  });
  it("an xref entry pointing back into the signed bytes at another object (test_sign_with_hybrid_sneaky_edit)", async () => {
    const r = await analyze(rawUpdate(signed, "", ["7 1", xrefOffset(offsetOf(signed, 10))]));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("points back into the signed bytes");
  });
  it("the same through the /XRefStm of a hybrid update", async () => {
    const at = signed.length;
    const row = (type: number, a: number, b: number) =>
      String.fromCharCode(type, (a >> 24) & 255, (a >> 16) & 255, (a >> 8) & 255, a & 255, b >> 8, b & 255);
    const data = row(1, offsetOf(signed, 10), 0);
    const xrefStream = `40 0 obj\n<< /Type /XRef /W [1 4 2] /Index [7 1] /Size 64 /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\n`;
    const r = await analyze(rawUpdate(signed, xrefStream, ["40 1", xrefOffset(at)], ` /XRefStm ${at}`));
    expect(changes(r)[0]).toMatchObject({ kind: "xref", detail: expect.stringContaining("object 7") });
  });
  it("an xref entry pointing at bytes that are not the object", async () => {
    const body = "31 0 obj\n<< /Producer (x) >>\nendobj\n";
    const r = await analyze(rawUpdate(signed, body, ["5 1", xrefOffset(signed.length)]));
    expect(changes(r)[0].detail).toContain("not object 5");
  });
  it("an object defined twice in one update, the xref at the first copy and pdf-lib at the last", async () => {
    const forged = stream("BT /F1 18 Tf 50 760 Td (Invoice total 9.234,00 EUR) Tj ET");
    const body = `7 0 obj\n${forged}\nendobj\n7 0 obj\n${o[7]}\nendobj\n`;
    const r = await analyze(rawUpdate(signed, body, ["7 1", xrefOffset(signed.length)]));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("defined twice");
  });
  it("an update whose xref lists only its own objects is fine", async () => {
    const body = "30 0 obj\n<< /Producer (Reader) >>\nendobj\n";
    const r = await analyze(rawUpdate(signed, body, ["30 1", xrefOffset(signed.length)], " /Info 30 0 R"));
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
});

describe("signatures: DocMDP of a certification signature", () => {
  it("P=1: filling in a field is Red (test_no_changes_policy)", async () => {
    const r = await analyze(fillName(certified(1)));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(r.findings[0].explanation).toContain("P=1");
    expect(r.metadata?.signatures).toEqual([expect.objectContaining({ certification: { docMdp: 1 } })]);
  });
  it("P=1: a document timestamp in a new invisible field is allowed (test_no_changes_policy: LTA updates)", async () => {
    const bytes = sign(certified(1), {
      sigNumber: 23,
      sigExtra: "/Type /DocTimeStamp",
      field: [24, "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Timestamp) /Rect [0 0 0 0] /P 3 0 R /V 23 0 R >>"],
      objects: {
        1: o[1].replace("6 0 R]", "6 0 R 24 0 R]").replace(/>>$/, "/Perms << /DocMDP 20 0 R >> >>"),
        3: o[3].replace("6 0 R]", "6 0 R 24 0 R]"),
      },
    });
    const r = await analyze(bytes);
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
  it("a certification added after an approval signature is Red", async () => {
    const bytes = update(signed, { 1: o[1].replace(/>>$/, "/Perms << /DocMDP 20 0 R >> >>") });
    expect(changes(await analyze(bytes))).toEqual([
      expect.objectContaining({ kind: "catalog", detail: expect.stringContaining("Perms") }),
    ]);
  });
  it("P=2: filling in a field is Green", async () => {
    expect(codes(await analyze(fillName(certified(2))))).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
  it("P=2: a comment is Red, P=3 allows it", async () => {
    expect(codes(await analyze(comment(certified(2))))).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(codes(await analyze(comment(certified(3))))).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
  it("P=2: a new visible signature field is Red, as in pyHanko (test_double_sig_add_visible_field_certify)", async () => {
    const bytes = sign(certified(2), {
      sigNumber: 23,
      field: [24, "<< /Type /Annot /Subtype /Widget /FT /Sig /T (SigNew) /Rect [10 74 140 134] /P 3 0 R /V 23 0 R >>"],
      objects: { 1: o[1].replace("6 0 R]", "6 0 R 24 0 R]").replace(/>>$/, "/Perms << /DocMDP 20 0 R >> >>") },
    });
    expect(codes(await analyze(bytes))).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
  });
});

describe("signatures: FieldMDP locks", () => {
  it("a field the signature locks (Include) may not be filled in (test_form_field_in_group_locked_postsign_modify_failure)", async () => {
    const r = await analyze(fillName(locking("Include")));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(changes(r)[0].detail).toContain("locks it");
  });
  it("a field outside the lock (Exclude) may be filled in (…_locked_postsign_modify_success)", async () => {
    expect(codes(await analyze(fillName(locking("Exclude"))))).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
});

describe("signatures: /ByteRange covers the whole revision except its own value (test_anomalous_coverage)", () => {
  const [, b, c, d] = byteRangeOf(signed);
  it.each([
    ["tail uncovered", [0, b, c, d - 40], "Red:PDF_SIGNATURE_TAIL_UNCOVERED"],
    ["gap bigger than the signature value", [0, b - 5, c, d], "Red:PDF_SIGNATURE_GAP"],
    ["not from the start", [3, b - 3, c, d], "Red:PDF_SIGNATURE_GAP"],
    ["one range", [0, signed.length], "Red:PDF_SIGNATURE_BYTE_RANGE_INVALID"],
    ["three ranges", [0, b, c, 10, c + 20, d - 20], "Red:PDF_SIGNATURE_BYTE_RANGE_INVALID"],
    ["past the end of the file", [0, b, c, d + 100], "Red:PDF_SIGNATURE_BYTE_RANGE_INVALID"],
  ])("%s", async (_name, range, code) => {
    const r = await analyze(withByteRange(signed, range));
    expect(codes(r)).toContain(code);
    expect(codes(r)).not.toContain("Green:PDF_SIGNED_UNCHANGED");
  });
  it("bytes after the last %%EOF are covered by no signature", async () => {
    expect(codes(await analyze(concat(signed, "garbage that is not a revision\n")))).toEqual([
      "Red:PDF_SIGNATURE_TAIL_UNCOVERED",
    ]);
  });
  it("a later incremental update is not an uncovered tail: it is analysed as a revision", async () => {
    expect(codes(await analyze(fillName(signed)))).not.toContain("Red:PDF_SIGNATURE_TAIL_UNCOVERED");
  });
});

describe("signatures: hostile updates after signing", () => {
  it("an unreadable object in a later update: not checked (Yellow), never Green, never a throw", async () => {
    const garbage = concat(
      signed,
      `31 0 obj\n<< /Type /Annot ]]]\nendobj\nxref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 40 /Root 1 0 R /Prev 999999 >>\nstartxref\n${signed.length}\n%%EOF\n`,
    );
    expect(codes(await analyze(garbage))).toEqual(["Yellow:PDF_SIGNATURE_CHANGES_NOT_CHECKED"]);
  });
  it("a change hidden behind more objects than one revision is judged for: not checked (Yellow), never Green", async () => {
    const many: Record<number, string> = { 7: stream("BT /F1 18 Tf 50 760 Td (Invoice total 9.234,00 EUR) Tj ET") };
    for (let n = 100; n < 2200; n++) many[n] = "(filler)";
    expect(codes(await analyze(update(signed, many)))).toEqual(["Yellow:PDF_SIGNATURE_CHANGES_NOT_CHECKED"]);
  });
  it("an xref stream declaring 10^12 entries (which hangs pdf-lib) is not opened: '-' with the reason", async () => {
    const at = signed.length;
    const xrefStream =
      "40 0 obj\n<< /Type /XRef /W [0 0 0] /Index [1 999999999999] /Size 64 /Length 0 >>\nstream\n\nendstream\nendobj\n";
    const bytes = rawUpdate(signed, xrefStream, ["40 1", xrefOffset(at)], ` /XRefStm ${at}`);
    expect(await analyze(bytes)).toEqual({ assessed: false, findings: [] });
    const structure = await pdfStructure.analyze(await pdfFile("s.pdf", bytes), ctx);
    expect(structure.findings).toEqual([
      expect.objectContaining({
        code: "PDF_UNPACK_BUDGET_EXCEEDED",
        level: "-",
        evidence: expect.objectContaining({ part: "xref" }),
      }),
    ]);
    expect(structure.findings[0].explanation).toContain("999999999999 object entries");
  });
});

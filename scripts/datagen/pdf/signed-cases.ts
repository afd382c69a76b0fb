// Signed-form variants for the difference analysis (tests and `npm run eval pdf`): the changes
// pyHanko's test suite asserts allowed or suspicious, rebuilt on a hand-written one-page form
// (signed-forms.ts). No Node APIs, so the workerd tests use them too.
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
} from "./signed-forms";

export const form = baseForm();
const o = form.objects;

export const appearance = (content: string, bbox = "0 0 150 50") =>
  stream(content, `/Type /XObject /Subtype /Form /BBox [${bbox}] /Resources << /Font << /F1 10 0 R >> >>`);

/** Signs field Sig1 (object 4) of the form, with extra signature entries or objects. */
export const signSig1 = (extra: Partial<Parameters<typeof sign>[1]> = {}, bytes = form.bytes) =>
  sign(bytes, { sigNumber: 20, field: [4, o[4].replace(/>>$/, "/V 20 0 R >>")], ...extra });

export const signed = signSig1();

/** Fills the text field "Name" with a new value and a new appearance stream (pyHanko: set_text_field). */
export const fillName = (bytes: Uint8Array) =>
  update(bytes, {
    5: o[5].replace("/AP << /N 8 0 R >>", "/V (Alice) /AP << /N 21 0 R >>"),
    21: appearance("BT /F1 12 Tf (Alice) Tj ET", "0 0 250 20"),
  });

/** Signs the empty field Sig2 and, like Adobe Reader, overwrites its appearance stream 9 in place. */
export const signSig2InPlace = (bytes: Uint8Array) =>
  sign(bytes, {
    sigNumber: 22,
    field: [6, o[6].replace(/>>$/, "/V 22 0 R >>")],
    objects: { 9: appearance("q 0 0 1 rg 0 0 150 50 re f Q") },
  });

/** Sig1 as a certification signature with DocMDP /P p. */
export const certified = (p: number) =>
  signSig1({
    sigExtra: `/Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P ${p} /V /1.2 >> >>]`,
    objects: { 1: o[1].replace(/>>$/, "/Perms << /DocMDP 20 0 R >> >>") },
  });

/** Sig1 with a FieldMDP lock on the field "Name". */
export const locking = (action: "Include" | "Exclude" | "All") =>
  signSig1({
    sigExtra: `/Reference [<< /Type /SigRef /TransformMethod /FieldMDP /TransformParams << /Type /TransformParams /Action /${action} /Fields [(Name)] /V /1.2 >> >>]`,
  });

/** A text annotation (comment) added to the page. */
export const comment = (bytes: Uint8Array) =>
  update(bytes, {
    3: o[3].replace("6 0 R]", "6 0 R 31 0 R]"),
    31: "<< /Type /Annot /Subtype /Text /Rect [10 10 30 30] /Contents (note) >>",
  });

/** A form whose base revision also references stream 9 (Sig2's appearance) from somewhere else. */
export const sharedAppearance = (extra: Record<number, string>, trailerExtra = "") =>
  signSig2InPlace(signSig1({ trailerExtra }, baseForm(extra, trailerExtra).bytes));

export interface SignedCase {
  name: string;
  /** What pyHanko asserts for the corresponding test: the change is allowed, or suspicious. */
  expected: "allowed" | "suspicious";
  /** The pyHanko test (pyhanko_tests/test_diff_analysis.py) the case rebuilds. */
  pyhanko: string;
  bytes: Uint8Array;
}

/** Every variant, allowed and suspicious, in one list. */
export function signedFormCases(): SignedCase[] {
  const [, b, c, d] = byteRangeOf(signed);
  const allowed = (name: string, pyhanko: string, bytes: Uint8Array): SignedCase => ({
    name,
    expected: "allowed",
    pyhanko,
    bytes,
  });
  const suspicious = (name: string, pyhanko: string, bytes: Uint8Array): SignedCase => ({
    name,
    expected: "suspicious",
    pyhanko,
    bytes,
  });
  return [
    allowed("text field filled in", "test_form_field_postsign_fill", fillName(signed)),
    allowed(
      "second signature, its appearance overwritten in place",
      "test_appearance_update_edge_cases",
      signSig2InPlace(signed),
    ),
    allowed("certified P=2, field filled in", "test_double_sig_add_field (FILL_FORMS)", fillName(certified(2))),
    allowed(
      "FieldMDP Exclude, other field filled in",
      "test_form_field_in_group_locked_postsign_modify_success",
      fillName(locking("Exclude")),
    ),
    allowed(
      "/Extensions added",
      "test_diff_analysis_add_extensions_dict",
      update(signed, {
        1: o[1].replace(/>>$/, "/Extensions << /ADBE << /BaseVersion /1.7 /ExtensionLevel 8 >> >> >>"),
      }),
    ),
    suspicious(
      "page content rewritten",
      "test_skip_diff_scenario_2",
      update(signed, { 7: stream("BT /F1 18 Tf 50 760 Td (Invoice total 9.234,00 EUR) Tj ET") }),
    ),
    suspicious(
      "certified P=1, field filled in",
      "test_no_changes_policy (NO_CHANGES_DIFF_POLICY)",
      fillName(certified(1)),
    ),
    suspicious(
      "certified P=2, comment added",
      "test_double_signature_certify_first (ANNOTATE vs FILL_FORMS)",
      comment(certified(2)),
    ),
    suspicious(
      "FieldMDP Include, locked field filled in",
      "test_form_field_in_group_locked_postsign_modify_failure",
      fillName(locking("Include")),
    ),
    suspicious(
      "appearance shared with field FooBar overwritten",
      "test_disallow_appearance_stream_override_if_clobbers (…-sneaky)",
      sharedAppearance({
        1: o[1].replace("6 0 R]", "6 0 R 11 0 R]"),
        3: o[3].replace("6 0 R]", "6 0 R 11 0 R]"),
        11: "<< /Type /Annot /Subtype /Widget /FT /Tx /T (FooBar) /Rect [300 700 450 720] /P 3 0 R /AP << /N 9 0 R >> >>",
      }),
    ),
    suspicious(
      "appearance also in the trailer overwritten",
      "test_disallow_appearance_stream_override_if_clobbers (…-sneaky-trailer)",
      sharedAppearance({}, " /FooBar 9 0 R"),
    ),
    suspicious(
      "/Extensions object also under another catalog key",
      "test_diff_analysis_update_indirect_extensions_not_all_paths",
      update(
        signSig1(
          {},
          baseForm({
            1: o[1].replace(/>>$/, "/Extensions 11 0 R /DontOverrideMe 11 0 R >>"),
            11: "<< /ADBE << /BaseVersion /1.7 /ExtensionLevel 3 >> >>",
          }).bytes,
        ),
        { 11: "<< /ADBE << /BaseVersion /1.7 /ExtensionLevel 8 >> >>" },
      ),
    ),
    suspicious(
      "form field removed",
      "test_form_field_structure_modification",
      update(signed, { 1: o[1].replace("5 0 R ", "") }),
    ),
    suspicious(
      "field type changed",
      "test_form_field_ft_tamper",
      update(signed, { 5: o[5].replace("/FT /Tx", "/FT /Sig") }),
    ),
    suspicious("earlier signature removed", "test_delete_signature", update(signSig2InPlace(signed), { 4: o[4] })),
    suspicious(
      "object freed in the update's xref",
      "test_sign_reject_freed",
      rawUpdate(signed, "", ["8 1", "0000000000 00001 f "]),
    ),
    suspicious(
      "xref entry redirected into the signed bytes",
      "test_sign_with_hybrid_sneaky_edit",
      rawUpdate(signed, "", ["7 1", xrefOffset(offsetOf(signed, 10))]),
    ),
    suspicious("tail uncovered", "test_anomalous_coverage (tail-uncovered)", withByteRange(signed, [0, b, c, d - 40])),
    suspicious(
      "gap bigger than the signature value",
      "test_anomalous_coverage (signature-gap-too-big)",
      withByteRange(signed, [0, b - 5, c, d]),
    ),
    suspicious("one byte range", "test_anomalous_coverage (one-byterange)", withByteRange(signed, [0, signed.length])),
    suspicious(
      "three byte ranges",
      "test_anomalous_coverage (weird-byterange)",
      withByteRange(signed, [0, b, c, 10, c + 20, d - 20]),
    ),
    suspicious(
      "bytes after the last %%EOF",
      "test_anomalous_coverage (tail-uncovered)",
      concat(signed, "garbage that is not a revision\n"),
    ),
  ];
}

/**
 * The signed files of ../shared/data/pdf/pyhanko and what pyHanko's own tests assert about them
 * (pyhanko_tests/test_diff_analysis.py and the CMS/signing tests, MatthiasValvekens/pyHanko).
 */
export const ALLOWED_AFTER_SIGNING: [string, string][] = [
  // test_diff_analysis_add_extensions_dict: modification_level == FORM_FILLING
  ["extensions-direct.pdf", "add_extensions_dict"],
  ["extensions-indirect.pdf", "add_extensions_dict"],
  ["extensions-update-direct.pdf", "add_extensions_dict"],
  ["extensions-update-indirect.pdf", "add_extensions_dict"],
  // test_double_sig_adobe_reader: first signature FORM_FILLING, docmdp_ok (Adobe Reader, object streams, XMP updates)
  ["minimal-two-fields-signed-twice.pdf", "double_sig_adobe_reader"],
  ["minimal-signed-twice-second-created.pdf", "double_sig_adobe_reader"],
  ["minimal-signed-twice-both-created.pdf", "double_sig_adobe_reader"],
  // test_signature_without_type_is_form_filling: FORM_FILLING
  ["minimal-signed-twice-no-sig-type.pdf", "signature_without_type_is_form_filling"],
  // test_validate_separate_annot_with_indir_kids: val_trusted(emb, extd=True) for both signatures
  ["separate-annots-kids-indir.pdf", "validate_separate_annot_with_indir_kids"],
  // test_pades_sign_twice_indirect_arrs / test_pades_sign_update_dss: Sig1 and Sig2 val_trusted(extd=True)
  // on these files with one more update appended (DSS, document timestamps)
  ["pades-lta-dss-indirect-arrs-test.pdf", "pades_sign_twice_indirect_arrs"],
  ["pades-lta-dss-indirect-arrs-test-2.pdf", "pades_sign_update_dss"],
];

/** Signed once, nothing after it: pyHanko validates them intact (coverage ENTIRE_FILE). */
export const UNCHANGED_SINCE_SIGNING: [string, string][] = [
  [
    "certified-with-indirect-refs-in-dir.pdf",
    "test_diff_analysis: indir_ref_in_sigref_dict, val_trusted before the timestamp",
  ],
  ["pdf-sig-with-econtent.pdf", "test_cms: econtent signature validates"],
  ["sig-no-signed-attrs.pdf", "test_cms: signature without signed attributes validates"],
  ["pades-with-old-style-signing-cert-attr.pdf", "test_pades: old-style signing certificate attribute"],
  ["pades-with-old-style-signing-cert-attr-issser.pdf", "test_pades: old-style signing certificate attribute"],
  ["ed448-shake256-nolen.pdf", "test_cms: Ed448 signature"],
  ["ed448-disallowed-hash.pdf", "test_cms: Ed448 with a disallowed hash (cryptographic, not structural)"],
  ["signed-encrypted-pubkey-with-catalog-ref.pdf", "test_sign_encrypted: signed and public-key encrypted"],
];

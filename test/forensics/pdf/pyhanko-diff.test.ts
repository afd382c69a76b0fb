import { describe, expect, it } from "vitest";
import { pdfRevisions } from "../../../src/scanner/forensics/pdf-revisions";
import { pdfSignatures } from "../../../src/scanner/forensics/pdf-signatures";
import { ctx, pdfFile, sharedPdf } from "./fixtures";

/**
 * Every signed file of ../shared/data/pdf/pyhanko against what pyHanko's own test suite asserts
 * about it (pyhanko_tests/test_diff_analysis.py and the CMS/signing tests, MatthiasValvekens/pyHanko).
 * The files pyHanko asserts suspicious (…-sneaky, coverage-anomalies/, extensions-indirect-not-all-paths)
 * are held out of the shared data; their attacks are rebuilt by hand in signature-changes.test.ts.
 */
const ALLOWED_AFTER_SIGNING: [string, string][] = [
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
const UNCHANGED_SINCE_SIGNING: [string, string][] = [
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

const analyze = async (path: string) =>
  pdfSignatures.analyze(await pdfFile(path, await sharedPdf(`pyhanko/${path}`)), ctx);
const codes = (r: { findings: { level: string; code: string }[] }) => r.findings.map((f) => `${f.level}:${f.code}`);

describe("pyHanko: changes its tests assert allowed are Green, with what they were", () => {
  it.each(ALLOWED_AFTER_SIGNING)("%s (pyHanko test_%s)", async (path) => {
    const r = await analyze(path);
    expect(codes(r)).toEqual(["Green:pdf_allowed_changes_after_signature"]);
    expect(r.findings[0].evidence.changes).not.toEqual([]);
  });
});

describe("pyHanko: signed files without later changes are Green", () => {
  it.each(UNCHANGED_SINCE_SIGNING)("%s (%s)", async (path) => {
    expect(codes(await analyze(path))).toEqual(["Green:pdf_signed_unchanged"]);
  });
});

describe("pyHanko: saves that are signatures and allowed additions are no reason to look", () => {
  it.each(["minimal-signed-twice-no-sig-type.pdf", "separate-annots-kids-indir.pdf", "pdf-sig-with-econtent.pdf"])(
    "%s: the revision count is Green",
    async (path) => {
      const r = await pdfRevisions.analyze(await pdfFile(path, await sharedPdf(`pyhanko/${path}`)), ctx);
      expect(r.findings.map((f) => `${f.level}:${f.code}`)).toEqual(["Green:pdf_incremental_updates_signed"]);
    },
  );
  it("edits saved before the first signature stay Yellow (the signature is not verified, so it launders nothing)", async () => {
    const r = await pdfRevisions.analyze(await pdfFile("e.pdf", await sharedPdf("pyhanko/extensions-direct.pdf")), ctx);
    expect(r.findings[0]).toMatchObject({ code: "pdf_incremental_updates", level: "Yellow" });
  });
});

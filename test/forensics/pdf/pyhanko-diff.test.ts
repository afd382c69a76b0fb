import { describe, expect, it } from "vitest";
import { pdfRevisions } from "../../../src/scanner/forensics/pdf-revisions";
import { pdfSignatures } from "../../../src/scanner/forensics/pdf-signatures";
import {
  ALLOWED_AFTER_SIGNING,
  UNCHANGED_SINCE_SIGNING,
  form,
  signSig1,
} from "../../../scripts/datagen/pdf/signed-cases";
import { stream, update } from "../../../scripts/datagen/pdf/signed-forms";
import { ctx, pdfFile, sharedPdf } from "./fixtures";

/**
 * Every signed file of ../shared/data/pdf/pyhanko against what pyHanko's own test suite asserts
 * about it (the lists, with the asserting pyHanko test per file, are in scripts/datagen/pdf/signed-cases.ts).
 * The files pyHanko asserts suspicious (…-sneaky, coverage-anomalies/, extensions-indirect-not-all-paths)
 * are held out of the shared data; their attacks are rebuilt by hand in signature-changes.test.ts.
 */
const analyze = async (path: string) =>
  pdfSignatures.analyze(await pdfFile(path, await sharedPdf(`pyhanko/${path}`)), ctx);
const codes = (r: { findings: { level: string; code: string }[] }) => r.findings.map((f) => `${f.level}:${f.code}`);

describe("pyHanko: changes its tests assert allowed are Green, with what they were", () => {
  it.each(ALLOWED_AFTER_SIGNING)("%s (pyHanko test_%s)", async (path) => {
    const r = await analyze(path);
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
    expect(r.findings[0].evidence.changes).not.toEqual([]);
  });
});

describe("pyHanko: signed files without later changes are Green", () => {
  it.each(UNCHANGED_SINCE_SIGNING)("%s (%s)", async (path) => {
    expect(codes(await analyze(path))).toEqual(["Green:PDF_SIGNED_UNCHANGED"]);
  });
});

describe("pyHanko: saves that are signatures and allowed additions are no reason to look", () => {
  it.each(["minimal-signed-twice-no-sig-type.pdf", "separate-annots-kids-indir.pdf", "pdf-sig-with-econtent.pdf"])(
    "%s: the revision count is Green",
    async (path) => {
      const r = await pdfRevisions.analyze(await pdfFile(path, await sharedPdf(`pyhanko/${path}`)), ctx);
      expect(r.findings.map((f) => `${f.level}:${f.code}`)).toEqual(["Green:PDF_INCREMENTAL_UPDATES_SIGNED"]);
    },
  );
  it("pyHanko's own saves before signing (a signature field prepared) are explained too", async () => {
    const r = await pdfRevisions.analyze(await pdfFile("e.pdf", await sharedPdf("pyhanko/extensions-direct.pdf")), ctx);
    expect(r.findings[0]).toMatchObject({ code: "PDF_INCREMENTAL_UPDATES_SIGNED", level: "Green" });
  });
  it("a page edited before signing stays Yellow (the signature is not verified, so it launders nothing)", async () => {
    const edited = update(form.bytes, { 7: stream("BT /F1 18 Tf 50 760 Td (Invoice total 9.234,00 EUR) Tj ET") });
    const r = await pdfRevisions.analyze(await pdfFile("e.pdf", signSig1({}, edited)), ctx);
    expect(r.findings[0]).toMatchObject({ code: "PDF_INCREMENTAL_UPDATES", level: "Yellow" });
  });
});

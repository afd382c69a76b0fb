import { describe, expect, it } from "vitest";
import { appendUpdate, trailerOf, whiteBoxIncrementally } from "../../../scripts/datagen/pdf/edits";
import { pdfSignatures } from "../../../src/scanner/forensics/pdf-signatures";
import { PDFDocument } from "pdf-lib";
import { ctx, pdfFile, sharedPdf } from "./fixtures";

const analyze = async (bytes: Uint8Array) => pdfSignatures.analyze(await pdfFile("s.pdf", bytes), ctx);
const codes = (r: { findings: { level: string; code: string }[] }) => r.findings.map((f) => `${f.level}:${f.code}`);

describe("signatures: signed and untouched", () => {
  it.each(["qpdf/digitally-signed.pdf", "pyhanko/pdf-sig-with-econtent.pdf"])("%s is Green", async (path) => {
    const r = await analyze(await sharedPdf(path));
    expect(codes(r)).toEqual(["Green:PDF_SIGNED_UNCHANGED"]);
  });
  it("an unsigned file has no signature findings", async () => {
    expect((await analyze(await sharedPdf("qpdf/minimal.pdf"))).findings).toEqual([]);
  });
});

describe("signatures: form filling, annotations and later signatures are allowed", () => {
  it.each([
    "pyhanko/extensions-direct.pdf",
    "pyhanko/extensions-indirect.pdf",
    "pyhanko/extensions-update-direct.pdf",
    "pyhanko/extensions-update-indirect.pdf",
    "pyhanko/minimal-signed-twice-no-sig-type.pdf",
    "pyhanko/minimal-two-fields-signed-twice.pdf",
    "pyhanko/pades-lta-dss-indirect-arrs-test-2.pdf",
  ])("%s", async (path) => {
    const r = await analyze(await sharedPdf(path));
    expect(codes(r)).toEqual(["Green:PDF_ALLOWED_CHANGES_AFTER_SIGNATURE"]);
  });
});

describe("signatures: any other change after signing is Red", () => {
  it("a white box and new amount appended after the signature", async () => {
    const signed = await sharedPdf("pyhanko/pdf-sig-with-econtent.pdf");
    const r = await analyze(await whiteBoxIncrementally(signed, { x: 50, y: 50, w: 100, h: 20 }, "99.999,00 EUR"));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(r.findings[0].evidence.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "content", allowed: false })]),
    );
  });
  it("a page rotated after signing (page entries other than annotations)", async () => {
    const signed = await sharedPdf("qpdf/digitally-signed.pdf");
    const doc = await PDFDocument.load(signed, { updateMetadata: false });
    const page = doc.getPage(0);
    const dict = page.node.toString();
    const body = /\/Rotate\s+\d+/.test(dict)
      ? dict.replace(/\/Rotate\s+\d+/, "/Rotate 90")
      : dict.replace(/^<</, "<< /Rotate 90");
    const r = await analyze(appendUpdate(signed, [{ ref: page.ref, body }], trailerOf(doc, signed)));
    expect(codes(r)).toEqual(["Red:PDF_CHANGED_AFTER_SIGNATURE"]);
    expect(r.findings[0].evidence.changes).toEqual([
      expect.objectContaining({ kind: "page", detail: "page 1: entries changed: Rotate" }),
    ]);
  });
  it("a file rewritten after signing breaks the byte range (qpdf removed restrictions)", async () => {
    const r = await analyze(await sharedPdf("qpdf/minimal-signed-restrictions-removed.pdf"));
    expect(codes(r)).toEqual(expect.arrayContaining(["Red:PDF_SIGNATURE_GAP", "Red:PDF_SIGNATURE_TAIL_UNCOVERED"]));
    expect(codes(r)).not.toContain("Green:PDF_SIGNED_UNCHANGED");
  });
});

import { describe, expect, it } from "vitest";
import {
  editAmountIncrementally,
  makeInvoice,
  whiteBoxIncrementally,
  whiteBoxRewritten,
} from "../../../scripts/datagen/pdf/edits";
import { pdfStructure } from "../../../src/scanner/forensics/pdf-structure";
import { parsePdfDate } from "../../../src/scanner/pdf/metadata";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { repeatedSubsets } from "../../../src/scanner/pdf/content-checks";
import { ctx, dataUrlBytes, pdfFile, sharedPdf } from "./fixtures";
import photoUrl from "../../../../shared/data/photos/opencv-doc/ela_original.jpg?inline";

const totalBox = { x: 418, y: 634, w: 90, h: 16 };
const analyze = async (name: string, bytes: Uint8Array, context = ctx) =>
  pdfStructure.analyze(await pdfFile(name, bytes), context);
const codes = (r: { findings: { level: string; code: string }[] }) => r.findings.map((f) => `${f.level}:${f.code}`);

describe("structure: an untouched invoice is Green", () => {
  it("generated invoice", async () => {
    expect(codes(await analyze("inv.pdf", await makeInvoice()))).toEqual(["Green:PDF_STRUCTURE_CLEAN"]);
  });
  it("ZUGFeRD invoice with its embedded XML", async () => {
    const r = await analyze(
      "z.pdf",
      await sharedPdf("zugferd/ZUGFeRDv2_correct_FNFE-factur-x-examples_Facture_FR_MINIMUM.pdf"),
    );
    expect(codes(r)).toEqual(["Green:PDF_STRUCTURE_CLEAN", "Green:PDF_EMBEDDED_EINVOICE"]);
  });
  it("an OCR layer on a scan is not 'invisible text'", async () => {
    const r = await analyze("ocr.pdf", await sharedPdf("pypdf/Seige_of_Vicksburg_Sample_OCR.pdf"));
    expect(codes(r)).not.toContain("Yellow:PDF_INVISIBLE_TEXT");
    expect(r.metadata?.scannedPages).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("structure: covered text", () => {
  it("a white box with new text on top is Red and names both values", async () => {
    const r = await analyze("wb.pdf", await whiteBoxIncrementally(await makeInvoice(), totalBox, "9.234,56 EUR"));
    const f = r.findings.find((x) => x.code === "PDF_TEXT_COVERED_AND_OVERWRITTEN");
    expect(f?.level).toBe("Red");
    expect(f?.evidence).toMatchObject({ regions: [{ page: 1, hidden: "1.234,56 EUR", writtenOver: "9.234,56 EUR" }] });
  });
  it("the same edit saved by pdf-lib also names the editing tool", async () => {
    const r = await analyze("wb2.pdf", await whiteBoxRewritten(await makeInvoice(), totalBox, "9.234,56 EUR"));
    expect(codes(r)).toEqual(
      expect.arrayContaining(["Yellow:PDF_EDITOR_TOOL", "Red:PDF_TEXT_COVERED_AND_OVERWRITTEN"]),
    );
  });
  it("an amount swapped inside the content stream leaves the structure clean (the revision diff finds it)", async () => {
    const r = await analyze(
      "amt.pdf",
      await editAmountIncrementally(await makeInvoice(), "1.234,56 EUR", "7.234,56 EUR"),
    );
    expect(codes(r)).toEqual(["Green:PDF_STRUCTURE_CLEAN"]);
  });
});

describe("structure: a white box on a scan", () => {
  it("is reported with its place", async () => {
    const doc = await PDFDocument.create();
    doc.setProducer("Scanner App 3.1"); // pdf-lib as producer/creator would be reported as an editing tool
    doc.setCreator("Scanner App");
    // Fixed dates: ctx.now is fixed, and pdf-lib would stamp today's date (a "future" date after ctx.now).
    doc.setCreationDate(new Date("2026-11-02T09:00:00Z"));
    doc.setModificationDate(new Date("2026-11-02T09:00:00Z"));
    const page = doc.addPage([595, 842]);
    page.drawImage(await doc.embedJpg(dataUrlBytes(photoUrl)), { x: 0, y: 0, width: 595, height: 842 });
    const scan = await doc.save();
    const r = await analyze(
      "scan.pdf",
      await whiteBoxIncrementally(scan, { x: 100, y: 100, w: 200, h: 30 }, "1.000,00 EUR"),
    );
    expect(r.findings.find((f) => f.code === "PDF_BOX_OVER_SCAN")?.evidence).toMatchObject({
      regions: [{ page: 1, box: { x0: 100, y0: 100, x1: 300, y1: 130 } }],
    });
    expect(codes(await analyze("scan.pdf", scan))).toEqual(["Green:PDF_STRUCTURE_CLEAN"]);
  });
});

describe("structure: active content and metadata", () => {
  it("JavaScript and Launch actions are reported", async () => {
    const r = await analyze("sf.pdf", await sharedPdf("pypdf/SF424_page2.pdf"));
    expect(codes(r)).toEqual(expect.arrayContaining(["Yellow:PDF_JAVASCRIPT", "Yellow:PDF_LAUNCH_ACTION"]));
  });
  it("a file changed after the issueDate is Yellow", async () => {
    const r = await analyze("inv.pdf", await makeInvoice(), { ...ctx, issueDate: new Date("2026-10-01T00:00:00Z") });
    expect(codes(r)).toContain("Yellow:PDF_CHANGED_AFTER_ISSUE_DATE");
  });
  it("modified long after creation is Yellow with both dates", async () => {
    const r = await analyze(
      "k.pdf",
      await sharedPdf("zugferd/ZUGFeRDv2_correct_intarsys_MINIMUM_zugferd_2p0_MINIMUM.pdf"),
    );
    expect(r.findings.find((f) => f.code === "PDF_MODIFIED_AFTER_CREATION")?.evidence).toMatchObject({
      created: "2019-01-21T12:25:09.000Z",
      hours: 100,
    });
  });
  it("parses PDF dates with offsets", () => {
    expect(parsePdfDate("D:20190125175335+01'00'")?.toISOString()).toBe("2019-01-25T16:53:35.000Z");
    expect(parsePdfDate("garbage")).toBeNull();
  });
});

describe("structure: unreadable or hostile files give '-', never a throw", () => {
  it.each(["pypdf/r6-user-password.pdf", "qpdf/issue-99.pdf", "qpdf/fuzz-16214.pdf"])("%s", async (path) => {
    const r = await analyze("bad.pdf", await sharedPdf(path));
    expect(r.findings[0].level).toBe("-");
    expect(r.assessed).toBe(false);
  });
  it("the page-tree loop is handled", async () => {
    const r = await analyze("loop.pdf", await sharedPdf("qpdf/pages-loop.pdf"));
    expect(r.findings.length).toBeGreaterThan(0);
  });
});

describe("structure: fonts", () => {
  it("a number in a font used nowhere else on its line's page is Yellow", async () => {
    const doc = await PDFDocument.create();
    doc.setProducer("Muster Faktura 4.2");
    doc.setCreator("Muster Faktura");
    const page = doc.addPage([595, 842]);
    const helvetica = await doc.embedFont(StandardFonts.Helvetica);
    const courier = await doc.embedFont(StandardFonts.Courier);
    page.drawText("Material", { x: 50, y: 700, size: 11, font: helvetica });
    page.drawText("(Ziegel, Folie)", { x: 110, y: 700, size: 11, font: helvetica });
    page.drawText("254,56 EUR", { x: 420, y: 700, size: 11, font: courier });
    page.drawText("Reparatur 980,00 EUR", { x: 50, y: 680, size: 11, font: helvetica });
    const r = await analyze("font.pdf", await doc.save());
    expect(r.findings.find((f) => f.code === "PDF_NUMBER_IN_ODD_FONT")).toMatchObject({
      level: "Yellow",
      evidence: { runs: [{ page: 1, text: "254,56 EUR", size: 11 }] },
    });
  });
  it("one base font under several subset prefixes is found", () => {
    expect(repeatedSubsets(["ABCDEF+Arial", "GHIJKL+Arial", "MNOPQR+Verdana", "Helvetica"])).toEqual([
      { base: "Arial", prefixes: ["ABCDEF", "GHIJKL"] },
    ]);
  });
});

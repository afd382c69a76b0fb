import { describe, expect, it } from "vitest";
import {
  appendPageIncrementally,
  editAmountIncrementally,
  makeInvoice,
  whiteBoxIncrementally,
} from "../../../scripts/datagen/pdf/edits";
import { pdfDiffs } from "../../../src/scanner/forensics/pdf-diffs";
import { getDocumentProxy } from "unpdf";
import { ctx, pdfFile, sharedPdf } from "./fixtures";

const analyze = async (name: string, bytes: Uint8Array, language = ctx.language) =>
  pdfDiffs.analyze(await pdfFile(name, bytes), { ...ctx, language });
const codes = (r: { findings: { level: string; code: string }[] }) => r.findings.map((f) => `${f.level}:${f.code}`);

/** Text of the diff PDF as pdf.js reads it (what a claims handler sees). */
async function diffPdfText(bytes: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(bytes.slice());
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  return content.items.map((i) => ("str" in i ? i.str : "")).join(" ");
}

describe("diffs: a changed amount is found and shown with its earlier value", () => {
  it("incremental update rewriting the content stream", async () => {
    const r = await analyze(
      "inv.pdf",
      await editAmountIncrementally(await makeInvoice(), "1.234,56 EUR", "7.234,56 EUR"),
    );
    expect(codes(r)).toEqual(["Red:PDF_TEXT_CHANGED_IN_UPDATE"]);
    expect(r.findings[0].evidence).toMatchObject({
      from: 1,
      to: 2,
      changes: [{ kind: "changed", page: 1, before: "1.234,56 EUR", after: "7.234,56 EUR" }],
    });
    const [diff] = r.attachments!;
    expect(diff).toMatchObject({ category: "pdf_diffs", name: "inv.pdf.diff.pdf", contentType: "application/pdf" });
    const text = await diffPdfText(diff.bytes);
    expect(text).toContain("7.234,56 EUR"); // the later page itself
    expect(text).toContain("before: 1.234,56 EUR"); // the earlier value beside it
  });

  it("white box pasted over the amount: the covered value is the earlier one", async () => {
    const r = await analyze(
      "wb.pdf",
      await whiteBoxIncrementally(await makeInvoice(), { x: 418, y: 634, w: 90, h: 16 }, "9.234,56 EUR"),
    );
    expect(r.findings[0].evidence).toMatchObject({
      changes: [{ kind: "changed", before: "1.234,56 EUR", after: "9.234,56 EUR" }],
    });
    expect(await diffPdfText(r.attachments![0].bytes)).toContain("1.234,56 EUR");
  });

  it("labels follow the request language", async () => {
    const r = await analyze(
      "inv.pdf",
      await editAmountIncrementally(await makeInvoice(), "1.234,56 EUR", "7.234,56 EUR"),
      "de",
    );
    expect(await diffPdfText(r.attachments![0].bytes)).toContain("vorher: 1.234,56 EUR");
    expect(r.findings[0].title).toBe("Sichtbarer Text nachträglich geändert");
  });
});

describe("diffs: pages added in an update", () => {
  it("are reported and shown in the diff PDF, labelled in the request language", async () => {
    const r = await analyze(
      "p.pdf",
      await appendPageIncrementally(await makeInvoice(), "Zusatzleistung: Geruest 2.400,00 EUR"),
      "pl",
    );
    expect(r.findings.find((f) => f.code === "PDF_PAGES_CHANGED_IN_UPDATE")?.evidence).toMatchObject({
      before: 1,
      after: 2,
    });
    const text = await diffPdfText(r.attachments![0].bytes);
    expect(text).toContain("Zusatzleistung");
    expect(text).toContain("Ta strona zostala dodana."); // ł folded: the standard font has no Polish glyphs
  });
});

describe("diffs: real incremental updates are described, not all Red", () => {
  it("qpdf good19: text replaced in an update (Potato -> Salad)", async () => {
    const r = await analyze("g.pdf", await sharedPdf("qpdf/good19.pdf"));
    expect(r.findings[0].evidence).toMatchObject({ changes: [{ before: "Potato", after: "Salad" }] });
  });
  it("a form filled in Acrobat is a Green form-value change", async () => {
    const r = await analyze("f.pdf", await sharedPdf("qpdf/form-filled-by-acrobat.pdf"));
    expect(codes(r)).toEqual(["Green:PDF_FORM_VALUES_CHANGED"]);
  });
  it("comments added in a viewer are Yellow annotations", async () => {
    const r = await analyze("c.pdf", await sharedPdf("pypdf/commented.pdf"));
    expect(codes(r)).toEqual(["Yellow:PDF_ANNOTATIONS_CHANGED", "Yellow:PDF_ANNOTATIONS_CHANGED"]);
  });
  it("a ZUGFeRD XML attached in an update is a document-level change", async () => {
    const r = await analyze("z.pdf", await sharedPdf("zugferd/FX_EN16931_Einfach.pdf"));
    expect(codes(r)).toEqual(["Yellow:PDF_DOCUMENT_ENTRIES_CHANGED"]);
    expect(r.attachments).toEqual([]);
  });
  it("a single-revision file has nothing to compare", async () => {
    expect((await analyze("m.pdf", await makeInvoice())).findings).toEqual([]);
  });
});

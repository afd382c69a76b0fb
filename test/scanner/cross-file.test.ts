import { env } from "cloudflare:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import leuvenA from "../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import leuvenB from "../../../shared/data/photos/opencv-doc/leuvenB.jpg?inline";
import { analyzerSets } from "../../src/scanner/analysis/analyzer-sets";
import { fileTypeAnalyzer } from "../../src/scanner/forensics/file-type";
import { metadataAnalyzer } from "../../src/scanner/forensics/metadata";
import { pdfFields } from "../../src/scanner/forensics/pdf-fields";
import { pdfStructure } from "../../src/scanner/forensics/pdf-structure";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { createAccount } from "../helpers";
import { expectRegisteredFindings } from "../support/finding-codes";
import { bytesOf } from "../capture-page/support";
import { zip } from "./fixtures";
import { postScanner, scanCase } from "./http";

/** The detectors whose metadata the cross-file analyses read (EXIF, thumbnail hashes, PDF info and text). */
const bindings = { ...env, ANALYZERS: "cross-file-test" };
let unregister: () => void;
beforeAll(() => {
  unregister = analyzerSets.add("cross-file-test", async () => [
    fileTypeAnalyzer,
    thumbnailAnalyzer,
    metadataAnalyzer,
    pdfStructure,
    pdfFields,
  ]);
});
afterAll(() => unregister());

/** One workshop's invoice layout: both invoices of the case are drawn by it, with other values. */
async function invoice(v: { number: string; date: string; total: string }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const lines = [
    "Autohaus Beispiel GmbH - Karosserie und Lack",
    "Musterstrasse 12, 10115 Berlin",
    `Rechnung Nr. ${v.number}`,
    `Rechnungsdatum: ${v.date}`,
    "Kunde: Anna Schmidt",
    "Kennzeichen: B-XY 1234",
    "Instandsetzung Tuer vorne links, Lackierung",
    `Gesamtbetrag: ${v.total} EUR`,
    "IBAN: DE89 3704 0044 0532 0130 00",
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, size: 12, font }));
  return pdf.save();
}

interface Body {
  cross_file_analyses: {
    documents: { file: string; fields: { documentDate: string; total: number; invoiceNumbers: string[] } }[];
    captures: { file: string; capturedAt: string }[];
    findings: { code: string; level: string; files: string[]; explanation: string }[];
  };
  agenticRecommendation: {
    action: string;
    summary: string;
    reasons: { code: string; level: string; files: string[] }[];
  };
}

describe("cross-file analyses and the recommendation (spec 2.6 add-ons)", () => {
  it("finds the invoice that contradicts the photos, the altered second version and the template, and refers the case", async () => {
    const { apiKey } = await createAccount({ features: { crossFileAnalyses: true, agenticRecommendation: true } });
    // The photos were taken on 14.04.2019 (EXIF, side.jpg first); the repair invoice is dated twelve days earlier.
    const files = {
      "front.jpg": bytesOf(leuvenA),
      "side.jpg": bytesOf(leuvenB),
      "invoice.pdf": await invoice({ number: "RE-2019-0417", date: "02.04.2019", total: "4.850,00" }),
      "invoice-corrected.pdf": await invoice({ number: "RE-2019-0417", date: "16.04.2019", total: "2.150,00" }),
    };
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase("CF"),
      zip: zip(files),
      headers: { accept: "application/json", language: "en", issueDate: "2019-04-20" },
      bindings,
    });
    expect(res.status).toBe(200);
    const body = await res.json<Body>();
    const cross = body.cross_file_analyses;

    const invoiceFields = cross.documents.find((d) => d.file === "invoice.pdf")?.fields;
    expect(invoiceFields).toMatchObject({ documentDate: "2019-04-02", total: 4850, invoiceNumbers: ["RE-2019-0417"] });
    expect(cross.captures.map((c) => c.capturedAt?.slice(0, 10))).toEqual(["2019-04-14", "2019-04-14"]);

    expectRegisteredFindings(cross.findings);
    const byCode = new Map(cross.findings.map((f) => [f.code, f]));
    expect(byCode.get("CROSS_DOCUMENT_BEFORE_PHOTOS")).toMatchObject({
      level: "Yellow",
      files: ["invoice.pdf", "side.jpg"],
    });
    expect(byCode.get("CROSS_DOCUMENT_BEFORE_PHOTOS")?.explanation).toContain(
      "dated 2019-04-02, 12 days before the first photo",
    );
    expect(byCode.get("CROSS_INVOICE_NUMBER_CONFLICT")).toMatchObject({
      level: "Red",
      files: ["invoice.pdf", "invoice-corrected.pdf"],
    });
    expect(byCode.get("CROSS_INVOICE_NUMBER_CONFLICT")?.explanation).toContain("4850, 2150");
    expect(byCode.get("CROSS_SHARED_TEMPLATE")?.files).toEqual(["invoice.pdf", "invoice-corrected.pdf"]);
    // Neither the photos' dates (same day) nor the invoices (before issueDate) give more.
    expect(byCode.has("CROSS_CAPTURE_TIME_SPREAD")).toBe(false);
    expect(byCode.has("CROSS_DOCUMENT_AFTER_ISSUE_DATE")).toBe(false);

    const recommendation = body.agenticRecommendation;
    expect(recommendation.action).toBe("refer_to_fraud_unit");
    expect(recommendation.summary).toMatch(/^Refer to the fraud unit/);
    expect(recommendation.reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: "CROSS_INVOICE_NUMBER_CONFLICT",
          level: "Red",
          files: ["invoice.pdf", "invoice-corrected.pdf"],
        }),
        expect.objectContaining({ code: "CROSS_DOCUMENT_BEFORE_PHOTOS", files: ["invoice.pdf", "side.jpg"] }),
        expect.objectContaining({ code: "CROSS_SHARED_TEMPLATE" }),
      ]),
    );
  });
});

import { describe, expect, it } from "vitest";
import { makeInvoice } from "../../../scripts/datagen/pdf/edits";
import { extractPdfText } from "../../../src/scanner/pdf/text";
import { sharedPdf } from "./fixtures";

describe("text extraction (unpdf) for cross-file analyses", () => {
  it("returns each page's text", async () => {
    const text = await extractPdfText(await makeInvoice());
    expect(text.totalPages).toBe(1);
    expect(text.pages[0]).toContain("Gesamtbetrag");
    expect(text.pages[0]).toContain("1.234,56 EUR");
  });
  it("reads a real ZUGFeRD invoice", async () => {
    const text = await extractPdfText(await sharedPdf("zugferd/FX_EN16931_Einfach.pdf"));
    expect(text.pages.join("\n")).toContain("471102");
  });
  it("an unreadable file gives empty text, not an error", async () => {
    expect(await extractPdfText(new TextEncoder().encode("%PDF-1.4 garbage"))).toEqual({
      pages: [],
      totalPages: 0,
      truncated: false,
    });
  });
});

import { describe, expect, it } from "vitest";
import { pdfRevisions } from "../../../src/scanner/forensics/pdf-revisions";
import { splitRevisions } from "../../../src/scanner/pdf/revisions";
import { ctx, pdfFile, sharedPdf, sharedPdfPaths } from "./fixtures";

describe("fixture bytes reach workerd", () => {
  it("loads the shared PDFs through ?inline imports", async () => {
    expect(sharedPdfPaths.length).toBe(179);
    const bytes = await sharedPdf("qpdf/minimal.pdf");
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  });
});

describe("revisions: one per incremental update", () => {
  it.each([
    ["qpdf/minimal.pdf", 1],
    ["qpdf/lin1.pdf", 1], // linearized: two %%EOF, one revision
    ["qpdf/hybrid-xref.pdf", 2],
    ["qpdf/lin-delete-and-reuse.pdf", 3], // linearized + 2 updates
    ["pyhanko/minimal-signed-twice-both-created.pdf", 2], // linearized, then signed
    ["pypdf/outline-without-title.pdf", 1], // %%EOF inside stream data
    ["pypdf/commented.pdf", 3],
    ["zugferd/ZUGFeRDv1_correct_Intarsys_ZUGFeRD_1p0_BASIC_Einfach.pdf", 5],
    ["pyhanko/pades-lta-dss-indirect-arrs-test-2.pdf", 7],
  ])("%s has %i revision(s)", async (path, count) => {
    expect(splitRevisions(await sharedPdf(path)).revisions).toHaveLength(count);
  });

  it("survives an xref /Prev loop and says so", async () => {
    const split = splitRevisions(await sharedPdf("qpdf/append-xref-loop.pdf"));
    expect(split.problems.join()).toMatch(/loop/);
    expect(split.revisions.length).toBeGreaterThanOrEqual(2);
  });
});

describe("pdf_versions: earlier revisions as standalone PDFs", () => {
  it("attaches rev1..rev(n-1), each ending with its own %%EOF", async () => {
    const bytes = await sharedPdf("pypdf/commented.pdf");
    const result = await pdfRevisions.analyze(await pdfFile("commented.pdf", bytes), ctx);
    expect(result.attachments?.map((a) => a.name)).toEqual(["commented.pdf.rev1.pdf", "commented.pdf.rev2.pdf"]);
    for (const a of result.attachments ?? []) {
      expect(a.category).toBe("pdf_versions");
      expect(new TextDecoder("latin1").decode(a.bytes.subarray(-8))).toMatch(/%%EOF\s*$/);
      expect(splitRevisions(a.bytes).revisions).toHaveLength(Number(a.name.match(/rev(\d)/)![1]));
    }
    expect(result.findings[0]).toMatchObject({ code: "PDF_INCREMENTAL_UPDATES", level: "Yellow" });
  });

  it("says how many versions in Polish with the plural a number takes (3 zapisane wersje)", async () => {
    const file = await pdfFile("commented.pdf", await sharedPdf("pypdf/commented.pdf"));
    const result = await pdfRevisions.analyze(file, { ...ctx, language: "pl" });
    expect(result.findings[0].explanation).toMatch(/^Plik zawiera 3 zapisane wersje\./);
  });

  it("a single-revision file is Green and has no versions", async () => {
    const bytes = await sharedPdf("zugferd/ZUGFeRDv2_correct_symtrax_EN16931_zugferd_2p1_EN16931_Elektron.pdf");
    const result = await pdfRevisions.analyze(await pdfFile("e.pdf", bytes), ctx);
    expect(result.findings.map((f) => f.level)).toEqual(["Green"]);
    expect(result.attachments).toEqual([]);
  });
});

describe("hostile input gives '-' or a finding, never a throw", () => {
  it.each([
    ["not a pdf", new TextEncoder().encode("hello world")],
    ["truncated", new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog")],
    ["startxref to nowhere", new TextEncoder().encode("%PDF-1.4\nstartxref\n999999\n%%EOF\n")],
    [
      "self loop",
      new TextEncoder().encode(
        "%PDF-1.4\nxref\n0 1\n0000000000 65535 f \ntrailer << /Prev 9 /Size 1 >>\nstartxref\n9\n%%EOF\n",
      ),
    ],
  ])("%s", async (_, bytes) => {
    const result = await pdfRevisions.analyze(await pdfFile("x.pdf", bytes), ctx);
    expect(result.findings.length).toBeGreaterThan(0);
  });

  it("deeply nested trailer does not overflow the stack", async () => {
    const deep = `%PDF-1.4\nxref\n0 1\n0000000000 65535 f \ntrailer << /A ${"[".repeat(100_000)} >>\nstartxref\n9\n%%EOF\n`;
    const result = await pdfRevisions.analyze(await pdfFile("deep.pdf", new TextEncoder().encode(deep)), ctx);
    expect(result.findings.length).toBeGreaterThan(0);
  });
});

describe("pdf_versions stay within memory bounds", () => {
  it("versions are views into the file's bytes, not copies", async () => {
    const bytes = await sharedPdf("pyhanko/pades-lta-dss-indirect-arrs-test-2.pdf");
    const result = await pdfRevisions.analyze(await pdfFile("lta.pdf", bytes), ctx);
    expect(result.attachments).toHaveLength(6);
    for (const a of result.attachments ?? []) expect(a.bytes.buffer).toBe(bytes.buffer);
  });
});

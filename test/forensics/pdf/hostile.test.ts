import { describe, expect, it } from "vitest";
import { pdfDiffs } from "../../../src/scanner/forensics/pdf-diffs";
import { pdfImages } from "../../../src/scanner/forensics/pdf-images";
import { pdfRevisions } from "../../../src/scanner/forensics/pdf-revisions";
import { pdfSignatures } from "../../../src/scanner/forensics/pdf-signatures";
import { pdfStructure } from "../../../src/scanner/forensics/pdf-structure";
import { ctx, pdfFile, sharedPdf } from "./fixtures";

const detectors = [pdfRevisions, pdfStructure, pdfSignatures, pdfImages, pdfDiffs];
const enc = (s: string) => new TextEncoder().encode(s);

/** Runs every PDF detector; each must resolve (no throw) with '-' or a finding or nothing to say. */
async function runAll(name: string, bytes: Uint8Array) {
  const file = await pdfFile(name, bytes);
  return Promise.all(detectors.map(async (d) => ({ id: d.id, result: await d.analyze(file, ctx) })));
}

/** n tiny objects in one file, each referencing the next (a long chain for any recursive walker). */
function manyObjects(n: number): Uint8Array {
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  body += "1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n";
  for (let i = 3; i < n; i++) {
    offsets.push(body.length);
    body += `${i} 0 obj << /Next ${i + 1} 0 R >> endobj\n`;
  }
  return enc(`${body}trailer << /Root 1 0 R /Size ${n} >>\nstartxref\n0\n%%EOF\n`);
}

describe("hostile PDFs: bounded, never a throw", () => {
  it("truncated in the middle", async () => {
    const whole = await sharedPdf("zugferd/FX_EN16931_Einfach.pdf");
    for (const { result } of await runAll("cut.pdf", whole.slice(0, Math.floor(whole.length / 2))))
      expect(result).toBeDefined();
  });
  it("broken xref and a /Prev loop", async () => {
    for (const path of [
      "qpdf/xref-errors.pdf",
      "qpdf/append-xref-loop.pdf",
      "qpdf/issue-149.pdf",
      "qpdf/pages-loop.pdf",
      "qpdf/fuzz-16214.pdf",
    ])
      for (const { result } of await runAll("x.pdf", await sharedPdf(path))) expect(result).toBeDefined();
  });
  it("an encrypted file with an unknown password says it could not be read", async () => {
    const results = await runAll("enc.pdf", await sharedPdf("pypdf/libreoffice-writer-password.pdf"));
    const structure = results.find((r) => r.id === "pdf-structure")!.result;
    expect(structure.findings[0]).toMatchObject({ code: "PDF_CONTENT_UNREADABLE", level: "-" });
  });
  it("50 000 objects in a reference chain", async () => {
    const results = await runAll("many.pdf", manyObjects(50_000));
    expect(results.find((r) => r.id === "pdf-revisions")!.result.findings.length).toBeGreaterThan(0);
  });
  it("a page with 6 MB of drawing operators is skipped by the content cap, not interpreted", async () => {
    const bomb = enc(
      `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R >> endobj\n4 0 obj << /Length 6000000 >> stream\n${"0 0 1 1 re f\n".repeat(460_000)}\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
    );
    const results = await runAll("bomb.pdf", bomb);
    expect(results.find((r) => r.id === "pdf-structure")!.result.findings.map((f) => f.code)).toContain(
      "PDF_PAGE_TOO_COMPLEX",
    );
  });
  it("not a PDF at all", async () => {
    for (const { result } of await runAll("no.pdf", enc("PK\x03\x04 this is a zip")))
      expect(result.findings.every((f) => f.level === "-")).toBe(true);
  });
});

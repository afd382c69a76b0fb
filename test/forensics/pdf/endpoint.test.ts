import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { editAmountIncrementally, makeInvoice } from "../../../scripts/datagen/pdf/edits";
import { createAccount } from "../../helpers";
import { zip } from "../../scanner/fixtures";
import { postScanner, scanCase } from "../../scanner/http";
import { dataUrlBytes } from "./fixtures";
import photoUrl from "../../../../shared/data/photos/opencv-doc/ela_original.jpg?inline";

interface FileResult {
  suspicion_level: string;
  findings: { code: string; level: string }[];
  attachments: string[];
  source?: { parent: string; page: number };
}

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "PDF forensics E2E" }));
});

async function scanPdf(jpeg: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: 595, height: 842 });
  return doc.save();
}

describe("POST /v2/scanner runs the PDF detectors on PDFs in the ZIP", () => {
  it("an edited invoice is Red with its earlier version and a diff PDF; the untouched one is not Red; a scan's photo is analysed", async () => {
    const original = await makeInvoice();
    const edited = await editAmountIncrementally(original, "1.234,56 EUR", "7.234,56 EUR");
    const archive = zip({
      "rechnung.pdf": edited,
      "original.pdf": original,
      "scan.pdf": await scanPdf(dataUrlBytes(photoUrl)),
    });
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase("PDF"),
      zip: archive,
      headers: { accept: "application/json", language: "de" },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{
      suspicion_level: string;
      Files: Record<string, FileResult>;
      attachments?: Record<string, { name: string; data: string }[]>;
    }>();
    const edit = body.Files["rechnung.pdf"];
    expect(edit.suspicion_level).toBe("Red");
    expect(edit.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(["PDF_INCREMENTAL_UPDATES", "PDF_TEXT_CHANGED_IN_UPDATE"]),
    );
    expect(edit.attachments).toEqual(
      expect.arrayContaining(["pdf_versions/rechnung.pdf.rev1.pdf", "pdf_diffs/rechnung.pdf.diff.pdf"]),
    );
    const rev1 = body.attachments?.pdf_versions?.find((a) => a.name === "rechnung.pdf.rev1.pdf");
    const rev1Bytes = Uint8Array.from(atob(rev1!.data), (c) => c.charCodeAt(0));
    // The original as it was saved, plus at most the end-of-line the editor wrote after its %%EOF.
    expect(rev1Bytes.subarray(0, original.length)).toEqual(original);
    expect(rev1Bytes.length - original.length).toBeLessThanOrEqual(2);
    expect(body.Files["original.pdf"].suspicion_level).not.toBe("Red");
    expect(body.Files["scan.pdf#p1-1.jpg"]?.source).toEqual({ parent: "scan.pdf", page: 1 });
    expect(body.suspicion_level).toBe("Red");
  }, 90_000); // the whole pipeline, image and learned detectors included
});

import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfImages } from "../../../src/scanner/forensics/pdf-images";
import { ctx, dataUrlBytes, pdfFile, sharedPdf } from "./fixtures";
import photoUrl from "../../../../shared/data/photos/opencv-doc/ela_original.jpg?inline";

const analyze = async (name: string, bytes: Uint8Array) => pdfImages.analyze(await pdfFile(name, bytes), ctx);
const PNG = [0x89, 0x50, 0x4e, 0x47];

/** A "scanned" receipt: one camera JPEG filling an A4 page, as scanner apps make them. */
async function scannedPdf(jpeg: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const image = await doc.embedJpg(jpeg);
  page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return doc.save();
}

describe("images: embedded JPEGs are handed over byte for byte", () => {
  it("a scanned page's JPEG is the original camera file, EXIF included", async () => {
    const photo = dataUrlBytes(photoUrl);
    const r = await analyze("scan.pdf", await scannedPdf(photo));
    expect(r.extracted).toHaveLength(1);
    const [img] = r.extracted!;
    expect(img).toMatchObject({
      name: "scan.pdf#p1-1.jpg",
      kind: "jpeg",
      mimeType: "image/jpeg",
      source: { parent: "scan.pdf", page: 1 },
    });
    expect(img.bytes).toEqual(photo);
    expect(r.findings.map((f) => f.code)).toEqual(["PDF_SCANNED_PAGES", "PDF_IMAGES_EXTRACTED"]);
  });

  it("mixed pages: DCT streams stay JPEG, other images become PNG, names count per page", async () => {
    const r = await analyze("mixed.pdf", await sharedPdf("qpdf/image-streams-small.pdf"));
    const names = r.extracted!.map((e) => e.name);
    expect(names.slice(0, 3)).toEqual(["mixed.pdf#p1-1.png", "mixed.pdf#p2-1.jpg", "mixed.pdf#p3-1.png"]);
    const png = r.extracted!.find((e) => e.kind === "png")!;
    expect([...png.bytes.subarray(0, 4)]).toEqual(PNG);
    const jpg = r.extracted!.find((e) => e.kind === "jpeg")!;
    expect([...jpg.bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });
});

describe("images: encrypted files", () => {
  it("are decoded by pdf.js (which decrypts), never handed over as encrypted raw streams", async () => {
    const r = await analyze("enc.pdf", await sharedPdf("qpdf/encrypted-with-images.pdf"));
    expect(r.extracted!.length).toBeGreaterThan(0);
    for (const img of r.extracted!) expect([...img.bytes.subarray(0, 4)]).toEqual(PNG);
  });
});

describe("images: what cannot be decoded is said, not hidden", () => {
  it("JPEG 2000 / JBIG2 scans are reported as not checked", async () => {
    const r = await analyze("ocr.pdf", await sharedPdf("pypdf/Seige_of_Vicksburg_Sample_OCR.pdf"));
    expect(r.findings.map((f) => `${f.level}:${f.code}`)).toEqual([
      "Green:PDF_SCANNED_PAGES",
      "-:PDF_IMAGES_NOT_DECODED",
    ]);
  });
  it("a broken JPEG stream is still extracted as stored (the image detectors judge it)", async () => {
    const r = await analyze("bad.pdf", await sharedPdf("qpdf/bad-jpeg.pdf"));
    expect(r.extracted?.[0]?.name).toBe("bad.pdf#p1-1.jpg");
  });
  it("images inside extracted files are not extracted again", () => {
    expect(
      pdfImages.appliesTo({
        name: "x.pdf#p1-1.jpg",
        kind: "pdf",
        bytes: new Uint8Array(),
        mimeType: "",
        sha256: "",
        size: 0,
        source: { parent: "x.pdf", page: 1 },
      }),
    ).toBe(false);
  });
});

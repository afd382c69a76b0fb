import { describe, expect, it } from "vitest";
import { jpegStructureAnalyzer } from "../../../src/scanner/forensics/jpeg-structure";
import { estimateQuality, scaledTable, STANDARD_LUMA } from "../../../src/scanner/images/quant-tables";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

async function analyze(path: string, bytes?: Uint8Array) {
  const data = bytes ?? (await sharedFile(path));
  return jpegStructureAnalyzer.analyze(scanFile(path, data), context());
}

const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);

describe("quantisation tables give quality and encoder family", () => {
  it("inverts libjpeg's table scaling exactly", () => {
    for (const q of [30, 50, 75, 90, 95])
      expect(estimateQuality(scaledTable(STANDARD_LUMA, q))).toMatchObject({ quality: q, exactStandard: true });
  });

  it("reports mode, quality and tables of a real photo", async () => {
    const r = await analyze("photos/opencv-doc/scenetext02.jpg");
    expect(r.metadata).toMatchObject({
      mode: "baseline",
      quality: 60,
      tableFamily: "libjpeg-standard",
      width: 1280,
      height: 960,
    });
    const device = await analyze("exif-samples/jpg/hdr/canon_hdr_NO.jpg");
    expect(device.metadata).toMatchObject({ tableFamily: "non-standard" });
  });
});

describe("damaged JPEGs are '-' with a finding, never an exception", () => {
  it("a truncated file", async () => {
    const r = await analyze("exif-samples/jpg/corrupted.jpg");
    expect(r.assessed).toBe(false);
    expect(r.findings[0]).toMatchObject({ code: "JPEG_DAMAGED", level: "-" });
  });

  it("random bytes behind a JPEG signature and a file cut in half", async () => {
    const garbage = new Uint8Array(5000).map((_, i) => (i * 7919) & 0xff);
    garbage.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02]);
    expect((await analyze("garbage.jpg", garbage)).findings[0].level).toBe("-");
    const whole = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const half = await analyze("half.jpg", whole.subarray(0, whole.length >> 1));
    expect(half).toMatchObject({ assessed: false });
  });

  it("files with broken EXIF still get a structure verdict", async () => {
    for (const name of [
      "image00971",
      "image01088",
      "image01137",
      "image01551",
      "image01713",
      "image01980",
      "image02206",
    ]) {
      const r = await analyze(`exif-samples/jpg/invalid/${name}.jpg`);
      expect(r.findings.length).toBeGreaterThan(0);
    }
  });
});

describe("data after the end of the image", () => {
  it("an appended ZIP is reported with its size", async () => {
    const photo = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(60).fill(1)]);
    const joined = new Uint8Array(photo.length + zip.length);
    joined.set(photo);
    joined.set(zip, photo.length);
    const f = (await analyze("joined.jpg", joined)).findings.find((x) => x.code === "JPEG_TRAILING_DATA");
    expect(f?.evidence).toMatchObject({ trailingBytes: 64, looksLike: "ZIP archive" });
    expect(f?.level).toBe("Yellow");
  });

  it("the camera's own preview of the same picture after the end is a Green note", async () => {
    // Konica Minolta DiMAGE Z5: 563 zero bytes, then the maker note's preview (first byte written as 0x02).
    const f = (await analyze("photos/mate-backgrounds/Wood.jpg")).findings.find((x) => x.code === "JPEG_TRAILING_DATA");
    expect(f).toMatchObject({
      level: "Green",
      evidence: { trailingBytes: 23299, looksLike: "preview of this picture" },
    });
    expect(f?.evidence.correlation).toBeGreaterThanOrEqual(0.8);
  });

  it("another picture appended after the end stays Yellow", async () => {
    const photo = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const other = await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg");
    const joined = new Uint8Array(photo.length + other.length);
    joined.set(photo);
    joined.set(other, photo.length);
    const f = (await analyze("joined.jpg", joined)).findings.find((x) => x.code === "JPEG_TRAILING_DATA");
    expect(f).toMatchObject({ level: "Yellow", evidence: { looksLike: "another JPEG" } });
  });
});

describe("EXIF preview compared with the picture", () => {
  it("a picture cut out of its camera preview is a crop (Yellow), not a mismatch", async () => {
    // Casio EX-Z750: the 4:3 picture is the middle half of the 160×120 preview's scene.
    const r = await analyze("exif-samples/jpg/tests/35-empty.jpg");
    expect(codes(r)).not.toContain("JPEG_THUMBNAIL_MISMATCH");
    const f = r.findings.find((x) => x.code === "JPEG_THUMBNAIL_CROP");
    expect(f?.level).toBe("Yellow");
    expect(f?.evidence.correlation).toBeLessThan(0.8);
    expect(f?.evidence.cropCorrelation).toBeGreaterThanOrEqual(0.9);
    expect(f?.evidence.windowInPreview).toMatchObject({ width: 112, height: 84 });
  });

  it("a picture that matches no part of its camera preview is Red", async () => {
    // The EXIF block (with its preview) of one COOLPIX photo in front of another photo of the same size.
    const a = await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg");
    const b = await sharedFile("exif-samples/jpg/gps/DSCN0021.jpg");
    const app1 = (bytes: Uint8Array) => {
      const length = (bytes[4] << 8) | bytes[5];
      expect(bytes[3]).toBe(0xe1);
      return { start: 2, end: 4 + length };
    };
    const [ea, eb] = [app1(a), app1(b)];
    const forged = new Uint8Array([...b.subarray(0, 2), ...a.subarray(ea.start, ea.end), ...b.subarray(eb.end)]);
    const f = (await analyze("forged.jpg", forged)).findings.find((x) => x.code === "JPEG_THUMBNAIL_MISMATCH");
    expect(f?.level).toBe("Red");
  });

  it("an untouched camera photo matches its preview", async () => {
    expect(codes(await analyze("exif-samples/jpg/gps/DSCN0010.jpg"))).not.toContain("JPEG_THUMBNAIL_MISMATCH");
    expect(codes(await analyze("exif-samples/jpg/hdr/iphone_hdr_NO.jpg"))).not.toContain("JPEG_THUMBNAIL_MISMATCH");
  });
});

describe("double compression from DCT coefficient histograms", () => {
  it("a Photoshop re-save of a camera JPEG is found, as a Green note (re-saving alone is what messengers do)", async () => {
    const r = await analyze("photos/opencv-doc/scenetext01.jpg");
    expect(r.findings.find((x) => x.code === "JPEG_DOUBLE_COMPRESSION")?.level).toBe("Green");
  });

  it("camera originals are not", async () => {
    for (const p of [
      "exif-samples/jpg/hdr/canon_hdr_NO.jpg",
      "exif-samples/jpg/gps/DSCN0021.jpg",
      "photos/opencv-doc/leuvenA.jpg",
    ])
      expect(codes(await analyze(p))).not.toContain("JPEG_DOUBLE_COMPRESSION");
  });

  it("files whose coefficients are not read (arithmetic-coded progressive) say the check was not done", async () => {
    const r = await analyze("arithmetic.jpg", await generatedFile("progressive/arithmetic.jpg"));
    expect(r.findings.find((x) => x.code === "JPEG_DOUBLE_COMPRESSION_NOT_ASSESSED")?.level).toBe("-");
  });
});

import { describe, expect, it } from "vitest";
import { metadataAnalyzer } from "../../../src/scanner/forensics/metadata";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { readCiffCameraFields } from "../../../src/scanner/images/vendor/canon-ciff";
import { pictureInfoDateTimeOriginal } from "../../../src/scanner/images/vendor/picture-info";
import { reconyxDateTimeOriginal } from "../../../src/scanner/images/vendor/reconyx-maker-note";
import { sameAsExiftool } from "../../../scripts/lib/exiftool-values";
import { context, indexRows, TOO_LARGE_FOR_WORKERD_TESTS, scanFile, sharedFile } from "./fixtures";

const FIELDS = [
  ["Make", "make"],
  ["Model", "model"],
  ["Software", "software"],
  ["DateTimeOriginal", "dateTimeOriginal"],
  ["width", "width"],
  ["height", "height"],
] as const;

async function metadataOf(path: string) {
  const result = await metadataAnalyzer.analyze(scanFile(path, await sharedFile(path)), context());
  return { result, meta: result.metadata ?? {} };
}

function mismatches(row: Record<string, string>, meta: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [col, key] of FIELDS) {
    const expected = row[col] === "-" ? null : row[col];
    const actual = meta[key] === null || meta[key] === undefined ? null : String(meta[key]).trim();
    if (!sameAsExiftool(expected, actual)) out.push(`${row.path} ${col}: exiftool ${expected} vs ours ${actual}`);
  }
  return out;
}

describe("metadata fields agree with exiftool (INDEX.tsv) on every file", () => {
  for (const folder of ["photos", "exif-samples"] as const) {
    it(`${folder}/`, async () => {
      const problems: string[] = [];
      for (const row of indexRows(folder)) {
        if (Number(row.bytes) > TOO_LARGE_FOR_WORKERD_TESTS) continue; // checked by npm run eval
        const { meta } = await metadataOf(`${folder}/${row.path}`);
        problems.push(...mismatches(row, meta));
      }
      expect(problems).toEqual([]);
    }, 120_000);
  }
});

describe("metadata findings explain editing and dates", () => {
  it("names the editor written by GIMP in Software", async () => {
    const { result } = await metadataOf("photos/mate-backgrounds/Blinds.jpg");
    const editor = result.findings.find((f) => f.code === "META_EDITING_SOFTWARE");
    expect(editor?.level).toBe("Yellow");
    expect(editor?.evidence).toMatchObject({ field: "Software", value: "GIMP 2.5.0" });
    expect(result.findings.find((f) => f.code === "META_DATE_GAP")?.evidence).toMatchObject({
      dateTimeOriginal: "2008:01:22 03:28:22",
    });
  });

  it("a camera original without edits gets one Green summary", async () => {
    const { result } = await metadataOf("photos/opencv-doc/scenetext02.jpg");
    expect(result.findings.map((f) => [f.code, f.level])).toEqual([["META_CONSISTENT", "Green"]]);
  });

  it("reads GPS and reports that the phone photo was downscaled after capture, as a Green note", async () => {
    const { result } = await metadataOf("photos/opencv-doc/leuvenA.jpg");
    expect(result.findings.map((f) => [f.code, f.level])).toEqual([["META_SIZE_MISMATCH", "Green"]]);
    expect(result.findings[0].evidence).toMatchObject({ scaledDown: true });
    expect(result.metadata?.gps).toMatchObject({
      latitude: expect.closeTo(50.8715, 3),
      longitude: expect.closeTo(4.697, 3),
    });
  });

  it("a picture whose proportions differ from the recorded size (cut) is Yellow", async () => {
    const bytes = withExifImageWidth(await sharedFile("photos/opencv-doc/leuvenA.jpg"), 4000);
    const result = await metadataAnalyzer.analyze(scanFile("cut.jpg", bytes), context());
    const f = result.findings.find((x) => x.code === "META_SIZE_MISMATCH");
    expect(f).toMatchObject({ level: "Yellow", evidence: { scaledDown: false } });
    expect(f?.explanation).toContain("cut away");
  });

  it("a file modified long after capture (GIMP's Blinds.jpg) keeps the date gap as a Green note; the editor is Yellow", async () => {
    const { result } = await metadataOf("photos/mate-backgrounds/Blinds.jpg");
    expect(result.findings.find((f) => f.code === "META_DATE_GAP")?.level).toBe("Green");
    expect(result.findings.find((f) => f.code === "META_EDITING_SOFTWARE")?.level).toBe("Yellow");
  });

  it("a capture date well before the reference date is Red, in the request's language", async () => {
    const bytes = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const result = await metadataAnalyzer.analyze(
      scanFile("a.jpg", bytes),
      context({ language: "de", issueDate: new Date("2020-01-01T00:00:00Z") }),
    );
    const f = result.findings.find((x) => x.code === "META_CAPTURE_BEFORE_REFERENCE");
    expect(f?.level).toBe("Red");
    expect(f?.title).toBe("Vor dem Stichtag aufgenommen");
  });

  it("a file without any metadata says so instead of passing as clean", async () => {
    const bytes = await sharedFile("exif-samples/jpg/exif-org/olympus-d320l.jpg");
    const result = await metadataAnalyzer.analyze(scanFile("x.jpg", bytes), context());
    expect(result.findings.map((f) => f.code)).toEqual(["META_NONE"]);
  });
});

const CIFF_FILE = "exif-samples/jpg/exif-org/sony-powershota5.jpg";
const PICTURE_INFO_FILE = "exif-samples/jpg/exif-org/olympus-d320l.jpg";
const RECONYX_FILE = "exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg";

/** A copy of a shared file and the payload of its first APPn segment whose payload passes `pick` (a view into the copy). */
async function copyWithSegment(path: string, marker: number, pick: (data: Uint8Array) => boolean = () => true) {
  const bytes = (await sharedFile(path)).slice();
  const segment = parseJpegStructure(bytes).segments.find((s) => s.marker === marker && pick(s.data));
  if (!segment) throw new Error(`no segment 0x${marker.toString(16)} in ${path}`);
  return { bytes, data: segment.data };
}

const isCiff = (data: Uint8Array) => String.fromCharCode(...data.subarray(6, 14)) === "HEAPJPGM";
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

async function summaryOf(name: string, bytes: Uint8Array) {
  return (await metadataAnalyzer.analyze(scanFile(name, bytes), context())).metadata ?? {};
}

describe("vendor blocks exifr does not read: values as exiftool prints them, only where EXIF has none", () => {
  it("Canon CIFF heap in APP0: make, model and the capture stamp (Unix seconds printed as UTC)", async () => {
    const { meta } = await metadataOf(CIFF_FILE);
    expect(meta).toMatchObject({ make: "Canon", model: "Canon PowerShot A5", dateTimeOriginal: "2000:10:27 22:56:26" });
    expect(meta.vendorSources).toEqual({
      make: "Canon CIFF (APP0)",
      model: "Canon CIFF (APP0)",
      dateTimeOriginal: "Canon CIFF (APP0)",
    });
  });

  it("APP12 Picture Info: TimeDate=909698819 is 1998:10:29 22:06:59", async () => {
    const { meta, result } = await metadataOf(PICTURE_INFO_FILE);
    expect(meta).toMatchObject({
      make: null,
      dateTimeOriginal: "1998:10:29 22:06:59",
      vendorSources: { dateTimeOriginal: "Picture Info (APP12)" },
    });
    // Still no EXIF/XMP: the finding stays, the date is a summary fact.
    expect(result.findings.map((f) => f.code)).toEqual(["META_NONE"]);
  });

  it("a camera named only in a CIFF heap is camera metadata (no META_NONE), and its capture time is checked", async () => {
    const bytes = await sharedFile(CIFF_FILE);
    const plain = await metadataAnalyzer.analyze(scanFile("a.jpg", bytes), context());
    expect(plain.findings.map((f) => f.code)).toEqual(["META_CONSISTENT"]);
    expect(plain.findings[0].explanation).toContain("Canon PowerShot A5");
    const late = await metadataAnalyzer.analyze(
      scanFile("a.jpg", bytes),
      context({ issueDate: new Date("2020-01-01T00:00:00Z") }),
    );
    expect(late.findings.find((f) => f.code === "META_CAPTURE_BEFORE_REFERENCE")).toMatchObject({
      level: "Red",
      evidence: { dateTimeOriginal: "2000:10:27 22:56:26" },
    });
  });

  it("a capture time in APP12 alone: still no camera metadata, but the time is checked against the reference date", async () => {
    const result = await metadataAnalyzer.analyze(
      scanFile("a.jpg", await sharedFile(PICTURE_INFO_FILE)),
      context({ issueDate: new Date("2020-01-01T00:00:00Z") }),
    );
    expect(result.findings.map((f) => f.code)).toEqual(["META_NONE", "META_CAPTURE_BEFORE_REFERENCE"]);
  });

  it("Reconyx HyperFire maker note: the date words of the HC500", async () => {
    const { meta } = await metadataOf(RECONYX_FILE);
    expect(meta).toMatchObject({
      dateTimeOriginal: "2020:03:16 10:00:00",
      vendorSources: { dateTimeOriginal: "Reconyx maker note" },
    });
  });

  it("EXIF values win: a camera file with EXIF names no vendor source", async () => {
    const { meta } = await metadataOf("photos/opencv-doc/scenetext02.jpg");
    expect(meta.vendorSources).toBeUndefined();
  });

  it("a CIFF heap whose directory offset points outside it, or at itself in a loop, gives nothing and does not throw", async () => {
    const outside = await copyWithSegment(CIFF_FILE, 0xe0, isCiff);
    outside.data.set([0xff, 0xff, 0xff, 0xff], outside.data.length - 4);
    expect(await summaryOf("a.jpg", outside.bytes)).toMatchObject({ make: null, model: null, dateTimeOriginal: null });

    // One entry: a nested heap (type 0x28) spanning the whole heap, so it names the same directory again.
    const heap = [0, 0, 0, 0, 1, 0, 0x00, 0x28, 20, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0];
    const loop = Uint8Array.from([...ascii("II"), 14, 0, 0, 0, ...ascii("HEAPJPGM"), ...heap]);
    expect(readCiffCameraFields(loop)).toEqual({ make: null, model: null, dateTimeOriginal: null });
  });

  it("a CIFF heap cut at any length or with any one byte flipped never throws", async () => {
    const { data } = await copyWithSegment(CIFF_FILE, 0xe0, isCiff);
    for (let n = 0; n <= data.length; n++) expect(() => readCiffCameraFields(data.slice(0, n))).not.toThrow();
    for (let i = 0; i < data.length; i++) {
      const flipped = data.slice();
      flipped[i] ^= 0xff;
      expect(() => readCiffCameraFields(flipped)).not.toThrow();
    }
  });

  it("APP12 Picture Info with a non-numeric or out-of-range TimeDate gives no date", async () => {
    const { bytes, data } = await copyWithSegment(PICTURE_INFO_FILE, 0xec);
    const at = String.fromCharCode(...data).indexOf("TimeDate=") + "TimeDate=".length;
    data.set(ascii("9O9698819"), at); // letter O: not Unix seconds
    expect((await summaryOf("a.jpg", bytes)).dateTimeOriginal).toBeNull();
    expect(pictureInfoDateTimeOriginal(ascii("[picture info]\r\nTimeDate=999999999999999\r\n"))).toBeNull();
    expect(pictureInfoDateTimeOriginal(ascii("XTimeDate=909698819\r\n"))).toBeNull();
    expect(pictureInfoDateTimeOriginal(ascii("Ducky TimeDate=909698819\r\n"))).toBeNull();
  });

  it("APP12 of 64 KB without line breaks or '=' is read in linear time", () => {
    const crafted = ascii(`TimeDate=1 ${"x".repeat(65_000)}`);
    const started = Date.now();
    expect(pictureInfoDateTimeOriginal(crafted)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a Reconyx maker note that is too short or lacks its signature gives no date; the file still reads", async () => {
    const { meta } = await metadataOf(RECONYX_FILE);
    const note = Uint8Array.from([
      1, 0xf1, 3, 0, 3, 0, 0, 0, 0x11, 0x20, 0x10, 1, 0x54, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 10, 0, 3, 0, 16, 0,
      0xe4, 7,
    ]);
    expect(reconyxDateTimeOriginal(note, null)).toBe(meta.dateTimeOriginal);
    for (let n = 0; n < note.length; n++) expect(reconyxDateTimeOriginal(note.subarray(0, n), null)).toBeNull();
    const unsigned = note.slice();
    unsigned.set([0, 0], 2); // no firmware word: exiftool then needs IFD0 Make "RECONYX"
    expect(reconyxDateTimeOriginal(unsigned, null)).toBeNull();
    expect(reconyxDateTimeOriginal(unsigned, "RECONYX")).toBe("2020:03:16 10:00:00");
  });

  it("Reconyx variants: big-endian HyperFire words, UltraFire and HyperFire 2 layouts", () => {
    const bigEndian = new Uint8Array(34);
    bigEndian.set([1, 0xf1, 2, 0]);
    bigEndian.set([0, 5, 0, 4, 0, 3, 0, 12, 0, 31, 0x07, 0xe3], 22);
    expect(reconyxDateTimeOriginal(bigEndian, null)).toBe("2019:12:31 03:04:05");
    const ultraFire = new Uint8Array(0x3b + 7);
    ultraFire.set(ascii("RECONYXUF\0"));
    ultraFire.set([5, 4, 3, 31, 12, 0xe3, 0x07], 0x3b);
    expect(reconyxDateTimeOriginal(ultraFire, null)).toBe("2019:12:31 03:04:05");
    const hyperFire2 = new Uint8Array(0x3e + 12);
    hyperFire2.set(ascii("RECONYXH2\0"));
    hyperFire2.set([5, 0, 4, 0, 3, 0, 31, 0, 12, 0, 0xe3, 0x07], 0x3e);
    expect(reconyxDateTimeOriginal(hyperFire2, null)).toBe("2019:12:31 03:04:05");
    expect(reconyxDateTimeOriginal(hyperFire2.subarray(0, 0x3e + 11), null)).toBeNull();
  });

  it("a broken Reconyx signature inside the file: no date, no throw", async () => {
    const bytes = (await sharedFile(RECONYX_FILE)).slice();
    const note = ascii("\x01\xf1\x03\x00\x03\x00");
    const at = bytes.findIndex((_, i) => note.every((b, j) => bytes[i + j] === b));
    bytes[at + 1] = 0;
    expect((await summaryOf("a.jpg", bytes)).dateTimeOriginal).toBeNull();
  });
});

const formatFixtures = import.meta.glob("../../fixtures/formats/xmp-edited.*", {
  query: "?url&inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

const formatFixture = (name: string) => {
  const url = formatFixtures[`../../fixtures/formats/${name}`];
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
};

describe("XMP of WebP and HEIC files reaches the metadata checks", () => {
  // scripts/datagen/formats.sh: 64 × 48 pictures whose only metadata is XMP naming Photoshop.
  for (const name of ["xmp-edited.webp", "xmp-edited.heic"]) {
    it(`${name}: the editor in XMP CreatorTool is Yellow`, async () => {
      const result = await metadataAnalyzer.analyze(scanFile(name, formatFixture(name)), context());
      const editor = result.findings.find((f) => f.code === "META_EDITING_SOFTWARE");
      expect(editor?.level).toBe("Yellow");
      expect(editor?.evidence).toMatchObject({ field: "CreatorTool", value: "Adobe Photoshop 25.0 (Windows)" });
    });
  }
});

/** The file with EXIF ExifImageWidth (tag 0xA002, SHORT or LONG, count 1) set to `width`, found in the APP1 TIFF block. */
function withExifImageWidth(jpeg: Uint8Array, width: number): Uint8Array {
  const out = jpeg.slice();
  const exif = new TextDecoder("latin1").decode(out.subarray(0, 65536)).indexOf("Exif\0\0");
  const tiff = exif + 6;
  const little = out[tiff] === 0x49;
  const view = new DataView(out.buffer);
  for (let i = tiff + 8; i < tiff + 65000; i += 1) {
    if (view.getUint16(i, little) !== 0xa002) continue;
    const type = view.getUint16(i + 2, little);
    if ((type !== 3 && type !== 4) || view.getUint32(i + 4, little) !== 1) continue;
    if (type === 3) view.setUint16(i + 8, width, little);
    else view.setUint32(i + 8, width, little);
    return out;
  }
  throw new Error("no ExifImageWidth entry");
}

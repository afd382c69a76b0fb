import { describe, expect, it } from "vitest";
import { metadataAnalyzer } from "../../../src/scanner/forensics/metadata";
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

/**
 * Values exiftool takes from vendor-specific blocks no general parser reads (documented, not hidden):
 * Reconyx maker-note date, Olympus APP12 and Canon CIFF (APP0 "HEAPJPGM") headers of 1998–2000
 * cameras, and a Casio file where exiftool prints the maker-note firmware "1.0" (IFD0 holds "1.00").
 */
const VENDOR_ONLY = new Set([
  "jpg/Reconyx_HC500_Hyperfire.jpg DateTimeOriginal",
  "jpg/exif-org/olympus-d320l.jpg DateTimeOriginal",
  "jpg/exif-org/sony-powershota5.jpg Make",
  "jpg/exif-org/sony-powershota5.jpg Model",
  "jpg/exif-org/sony-powershota5.jpg DateTimeOriginal",
  "jpg/tests/35-empty.jpg Software",
]);

function mismatches(row: Record<string, string>, meta: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [col, key] of FIELDS) {
    const expected = row[col] === "-" ? null : row[col];
    const actual = meta[key] === null || meta[key] === undefined ? null : String(meta[key]).trim();
    if (expected !== actual && !VENDOR_ONLY.has(`${row.path} ${col}`)) out.push(`${row.path} ${col}: exiftool ${expected} vs ours ${actual}`);
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
    expect(result.findings.find((f) => f.code === "META_DATE_GAP")?.evidence).toMatchObject({ dateTimeOriginal: "2008:01:22 03:28:22" });
  });

  it("a camera original without edits gets one Green summary", async () => {
    const { result } = await metadataOf("photos/opencv-doc/scenetext02.jpg");
    expect(result.findings.map((f) => [f.code, f.level])).toEqual([["META_CONSISTENT", "Green"]]);
  });

  it("reads GPS and reports that the phone photo was downscaled after capture", async () => {
    const { result } = await metadataOf("photos/opencv-doc/leuvenA.jpg");
    expect(result.findings.map((f) => f.code)).toEqual(["META_SIZE_MISMATCH"]);
    expect(result.metadata?.gps).toMatchObject({ latitude: expect.closeTo(50.8715, 3), longitude: expect.closeTo(4.697, 3) });
  });

  it("a capture date well before the reference date is Red, in the request's language", async () => {
    const bytes = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const result = await metadataAnalyzer.analyze(scanFile("a.jpg", bytes), context({ language: "de", issueDate: new Date("2020-01-01T00:00:00Z") }));
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

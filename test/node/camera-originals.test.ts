import { describe, expect, it } from "vitest";
import { editEvidence, type ExiftoolRecord } from "../../scripts/eval/camera-originals";

/** A camera original as exiftool (-G1 -n) reads it: firmware in Software, the EXIF size equal to the picture's. */
const original: ExiftoolRecord = {
  SourceFile: "DSCN0010.jpg",
  "IFD0:Software": "COOLPIX P6000V1.0",
  "ExifIFD:ExifImageWidth": 640,
  "ExifIFD:ExifImageHeight": 480,
  "File:ImageWidth": 640,
  "File:ImageHeight": 480,
};

describe("the eval's untouched set: camera photos that exiftool shows unedited (one rule for every file)", () => {
  it("a camera original with its own size and no editor named anywhere is untouched", () => {
    expect(editEvidence(original)).toEqual([]);
  });

  it("an editor in XMP history or Photoshop's image resources makes it edited, as in EXIF Software", () => {
    const lightroom = {
      ...original,
      "XMP-xmpMM:HistorySoftwareAgent": ["Adobe Photoshop Lightroom 6.2.1 (Macintosh)"],
    };
    expect(editEvidence(lightroom)).toEqual([
      'XMP-xmpMM:HistorySoftwareAgent "Adobe Photoshop Lightroom 6.2.1 (Macintosh)"',
    ]);
    expect(editEvidence({ ...original, "Photoshop:WriterName": "Adobe Photoshop" })).toHaveLength(1);
    expect(editEvidence({ ...original, "XMP-xmp:CreatorTool": "GIMP 2.10" })).toHaveLength(1);
    // Camera firmware in CreatorTool names no editor.
    expect(editEvidence({ ...original, "XMP-xmp:CreatorTool": "Ver.1.00" })).toEqual([]);
  });

  it("a picture smaller than the size its camera recorded was cropped or resized after capture", () => {
    const cropped = {
      ...original,
      "File:ImageWidth": 697,
      "File:ImageHeight": 472,
      "ExifIFD:ExifImageWidth": 4320,
      "ExifIFD:ExifImageHeight": 3240,
    };
    expect(editEvidence(cropped)).toEqual(["EXIF size 4320 × 3240, picture 697 × 472"]);
  });

  it("a size the camera did not record (absent, 0 or unreadable) says nothing", () => {
    const { "ExifIFD:ExifImageWidth": _w, "ExifIFD:ExifImageHeight": _h, ...noSize } = original;
    expect(editEvidence(noSize)).toEqual([]);
    expect(editEvidence({ ...original, "ExifIFD:ExifImageWidth": 0, "ExifIFD:ExifImageHeight": 0 })).toEqual([]);
    expect(editEvidence({ ...original, "ExifIFD:ExifImageWidth": "100 0", "ExifIFD:ExifImageHeight": "78 0" })).toEqual(
      [],
    );
  });
});

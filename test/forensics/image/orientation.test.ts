import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { imagePages } from "../../../src/scanner/forensics/image-pages";
import { thumbnailAnalyzer } from "../../../src/scanner/forensics/thumbnail";
import { heifOrientation } from "../../../src/scanner/images/isobmff";
import { exifOrientation, orientUpright } from "../../../src/scanner/images/orientation";
import type { ScanFile } from "../../../src/scanner/types";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

// exif-samples/jpg/orientation: the same picture stored eight ways, each tagged with the orientation
// (1–8) that shows it upright (README of that folder).
const sample = (shape: "landscape" | "portrait", n: number) =>
  sharedFile(`exif-samples/jpg/orientation/${shape}_${n}.jpg`);

async function thumbnailOf(bytes: Uint8Array, file: ScanFile = scanFile("p.jpg", bytes)) {
  const result = await thumbnailAnalyzer.analyze(file, context());
  const png = result.attachments?.find((a) => a.category === "thumbnails");
  if (!png) throw new Error("no thumbnail");
  const image = PhotonImage.new_from_byteslice(png.bytes);
  try {
    return { width: image.get_width(), height: image.get_height(), rgba: image.get_raw_pixels() };
  } finally {
    image.free();
  }
}

const meanDifference = (a: Uint8Array, b: Uint8Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
};

describe("thumbnails are shown upright by the EXIF orientation (what a handler looks at)", () => {
  for (const shape of ["landscape", "portrait"] as const)
    it(`${shape}: all eight stored ways give the same upright thumbnail`, async () => {
      const upright = await thumbnailOf(await sample(shape, 1));
      expect(upright.width > upright.height).toBe(shape === "landscape");
      for (let n = 2; n <= 8; n++) {
        const bytes = await sample(shape, n);
        expect(exifOrientation(bytes), `${shape}_${n}`).toBe(n);
        const thumb = await thumbnailOf(bytes);
        expect([thumb.width, thumb.height], `${shape}_${n}`).toEqual([upright.width, upright.height]);
        // Closer to the reference than any other turn or mirror of it (the files differ slightly beyond
        // JPEG noise, ≈ 12 grey levels; a wrong turn or mirror differs by 35–50).
        const shown = meanDifference(thumb.rgba, upright.rgba);
        for (let other = 2; other <= 8; other++) {
          const turned = orientUpright(thumb, other);
          if (turned.width === upright.width)
            expect(shown, `${shape}_${n} vs turned ${other}`).toBeLessThan(
              meanDifference(turned.rgba, upright.rgba) / 2,
            );
        }
      }
    });

  it("a picture without EXIF, or with an invalid orientation, stays as stored", async () => {
    expect(exifOrientation(await sharedFile("photos/opencv-doc/leuvenA.jpg"))).toBe(1);
    expect(exifOrientation(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe(1);
    const image = { rgba: Uint8Array.from([1, 1, 1, 1, 2, 2, 2, 2]), width: 2, height: 1 };
    expect(orientUpright(image, 9)).toBe(image);
    expect(orientUpright(image, 6)).toMatchObject({ width: 1, height: 2 });
    expect([...orientUpright(image, 2).rgba]).toEqual([2, 2, 2, 2, 1, 1, 1, 1]);
  });
});

/** A box: 32-bit size, type, payload. */
function box(type: string, ...payload: (Uint8Array | number[])[]): Uint8Array {
  const body = payload.flatMap((p) => [...p]);
  const size = 8 + body.length;
  return Uint8Array.from([
    size >>> 24,
    (size >> 16) & 255,
    (size >> 8) & 255,
    size & 255,
    ...[...type].map((c) => c.charCodeAt(0)),
    ...body,
  ]);
}

/** A HEIF's `meta` box whose primary item 1 has these properties, in this order (irot angle, imir axis). */
function heifWith(properties: ["irot" | "imir", number][]): Uint8Array {
  const ipco = box("ipco", ...properties.map(([type, value]) => box(type, [value])));
  // ipma version 0, flags 0: one entry, item 1, its associations (1-based property indices, one byte each).
  const ipma = box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, properties.length, ...properties.map((_, i) => i + 1)]);
  return box("meta", [0, 0, 0, 0], box("pitm", [0, 0, 0, 0, 0, 1]), box("iprp", ipco, ipma));
}

describe("a HEIC's picture is shown upright by its rotation and mirror properties", () => {
  it("phones' files: the iPhone's and Nokia's turned a quarter clockwise (irot 3), the others as stored", async () => {
    expect(heifOrientation(await sharedFile("exif-samples/heic/mobile/iphone_13_pro_max.HEIC"))).toBe(6);
    // Nokia leaves its EXIF Orientation at 1; the property is what a viewer applies.
    expect(heifOrientation(await sharedFile("exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif"))).toBe(6);
    expect(heifOrientation(await sharedFile("exif-samples/heic/IMG_5195.HEIC"))).toBe(1);
    expect(heifOrientation(await sharedFile("exif-samples/heic/samplefilehub.heif"))).toBe(1);
  });

  it("every turn and mirror maps to its EXIF orientation (turn first, then mirror)", () => {
    const cases: [["irot" | "imir", number][], number][] = [
      [[], 1],
      [[["irot", 1]], 8], // a quarter anticlockwise
      [[["irot", 2]], 3],
      [[["irot", 3]], 6],
      [[["imir", 0]], 2], // left ↔ right
      [[["imir", 1]], 4], // top ↔ bottom
      [
        [
          ["irot", 1],
          ["imir", 0],
        ],
        7,
      ],
      [
        [
          ["irot", 3],
          ["imir", 0],
        ],
        5,
      ],
      [
        [
          ["irot", 1],
          ["imir", 1],
        ],
        5,
      ],
      [
        [
          ["irot", 2],
          ["imir", 0],
        ],
        4,
      ],
    ];
    for (const [properties, expected] of cases)
      expect(heifOrientation(heifWith(properties)), JSON.stringify(properties)).toBe(expected);
  });

  it("a broken or missing property box: as stored", () => {
    expect(heifOrientation(heifWith([["irot", 3]]).slice(0, 40))).toBe(1);
    expect(heifOrientation(new Uint8Array(16))).toBe(1);
  });
});

/** The TIFF with its first page's Orientation tag (274, a SHORT) set to `value`. */
function withTiffOrientation(bytes: Uint8Array, value: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const little = out[0] === 0x49;
  const ifd = view.getUint32(4, little);
  for (let i = 0, n = view.getUint16(ifd, little); i < n; i++) {
    const entry = ifd + 2 + i * 12;
    if (view.getUint16(entry, little) === 274) {
      view.setUint16(entry + 8, value, little);
      return out;
    }
  }
  throw new Error("no Orientation tag");
}

describe("a TIFF page's or HEIC's thumbnail is shown upright by its own orientation", () => {
  it("a TIFF page tagged 6 (Orientation) is handed on with it, and its thumbnail is turned a quarter clockwise", async () => {
    const tiff = withTiffOrientation(await sharedFile("exif-samples/tiff/Arbitro.tiff"), 6);
    const pages = await imagePages.analyze(scanFile("a.tiff", tiff), context());
    const page = pages.extracted?.[0];
    expect(page?.orientation).toBe(6);
    const asStored = await imagePages.analyze(
      scanFile("a.tiff", await sharedFile("exif-samples/tiff/Arbitro.tiff")),
      context(),
    );
    expect(asStored.extracted?.[0].orientation).toBeUndefined();
    const stored = await thumbnailOf((page as ScanFile).bytes, { ...(page as ScanFile), orientation: undefined });
    const shown = await thumbnailOf((page as ScanFile).bytes, page);
    expect([shown.width, shown.height]).toEqual([stored.height, stored.width]);
    expect(shown.rgba).toEqual(orientUpright(stored, 6).rgba);
  });

  it("a PNG picture decoded from a HEIC with orientation 8 gets a thumbnail turned a quarter anticlockwise", async () => {
    const png = await generatedFile("png/gray-8bit.png");
    const stored = await thumbnailOf(png, scanFile("h.heic#p1.png", png));
    const shown = await thumbnailOf(png, { ...scanFile("h.heic#p1.png", png), decodedFrom: "heic", orientation: 8 });
    expect(stored.width).toBeGreaterThan(stored.height);
    expect([shown.width, shown.height]).toEqual([stored.height, stored.width]);
    expect(shown.rgba).toEqual(orientUpright(stored, 8).rgba);
  });
});

import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { thumbnailAnalyzer } from "../../../src/scanner/forensics/thumbnail";
import { exifOrientation, orientUpright } from "../../../src/scanner/images/orientation";
import { context, scanFile, sharedFile } from "./fixtures";

// exif-samples/jpg/orientation: the same picture stored eight ways, each tagged with the orientation
// (1–8) that shows it upright (README of that folder).
const sample = (shape: "landscape" | "portrait", n: number) =>
  sharedFile(`exif-samples/jpg/orientation/${shape}_${n}.jpg`);

async function thumbnailOf(bytes: Uint8Array) {
  const result = await thumbnailAnalyzer.analyze(scanFile("p.jpg", bytes), context());
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

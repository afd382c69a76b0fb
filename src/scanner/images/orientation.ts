/**
 * How a picture is meant to be shown: the EXIF Orientation tag (1–8) says how the stored pixels must be
 * turned or mirrored (phones store the sensor's landscape rows and tag a portrait shot 6 or 8). The
 * forensic detectors read the stored pixels; only what people look at (thumbnails) is turned upright.
 */
import { appSegments, isJpeg } from "./jpeg-markers";
import { jpegStructureOf } from "./file-decode";
import { firstIfdTags } from "./tiff-pages";

const EXIF_ORIENTATION_TAG = "t274";

/** Decoded pixels, row-major RGBA. */
export interface RgbaPicture {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/** The JPEG's EXIF orientation, 1 (as stored) when it has none or an invalid one. */
export function exifOrientation(bytes: Uint8Array): number {
  if (!isJpeg(bytes)) return 1;
  const [exif] = appSegments(jpegStructureOf(bytes), 0xe1, "Exif\0\0");
  return validOrientation(exif ? firstIfdTags(exif.subarray(6))?.[EXIF_ORIENTATION_TAG]?.[0] : undefined);
}

/** An Orientation tag's value (1–8), or 1 (as stored) when it is missing or invalid. */
export function validOrientation(value: unknown): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 8 ? value : 1;
}

/**
 * The picture as it is meant to be seen. For output pixel (x, y) of the turned picture, the stored pixel it
 * shows; orientations 5–8 swap width and height.
 */
export function orientUpright(image: RgbaPicture, orientation: number): RgbaPicture {
  if (orientation < 2 || orientation > 8) return image;
  const { width: w, height: h, rgba } = image;
  const swap = orientation >= 5;
  const outWidth = swap ? h : w;
  const outHeight = swap ? w : h;
  const source: (x: number, y: number) => number = [
    (x: number, y: number) => y * w + x,
    (x: number, y: number) => y * w + (w - 1 - x), // 2: mirrored left–right
    (x: number, y: number) => (h - 1 - y) * w + (w - 1 - x), // 3: turned 180°
    (x: number, y: number) => (h - 1 - y) * w + x, // 4: mirrored top–bottom
    (x: number, y: number) => x * w + y, // 5: transposed
    (x: number, y: number) => (h - 1 - x) * w + y, // 6: turned 90° clockwise to show
    (x: number, y: number) => (h - 1 - x) * w + (w - 1 - y), // 7: transversed
    (x: number, y: number) => x * w + (w - 1 - y), // 8: turned 90° anticlockwise to show
  ][orientation - 1];
  const out = new Uint8Array(outWidth * outHeight * 4);
  for (let y = 0; y < outHeight; y++)
    for (let x = 0; x < outWidth; x++)
      out.set(rgba.subarray(source(x, y) * 4, source(x, y) * 4 + 4), (y * outWidth + x) * 4);
  return { rgba: out, width: outWidth, height: outHeight };
}

/** Compares an EXIF preview with the main image (both reduced to a small common size). */
import { countDecode } from "./decode-count";
import { PhotonImage } from "@cf-wasm/photon";
import { downscale, type GrayImage, lumaFromRgba } from "./gray";
import { isJpeg } from "./jpeg-markers";
import { JpegStripDecoder } from "./jpeg-strip-decoder";
import { declaredSize } from "./pixel-budget";
import { ImageDataError } from "./rgba-band";

const COMPARE_SIDE = 48;

/**
 * Decodes a small image (the EXIF preview, a picture for the copy-move search) to luma; null when it
 * cannot be read. Baseline JPEGs go through the strip decoder (the same pixels as photon, wasm
 * kernels, and photon's heap does not grow); anything else, or a JPEG the strip decoder finds
 * damaged, through photon as before.
 */
export function decodeSmallLuma(bytes: Uint8Array, maxPixels = 1_000_000): GrayImage | null {
  const size = declaredSize(bytes);
  // Checked before decoding: a few-KB preview may declare any size, and photon would allocate it.
  if (!size || size.width * size.height > maxPixels) return null;
  return (isJpeg(bytes) ? stripLuma(bytes) : null) ?? photonLuma(bytes);
}

function stripLuma(bytes: Uint8Array): GrayImage | null {
  const decoder = JpegStripDecoder.open(bytes);
  if (typeof decoder === "string") return null;
  countDecode(bytes, "pixels");
  const { width, height } = decoder;
  const data = new Float32Array(width * height);
  try {
    for (let band = decoder.next(); band; band = decoder.next())
      data.set(lumaFromRgba(band.rgba, width, band.rows).data, band.y * width);
  } catch (error) {
    if (error instanceof ImageDataError) return null;
    throw error;
  }
  return { width, height, data };
}

function photonLuma(bytes: Uint8Array): GrayImage | null {
  let img: PhotonImage | null = null;
  try {
    countDecode(bytes, "pixels");
    img = PhotonImage.new_from_byteslice(bytes);
    return lumaFromRgba(img.get_raw_pixels(), img.get_width(), img.get_height());
  } catch {
    return null;
  } finally {
    img?.free();
  }
}

/** Resamples to exactly w×h by area averaging of a prior downscale + nearest pick. */
function toSize(img: GrayImage, w: number, h: number): Float32Array {
  const small = downscale(img, Math.max(w, h) * 2);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = Math.min(small.width - 1, Math.floor(((x + 0.5) * small.width) / w));
      const sy = Math.min(small.height - 1, Math.floor(((y + 0.5) * small.height) / h));
      out[y * w + x] = small.data[sy * small.width + sx];
    }
  return out;
}

/** Pearson correlation of the two pictures at a common size, plus the mean absolute difference. */
export function comparePictures(
  a: GrayImage,
  b: GrayImage,
): { correlation: number; meanAbsDiff: number; size: [number, number] } {
  const aspect = a.width / a.height;
  const w = aspect >= 1 ? COMPARE_SIDE : Math.max(4, Math.round(COMPARE_SIDE * aspect));
  const h = aspect >= 1 ? Math.max(4, Math.round(COMPARE_SIDE / aspect)) : COMPARE_SIDE;
  const x = toSize(a, w, h);
  const y = toSize(b, w, h);
  let mx = 0;
  let my = 0;
  for (let i = 0; i < x.length; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= x.length;
  my /= y.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  let mad = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
    mad += Math.abs(x[i] - y[i]);
  }
  const correlation = sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 1;
  return { correlation, meanAbsDiff: mad / x.length, size: [w, h] };
}

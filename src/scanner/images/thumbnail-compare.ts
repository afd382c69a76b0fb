/** Compares an EXIF preview with the main image (both reduced to a small common size). */
import { countDecode } from "./decode-count";
import { areaCell, downscaledSize, type GrayImage, lumaFromRgba, lumaFromRgbaInto } from "./gray";
import { isJpeg } from "./jpeg-markers";
import { JpegStripDecoder } from "./jpeg-strip-decoder";
import { declaredSize } from "./pixel-budget";
import { ImageDataError } from "./rgba-band";
import { decodeWithPhoton } from "./streamed-image";

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
      lumaFromRgbaInto(band.rgba, width * band.rows, data, band.y * width);
  } catch (error) {
    if (error instanceof ImageDataError) return null;
    throw error;
  }
  return { width, height, data };
}

function photonLuma(bytes: Uint8Array): GrayImage | null {
  const picture = decodeWithPhoton(bytes);
  return picture && lumaFromRgba(picture.rgba, picture.width, picture.height);
}

/**
 * Resamples to exactly w×h: a nearest pick in gray.ts `downscale(img, 2 · max(w, h))`. Only the picked cells of that
 * downscale are averaged (the same values), so no picture of the intermediate size is made.
 */
function toSize(img: GrayImage, w: number, h: number): Float32Array {
  const reduced = downscaledSize(img, Math.max(w, h) * 2);
  const small = reduced ?? img;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const sx = Math.min(small.width - 1, Math.floor(((x + 0.5) * small.width) / w));
      const sy = Math.min(small.height - 1, Math.floor(((y + 0.5) * small.height) / h));
      out[y * w + x] = reduced ? areaCell(img, reduced.width, reduced.height, sx, sy) : img.data[sy * img.width + sx];
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
  let mad = 0;
  for (let i = 0; i < x.length; i++) mad += Math.abs(x[i] - y[i]);
  // Two flat pictures of the same size match (a blank preview of a blank picture).
  const correlation = pearson(x, y, 1);
  return { correlation, meanAbsDiff: mad / x.length, size: [w, h] };
}

/** Where in the preview the picture lies, when it is a cut-out of it, and how well it matches there. */
export interface PreviewCrop {
  correlation: number;
  /** The window in preview pixels, and its share of the preview's area. */
  window: { x: number; y: number; width: number; height: number };
  areaShare: number;
}

const CROP_COMPARE_SIDE = 32;
const CROP_SCALES = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const CROP_STEP = 4;

/**
 * The best match of the picture against windows of the preview with the picture's proportions, from half
 * to 95 % of the preview's width: a picture cut out of the camera's frame matches one of them closely.
 */
export function cropWithinPreview(main: GrayImage, preview: GrayImage): PreviewCrop | null {
  const aspect = main.width / main.height;
  const w = aspect >= 1 ? CROP_COMPARE_SIDE : Math.max(4, Math.round(CROP_COMPARE_SIDE * aspect));
  const h = aspect >= 1 ? Math.max(4, Math.round(CROP_COMPARE_SIDE / aspect)) : CROP_COMPARE_SIDE;
  const target = toSize(main, w, h);
  let best: PreviewCrop | null = null;
  const consider = (x: number, y: number, ww: number, wh: number) => {
    if (x < 0 || y < 0 || x + ww > preview.width || y + wh > preview.height) return;
    const correlation = pearson(target, toSize(windowOf(preview, x, y, ww, wh), w, h));
    if (!best || correlation > best.correlation)
      best = {
        correlation,
        window: { x, y, width: ww, height: wh },
        areaShare: (ww * wh) / (preview.width * preview.height),
      };
  };
  for (const scale of CROP_SCALES) {
    const ww = Math.round(Math.min(preview.width, preview.height * aspect) * scale);
    const wh = Math.round(ww / aspect);
    if (ww < w || wh < h) continue;
    for (let y = 0; y + wh <= preview.height; y += CROP_STEP)
      for (let x = 0; x + ww <= preview.width; x += CROP_STEP) consider(x, y, ww, wh);
  }
  // Coarse grid first, then every pixel position around the best window.
  const coarse = best as PreviewCrop | null;
  if (coarse) {
    const { x: bx, y: by, width, height } = coarse.window;
    for (let dy = 1 - CROP_STEP; dy < CROP_STEP; dy++)
      for (let dx = 1 - CROP_STEP; dx < CROP_STEP; dx++) if (dx || dy) consider(bx + dx, by + dy, width, height);
  }
  return best;
}

function windowOf(img: GrayImage, x0: number, y0: number, width: number, height: number): GrayImage {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    data.set(img.data.subarray((y0 + y) * img.width + x0, (y0 + y) * img.width + x0 + width), y * width);
  return { width, height, data };
}

/** Pearson correlation; `flat` where either side has no variance. */
function pearson(x: Float32Array, y: Float32Array, flat = 0): number {
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
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : flat;
}

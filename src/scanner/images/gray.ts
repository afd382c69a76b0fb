/** Single-channel image helpers shared by the detectors (luma, resampling). */

/** A grayscale image, values 0–255, row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** ITU-R BT.601 luma of RGBA pixels (what JPEG stores as Y). */
export function lumaFromRgba(rgba: Uint8Array, width: number, height: number): GrayImage {
  const data = new Float32Array(width * height);
  lumaFromRgbaInto(rgba, data.length, data, 0);
  return { width, height, data };
}

/** lumaFromRgba of `pixels` RGBA pixels written into `out` from `offset` on (a band into its picture, no band-sized array). */
export function lumaFromRgbaInto(rgba: Uint8Array, pixels: number, out: Float32Array, offset: number): void {
  for (let i = 0, p = 0; i < pixels; i++, p += 4)
    out[offset + i] = 0.299 * rgba[p] + 0.587 * rgba[p + 1] + 0.114 * rgba[p + 2];
}

/** Area-average downscale so that the longer side is at most `maxSide` (never upscales). */
export function downscale(img: GrayImage, maxSide: number): GrayImage {
  const size = downscaledSize(img, maxSide);
  if (!size) return img;
  const { width, height } = size;
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data[y * width + x] = areaCell(img, width, height, x, y);
  return { width, height, data };
}

/** downscale's output size, or null when it returns the picture itself. */
export function downscaledSize(img: GrayImage, maxSide: number): { width: number; height: number } | null {
  const factor = Math.max(img.width, img.height) / maxSide;
  if (factor <= 1) return null;
  return { width: Math.max(1, Math.round(img.width / factor)), height: Math.max(1, Math.round(img.height / factor)) };
}

/** The value of downscale's cell (x, y) at output size width × height: the average of its source area. */
export function areaCell(img: GrayImage, width: number, height: number, x: number, y: number): number {
  const sx = img.width / width;
  const sy = img.height / height;
  const y0 = Math.floor(y * sy);
  const y1 = Math.max(y0 + 1, Math.floor((y + 1) * sy));
  const x0 = Math.floor(x * sx);
  const x1 = Math.max(x0 + 1, Math.floor((x + 1) * sx));
  let s = 0;
  for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) s += img.data[yy * img.width + xx];
  return s / ((y1 - y0) * (x1 - x0));
}

/** Resamples a grid of per-cell values (e.g. per 8×8 block) to width×height by nearest neighbour. */
export function resampleGrid(
  values: Float32Array,
  gw: number,
  gh: number,
  width: number,
  height: number,
): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(gh - 1, Math.floor((y * gh) / height));
    for (let x = 0; x < width; x++)
      out[y * width + x] = values[gy * gw + Math.min(gw - 1, Math.floor((x * gw) / width))];
  }
  return out;
}

/** The q-quantile (0–1) of the finite values (copying; for reporting and normalising). */
export function quantile(values: ArrayLike<number>, q: number, include?: (i: number) => boolean): number {
  const picked: number[] = [];
  for (let i = 0; i < values.length; i++)
    if ((!include || include(i)) && Number.isFinite(values[i])) picked.push(values[i]);
  if (!picked.length) return NaN;
  picked.sort((a, b) => a - b);
  return picked[Math.min(picked.length - 1, Math.max(0, Math.round(q * (picked.length - 1))))];
}

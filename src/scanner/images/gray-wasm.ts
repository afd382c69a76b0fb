/**
 * gray.ts `lumaFromRgba` and `downscale` by the kernels of wasm/assembly/gray.ts: the same f32 values
 * (gray.ts stays the reference; test/forensics/image/wasm-png-kernels.test.ts compares them), without a
 * JavaScript loop per pixel. The scratch area holds one band of rows at a time, never a whole large picture.
 */
import type { GrayImage } from "./gray";
import { holdInScratch, kernels, scratchHolds, scratchRegions } from "./wasm-kernels";

/**
 * A grey picture copied into the scratch area (region `picture`) ahead of the other `regions` a kernel call needs
 * (the blur and cut-edge searches' kernels read it whole: 4 bytes per pixel, ≤ 4 MB for a search picture). The
 * kernels called with it only read it, so the copy stays for the next call on the same picture in the same
 * synchronous run (the cut-edge searches' four: ≈ 0.07 ms each at 0.4 MP), unless the area was claimed in between.
 */
export function copyGrayInto<K extends string>(img: GrayImage, regions: Record<K, number>) {
  const k = kernels();
  const copied = scratchHolds(img.data, k);
  const s = scratchRegions({ picture: img.data.length * 4, ...regions } as Record<K | "picture", number>, k);
  if (!copied) new Float32Array(s.buffer, s.at.picture, img.data.length).set(img.data);
  holdInScratch(img.data, k);
  return s;
}

/** Source bytes copied into the scratch area per downscale call (a band of whole rows, at least one output row's). */
const BAND_BYTES = 1 << 20;

/** Luma of `pixels` RGBA pixels into `out` at `offset` (lumaFromRgba's values). */
export function lumaInto(rgba: Uint8Array, pixels: number, out: Float32Array, offset: number): void {
  const { at, bytes, buffer } = scratchRegions({ rgba: pixels * 4 + 16, out: pixels * 4 });
  bytes.set(rgba.subarray(0, pixels * 4), at.rgba);
  kernels().lumaRows(at.rgba, pixels, at.out);
  out.set(new Float32Array(buffer, at.out, pixels), offset);
}

/** Source index ranges of downscale's output cells along one side: [first[i], end[i]). */
function ranges(size: number, outSize: number): { first: Int32Array; end: Int32Array } {
  const scale = size / outSize;
  const first = new Int32Array(outSize);
  const end = new Int32Array(outSize);
  for (let i = 0; i < outSize; i++) {
    first[i] = Math.floor(i * scale);
    end[i] = Math.max(first[i] + 1, Math.floor((i + 1) * scale));
  }
  return { first, end };
}

/**
 * The pictures downscaleWasm made, per picture and side, held as long as the picture is: the blur search's half-size
 * picture is the seams and blur heatmaps' background (callers do not change what they are given).
 */
const downscaled = new WeakMap<GrayImage, Map<number, GrayImage>>();

/**
 * gray.ts `downscale` (area average until the longer side is at most `maxSide`), its values, band by band in wasm;
 * once per picture and side.
 */
export function downscaleWasm(img: GrayImage, maxSide: number): GrayImage {
  const factor = Math.max(img.width, img.height) / maxSide;
  if (factor <= 1) return img;
  let sizes = downscaled.get(img);
  if (!sizes) downscaled.set(img, (sizes = new Map()));
  let small = sizes.get(maxSide);
  if (!small) sizes.set(maxSide, (small = downscaleOnce(img, factor)));
  return small;
}

/** downscaleWasm of a picture `factor` times larger than wanted (> 1). */
function downscaleOnce(img: GrayImage, factor: number): GrayImage {
  const width = Math.max(1, Math.round(img.width / factor));
  const height = Math.max(1, Math.round(img.height / factor));
  const rows = ranges(img.height, height);
  const columns = ranges(img.width, width);
  // Rows of output per call: as many as fit BAND_BYTES of source rows (at least one).
  const rowsPerBand = Math.max(1, Math.floor(BAND_BYTES / (img.width * 4 * Math.ceil(img.height / height + 1))));
  const data = new Float32Array(width * height);
  const k = kernels();
  for (let r0 = 0; r0 < height; r0 += rowsPerBand) {
    const n = Math.min(rowsPerBand, height - r0);
    const top = rows.first[r0];
    const bottom = rows.end.subarray(r0, r0 + n).reduce((a, b) => Math.max(a, b), 0);
    const { at, buffer } = scratchRegions({
      source: (bottom - top) * img.width * 4,
      firstRow: n * 4,
      endRow: n * 4,
      firstColumn: width * 4,
      endColumn: width * 4,
      out: n * width * 4,
    });
    new Float32Array(buffer, at.source, (bottom - top) * img.width).set(
      img.data.subarray(top * img.width, bottom * img.width),
    );
    const firstRow = new Int32Array(buffer, at.firstRow, n);
    const endRow = new Int32Array(buffer, at.endRow, n);
    for (let i = 0; i < n; i++) {
      firstRow[i] = rows.first[r0 + i] - top;
      endRow[i] = rows.end[r0 + i] - top;
    }
    new Int32Array(buffer, at.firstColumn, width).set(columns.first);
    new Int32Array(buffer, at.endColumn, width).set(columns.end);
    k.grayDownscaleRows(at.source, img.width, n, width, at.firstRow, at.endRow, at.firstColumn, at.endColumn, at.out);
    data.set(new Float32Array(buffer, at.out, n * width), r0 * width);
  }
  return { width, height, data };
}

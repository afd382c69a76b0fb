/**
 * A decoded page (a TIFF page, a HEIC's picture) written as PNG band by band, as its decoder hands it
 * out. Up to MAX_FULL_PAGE_PIXELS the page keeps every pixel; a larger one is reduced by the smallest
 * integer factor f that fits (each output pixel the average of about f × f pixels: AreaDownscaler, whose
 * finished rows go straight into the PNG). The PNG is what grows with the picture (≈ 1.5–2.5 bytes a
 * pixel for photos, held while written and again as the file, and read whole by the PNG unit that
 * analyses it), so this bounds the page's memory to one band plus a PNG of at most 13 MP.
 */
import { AreaDownscaler } from "./area-downscale";
import { PngRowWriter } from "./png-encode";

/** Largest page analysed at full resolution: a 12 MP phone photo (4032 × 3024, 4080 × 3072). */
export const MAX_FULL_PAGE_PIXELS = 13_000_000;

/**
 * Largest page decoded and reduced (declared size; a 48 MP phone photo is 8064 × 6048). Memory no longer
 * grows with the area, time does: libheif takes ≈ 3 s for a 12 MP iPhone photo in Node, so ≈ 30 s at this size.
 */
export const MAX_REDUCED_PAGE_PIXELS = 120_000_000;

/** Source rows handed to the downscaler at a time: its wasm scratch area (which never shrinks) holds one such chunk. */
const DOWNSCALE_ROWS = 16;

/** The smallest integer factor f ≥ 1 by which a page of this size fits MAX_FULL_PAGE_PIXELS. */
export function reductionFactor(width: number, height: number): number {
  let factor = 1;
  while (Math.ceil(width / factor) * Math.ceil(height / factor) > MAX_FULL_PAGE_PIXELS) factor++;
  return factor;
}

/** A page as PNG: its analysed size, and the stored size and factor when it was reduced. */
export interface PagePng {
  width: number;
  height: number;
  png: Uint8Array;
  reducedFrom?: { width: number; height: number; factor: number };
}

/** Takes a page's RGBA rows top to bottom, in bands of any height; `finish` gives the PNG. */
export class PagePngWriter {
  readonly factor: number;
  /** The analysed (PNG) size. */
  readonly width: number;
  readonly height: number;
  private readonly png: PngRowWriter;
  private readonly scaler: AreaDownscaler | null;
  /** Source rows received so far. */
  private y = 0;

  constructor(
    readonly sourceWidth: number,
    readonly sourceHeight: number,
  ) {
    this.factor = reductionFactor(sourceWidth, sourceHeight);
    this.width = Math.ceil(sourceWidth / this.factor);
    this.height = Math.ceil(sourceHeight / this.factor);
    const png = new PngRowWriter(this.width, this.height);
    this.png = png;
    this.scaler =
      this.factor === 1
        ? null
        : new AreaDownscaler(sourceWidth, sourceHeight, this.width, this.height, {
            rows: (rgba, count) => png.add(rgba, count),
          });
  }

  /** The next `rows` full-width rows of RGBA (sourceWidth × 4 bytes each). */
  add(rgba: Uint8Array, rows: number): void {
    const stride = this.sourceWidth * 4;
    const take = Math.min(rows, this.sourceHeight - this.y);
    if (!this.scaler) {
      this.png.add(rgba, take);
      this.y += take;
      return;
    }
    for (let r = 0; r < take; r += DOWNSCALE_ROWS) {
      const n = Math.min(DOWNSCALE_ROWS, take - r);
      this.scaler.add({ y: this.y, rows: n, rgba: rgba.subarray(r * stride, (r + n) * stride) });
      this.y += n;
    }
  }

  /** The PNG; every source row must have been added. */
  finish(): PagePng {
    this.scaler?.finish();
    const png = this.png.finish();
    const { width, height, factor } = this;
    if (factor === 1) return { width, height, png };
    return { width, height, png, reducedFrom: { width: this.sourceWidth, height: this.sourceHeight, factor } };
  }
}

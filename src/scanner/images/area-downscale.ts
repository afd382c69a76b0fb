/**
 * Area-average downscale of a streamed image to an exact output size: every source pixel counts
 * once, in the output pixel its position maps to (floor(x · outWidth / width)). Reads every band to
 * the end, so damage anywhere in the file is noticed. Memory: one output row of sums plus the result.
 */
import type { RgbaBand, RgbaBandSource } from "./rgba-band";

/** A whole RGBA picture as a source of a single band. */
export function singleBand(image: { width: number; height: number; rgba: Uint8Array }): RgbaBandSource {
  let done = false;
  return {
    width: image.width,
    height: image.height,
    next() {
      if (done) return null;
      done = true;
      return { y: 0, rows: image.height, rgba: image.rgba };
    },
  };
}

/** RGBA of `outWidth` × `outHeight` (each at most the source's). Throws ImageDataError on corrupt data. */
export function areaDownscale(decoder: RgbaBandSource, outWidth: number, outHeight: number): Uint8Array {
  const scaler = new AreaDownscaler(decoder.width, decoder.height, outWidth, outHeight);
  for (let band = decoder.next(); band; band = decoder.next()) scaler.add(band);
  return scaler.finish();
}

/** The same downscale fed band by band (the shared decode of images/file-decode.ts). */
export class AreaDownscaler {
  private readonly out: Uint8Array;
  private readonly column: Uint32Array;
  private readonly sums: Float64Array;
  private readonly counts: Uint32Array;
  private outRow = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly outWidth: number,
    private readonly outHeight: number,
  ) {
    this.out = new Uint8Array(outWidth * outHeight * 4);
    this.column = new Uint32Array(width);
    for (let x = 0; x < width; x++) this.column[x] = Math.floor((x * outWidth) / width) * 3;
    this.sums = new Float64Array(outWidth * 3);
    this.counts = new Uint32Array(outWidth);
  }

  add(band: RgbaBand): void {
    const { width, column, sums, counts } = this;
    for (let r = 0; r < band.rows; r++) {
      const target = Math.floor(((band.y + r) * this.outHeight) / this.height);
      if (target !== this.outRow) {
        this.flush();
        this.outRow = target;
      }
      const row = band.rgba.subarray(r * width * 4, (r + 1) * width * 4);
      for (let x = 0, p = 0; x < width; x++, p += 4) {
        const o = column[x];
        sums[o] += row[p];
        sums[o + 1] += row[p + 1];
        sums[o + 2] += row[p + 2];
        counts[o / 3]++;
      }
    }
  }

  finish(): Uint8Array {
    this.flush();
    return this.out;
  }

  private flush(): void {
    const { out, sums, counts, outWidth } = this;
    for (let ox = 0; ox < outWidth; ox++) {
      const o = (this.outRow * outWidth + ox) * 4;
      const n = counts[ox] || 1;
      out[o] = Math.round(sums[ox * 3] / n);
      out[o + 1] = Math.round(sums[ox * 3 + 1] / n);
      out[o + 2] = Math.round(sums[ox * 3 + 2] / n);
      out[o + 3] = 255;
    }
    sums.fill(0);
    counts.fill(0);
  }
}

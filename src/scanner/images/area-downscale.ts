/**
 * Area-average downscale of a streamed image to an exact output size: every source pixel counts
 * once, in the output pixel its position maps to (floor(x · outWidth / width)). Reads every band to
 * the end, so damage anywhere in the file is noticed. Memory: one output row of sums plus the result.
 * With a `rows` sink, finished output rows are handed on instead of kept (a page reduced straight into its
 * PNG, forensics/page-png.ts): memory is then one output row of sums.
 * The sums run in the SIMD kernel wasm/assembly/area-downscale.ts (same values); the JavaScript
 * below is the reference (`{ reference: true }`), and what enlarges (never asked for: sizes are at
 * most the source's).
 */
import type { RgbaBand, RgbaBandSource } from "./rgba-band";
import { kernels, scratchRegions } from "./wasm-kernels";

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
export function areaDownscale(
  decoder: RgbaBandSource,
  outWidth: number,
  outHeight: number,
  options: { reference?: boolean } = {},
): Uint8Array {
  const scaler = new AreaDownscaler(decoder.width, decoder.height, outWidth, outHeight, options);
  for (let band = decoder.next(); band; band = decoder.next()) scaler.add(band);
  return scaler.finish();
}

/** Receives finished output rows top to bottom: `count` rows of outWidth × 4 bytes, valid only during the call. */
export type DownscaledRows = (rgba: Uint8Array, count: number) => void;

/** The same downscale fed band by band (the shared decode of images/file-decode.ts). */
export class AreaDownscaler {
  /** The whole result; empty when rows go to a sink. */
  private readonly out: Uint8Array;
  private readonly sink: DownscaledRows | undefined;
  /** The output row being finished, when rows go to a sink. */
  private readonly row: Uint8Array;
  /** Where each output column's source columns start (a source column counts in the one it maps to). */
  private readonly firstColumn: Uint32Array;
  private readonly sums: Float64Array;
  /** Source pixels summed per output column of the current output row. */
  private readonly counts: Uint32Array;
  private outRow = 0;
  /** Bands summed by the wasm kernel (a shrink in both directions: one output row finished per source row at most). */
  private readonly inWasm: boolean;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly outWidth: number,
    private readonly outHeight: number,
    options: { reference?: boolean; rows?: DownscaledRows } = {},
  ) {
    this.inWasm = !options.reference && outWidth <= width && outHeight <= height;
    this.sink = options.rows;
    this.out = new Uint8Array(this.sink ? 0 : outWidth * outHeight * 4);
    this.row = new Uint8Array(this.sink ? outWidth * 4 : 0);
    this.firstColumn = new Uint32Array(outWidth + 1);
    // Output column ox takes the source columns [firstColumn[ox], firstColumn[ox + 1]) (empty if none maps to it).
    let ox = 0;
    for (let x = 0; x < width; x++) {
      const target = Math.floor((x * outWidth) / width);
      while (ox <= target) this.firstColumn[ox++] = x;
    }
    while (ox <= outWidth) this.firstColumn[ox++] = width;
    this.sums = new Float64Array(outWidth * 3);
    this.counts = new Uint32Array(outWidth);
  }

  add(band: RgbaBand): void {
    if (this.inWasm) this.addInWasm(band);
    else this.addReference(band);
  }

  /** The band through areaDownscaleBand: the band, column table, sums and counts copied in; finished rows and sums out. */
  private addInWasm(band: RgbaBand): void {
    const { width, outWidth, firstColumn, sums, counts } = this;
    const { at, bytes, buffer } = scratchRegions({
      band: band.rows * width * 4,
      columns: (outWidth + 1) * 4,
      sums: outWidth * 24,
      counts: outWidth * 4,
      state: 4,
      out: (band.rows + 1) * outWidth * 4,
    });
    bytes.set(band.rgba.subarray(0, band.rows * width * 4), at.band);
    new Uint32Array(buffer, at.columns, outWidth + 1).set(firstColumn);
    const wasmSums = new Float64Array(buffer, at.sums, outWidth * 3);
    const wasmCounts = new Uint32Array(buffer, at.counts, outWidth);
    const state = new Int32Array(buffer, at.state, 1);
    wasmSums.set(sums);
    wasmCounts.set(counts);
    state[0] = this.outRow;
    const finished = kernels().areaDownscaleBand(
      at.band,
      width,
      band.rows,
      band.y,
      this.height,
      outWidth,
      this.outHeight,
      at.columns,
      at.sums,
      at.counts,
      at.state,
      at.out,
    );
    const done = bytes.subarray(at.out, at.out + finished * outWidth * 4);
    if (!this.sink) this.out.set(done, this.outRow * outWidth * 4);
    this.outRow = state[0];
    sums.set(wasmSums);
    counts.set(wasmCounts);
    if (this.sink && finished > 0) this.sink(done, finished);
  }

  private addReference(band: RgbaBand): void {
    const { width, outWidth, firstColumn, sums, counts } = this;
    for (let r = 0; r < band.rows; r++) {
      const target = Math.floor(((band.y + r) * this.outHeight) / this.height);
      if (target !== this.outRow) {
        this.flush();
        this.outRow = target;
      }
      // Integer sums: adding a row's columns first is exact, the same as pixel by pixel.
      const row = band.rgba.subarray(r * width * 4, (r + 1) * width * 4);
      for (let ox = 0, o = 0; ox < outWidth; ox++, o += 3) {
        let red = 0;
        let green = 0;
        let blue = 0;
        const end = firstColumn[ox + 1];
        for (let x = firstColumn[ox], p = x * 4; x < end; x++, p += 4) {
          red += row[p];
          green += row[p + 1];
          blue += row[p + 2];
        }
        sums[o] += red;
        sums[o + 1] += green;
        sums[o + 2] += blue;
        counts[ox] += end - firstColumn[ox];
      }
    }
  }

  /** The result (empty when rows went to a sink); the last output row is finished here. */
  finish(): Uint8Array {
    this.flush();
    return this.out;
  }

  private flush(): void {
    const { sums, counts, outWidth } = this;
    const out = this.sink ? this.row : this.out;
    const first = this.sink ? 0 : this.outRow * outWidth;
    for (let ox = 0; ox < outWidth; ox++) {
      const o = (first + ox) * 4;
      const n = counts[ox] || 1;
      out[o] = Math.round(sums[ox * 3] / n);
      out[o + 1] = Math.round(sums[ox * 3 + 1] / n);
      out[o + 2] = Math.round(sums[ox * 3 + 2] / n);
      out[o + 3] = 255;
    }
    sums.fill(0);
    counts.fill(0);
    this.sink?.(out, 1);
  }
}

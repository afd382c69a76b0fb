/**
 * The luma of a picture fed band by band, area-averaged so that its longer side is at most `maxSide`:
 * the result of gray.ts `lumaFromRgba` on the whole picture followed by `downscale`, without holding
 * the full-size luma (16 MB for 4 MP). The sums run in the SIMD kernels' wasm/assembly/luma-downscale.ts,
 * value for value; a picture that is not shrunk is only converted to luma (gray-wasm.ts `lumaInto`, the same
 * values). `{ reference: true }` takes the gray.ts route.
 */
import { downscale, type GrayImage, lumaFromRgba } from "./gray";
import { lumaInto } from "./gray-wasm";
import type { RgbaBand } from "./rgba-band";
import { kernels, scratchRegions } from "./wasm-kernels";

/** Where each output cell's source range starts (downscale's floor(i · scale)), the last entry its end; null unless the ranges tile. */
function rangeStarts(size: number, outSize: number): Int32Array | null {
  const scale = size / outSize;
  const starts = new Int32Array(outSize + 1);
  for (let i = 0; i < outSize; i++) {
    starts[i] = Math.floor(i * scale);
    const end = Math.max(starts[i] + 1, Math.floor((i + 1) * scale));
    if (i + 1 < outSize && end !== Math.floor((i + 1) * scale)) return null;
    starts[i + 1] = end;
  }
  return starts;
}

export class LumaDownscaler {
  private readonly outWidth: number;
  private readonly outHeight: number;
  /** The kernel's range tables, or null for the gray.ts route (then `full` collects the luma). */
  private readonly tables: { columns: Int32Array; rows: Int32Array } | null = null;
  private readonly full: Float32Array | null = null;
  private readonly sums: Float64Array;
  private readonly out: Float32Array;
  private outRow = 0;
  private readonly reference: boolean;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly maxSide: number,
    options: { reference?: boolean } = {},
  ) {
    // downscale's output size.
    this.reference = options.reference ?? false;
    const factor = Math.max(width, height) / maxSide;
    this.outWidth = factor <= 1 ? width : Math.max(1, Math.round(width / factor));
    this.outHeight = factor <= 1 ? height : Math.max(1, Math.round(height / factor));
    const columns = factor > 1 && !options.reference ? rangeStarts(width, this.outWidth) : null;
    const rows = columns ? rangeStarts(height, this.outHeight) : null;
    if (columns && rows) this.tables = { columns, rows };
    else this.full = new Float32Array(width * height);
    this.sums = new Float64Array(this.tables ? this.outWidth : 0);
    this.out = new Float32Array(this.tables ? this.outWidth * this.outHeight : 0);
  }

  add(band: RgbaBand): void {
    if (!this.tables) {
      if (!this.full) return;
      if (this.reference) this.full.set(lumaFromRgba(band.rgba, this.width, band.rows).data, band.y * this.width);
      else lumaInto(band.rgba, band.rows * this.width, this.full, band.y * this.width);
      return;
    }
    const { width, outWidth, sums } = this;
    const { columns, rows } = this.tables;
    const { at, bytes, buffer } = scratchRegions({
      band: band.rows * width * 4,
      columns: columns.length * 4,
      rows: rows.length * 4,
      sums: outWidth * 8,
      state: 4,
      out: (band.rows + 1) * outWidth * 4,
    });
    bytes.set(band.rgba.subarray(0, band.rows * width * 4), at.band);
    new Int32Array(buffer, at.columns, columns.length).set(columns);
    new Int32Array(buffer, at.rows, rows.length).set(rows);
    const wasmSums = new Float64Array(buffer, at.sums, outWidth);
    wasmSums.set(sums);
    const state = new Int32Array(buffer, at.state, 1);
    state[0] = this.outRow;
    const finished = kernels().lumaDownscaleBand(
      at.band,
      width,
      band.rows,
      band.y,
      outWidth,
      this.outHeight,
      at.columns,
      at.rows,
      at.sums,
      at.state,
      at.out,
    );
    this.out.set(new Float32Array(buffer, at.out, finished * outWidth), this.outRow * outWidth);
    this.outRow = state[0];
    sums.set(wasmSums);
  }

  finish(): GrayImage {
    if (this.tables) return { width: this.outWidth, height: this.outHeight, data: this.out };
    const data = this.full ?? new Float32Array(0);
    return downscale({ width: this.width, height: this.height, data }, this.maxSide);
  }
}

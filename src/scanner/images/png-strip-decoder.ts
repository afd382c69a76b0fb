/**
 * Streaming pixel decoder for non-interlaced PNGs: the IDAT stream is inflated 1–16 KB at a time
 * (fflate's Unzlib, steps sized below), each scanline is unfiltered against the previous one
 * (PNG §9) and converted to RGBA, and the rows are handed out in bands. Besides one step of inflated
 * data it holds two scanlines and one band of RGBA, O(width): a few MB for a 24 MP screenshot
 * instead of photon's 96 MB bitmap. Every colour type and bit depth of the standard, with tRNS
 * transparency; 16-bit samples are rounded to 8 bits. Interlaced (Adam7) files are refused so
 * callers can fall back. Gamma, colour profiles and chunk CRCs are ignored, as by photon.
 * A band's scanlines are unfiltered by the SIMD kernel wasm/assembly/png-unfilter.ts (same bytes);
 * `unfilter` below is the reference (`open(bytes, { reference: true })`).
 */
import { Unzlib } from "fflate";
import { MAX_STREAMED_PNG_PIXELS } from "./pixel-budget";
import { isPng, type PngChunk, pngChunks } from "./png-chunks";
import { ImageDataError, type RgbaBand, type RgbaBandSource } from "./rgba-band";
import { kernels, scratch, scratchRegions } from "./wasm-kernels";

/** The compressed image data is corrupt or truncated; thrown while decoding rows. */
export class PngDataError extends ImageDataError {
  override name = "PngDataError";
}

/** Rows per band handed out. */
const BAND_ROWS = 16;
/**
 * Compressed bytes inflated per step, sized from the last step's ratio to give about TARGET_OUTPUT
 * bytes, within [MIN_INPUT_SLICE, MAX_INPUT_SLICE]. Deflate expands at most ≈ 1032:1, so one step
 * yields at most ≈ 16 MB even when a flat region follows a detailed one, and ≈ 1 MB inside a flat
 * picture. Smaller steps on ordinary data are slow: fflate reallocates a 160 KB buffer per step
 * (24 MP photo: 1.4 s to inflate in 16 KB steps, 6.7 s in 1 KB steps, 1.2 s in one go).
 */
const MIN_INPUT_SLICE = 1024;
const MAX_INPUT_SLICE = 16 * 1024;
const TARGET_OUTPUT = 256 * 1024;
/** Scanlines unfiltered per wasm call, in bytes (at least one row; 16 rows of a 6000 px RGB photo are 288 KB). */
const WASM_UNFILTER_BYTES = 1 << 20;
/**
 * Up to this many inflated bytes (and as many compressed), a picture's whole image data is inflated at once by
 * the kernel (wasm/assembly/inflate.ts; ≈ 1 MP of RGBA) instead of by fflate step by step; anything it does
 * not finish (damage, a stream shorter or longer than the picture) is inflated by fflate as before.
 */
const WHOLE_INFLATE_BYTES = 4 << 20;
/** Largest width or height (JPEG's own limit; keeps one band of RGBA ≤ 4 MB). */
const MAX_SIDE = 65_535;

/** Bit depths allowed per colour type (PNG §11.2.2). */
const BIT_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

export class PngStripDecoder implements RgbaBandSource {
  readonly width: number;
  readonly height: number;
  private readonly bitDepth: number;
  private readonly colorType: number;
  /** Bytes per complete pixel for the filters (1 for bit depths below 8). */
  private readonly filterStep: number;
  /** Filter byte + scanline being assembled, and the previous unfiltered scanline. */
  private scanline: Uint8Array;
  private previous: Uint8Array;
  private filled = 0;
  private readonly rgba: Uint8Array;
  /** Palette as RGBA (colour type 3), or the tRNS key colour as raw samples (types 0 and 2). */
  private readonly palette: Uint8Array | null;
  private readonly transparentKey: number[] | null;
  private readonly unzlib: Unzlib;
  private readonly inflated: Uint8Array[] = [];
  private inflatedAt = 0;
  private readonly idat: Uint8Array[];
  private idatIndex = 0;
  private idatAt = 0;
  private inputSlice = MIN_INPUT_SLICE;
  /** Output of the current step. */
  private stepOutput = 0;
  private row = 0;

  private constructor(
    header: PngHeader,
    chunks: PngChunk[],
    idat: Uint8Array[],
    private readonly reference: boolean,
  ) {
    this.width = header.width;
    this.height = header.height;
    this.bitDepth = header.bitDepth;
    this.colorType = header.colorType;
    const bitsPerPixel = CHANNELS[header.colorType] * header.bitDepth;
    this.filterStep = Math.max(1, bitsPerPixel >> 3);
    const rowBytes = Math.ceil((header.width * bitsPerPixel) / 8);
    this.scanline = new Uint8Array(rowBytes + 1);
    this.previous = new Uint8Array(rowBytes + 1);
    this.rgba = new Uint8Array(header.width * Math.min(BAND_ROWS, header.height) * 4);
    const transparency = chunks.find((c) => c.type === "tRNS")?.data ?? null;
    this.palette =
      header.colorType === 3
        ? paletteRgba(chunks.find((c) => c.type === "PLTE")?.data ?? new Uint8Array(0), transparency)
        : null;
    this.transparentKey =
      transparency && (header.colorType === 0 || header.colorType === 2)
        ? keyColour(transparency, header.colorType)
        : null;
    this.idat = idat;
    this.unzlib = new Unzlib((data) => {
      if (data.length) this.inflated.push(data);
      this.stepOutput += data.length;
    });
  }

  /** A decoder for `bytes`, or why this decoder cannot read the file (callers fall back). */
  static open(bytes: Uint8Array, options: { reference?: boolean } = {}): PngStripDecoder | string {
    if (!isPng(bytes)) return "not a PNG";
    const chunks = pngChunks(bytes, { truncatedTail: true });
    const ihdr = chunks[0]?.type === "IHDR" && chunks[0].data.length === 13 ? chunks[0].data : null;
    if (!ihdr) return "no IHDR chunk";
    const view = new DataView(ihdr.buffer, ihdr.byteOffset, 13);
    const header = { width: view.getUint32(0), height: view.getUint32(4), bitDepth: ihdr[8], colorType: ihdr[9] };
    if (!BIT_DEPTHS[header.colorType]?.includes(header.bitDepth))
      return `colour type ${header.colorType} with bit depth ${header.bitDepth}`;
    if (ihdr[10] !== 0 || ihdr[11] !== 0) return "unknown compression or filter method";
    if (ihdr[12] !== 0) return "interlaced";
    if (header.width < 1 || header.height < 1 || header.width > MAX_SIDE || header.height > MAX_SIDE)
      return `size ${header.width} × ${header.height}`;
    if (header.width * header.height > MAX_STREAMED_PNG_PIXELS) return "too many pixels";
    if (header.colorType === 3 && !chunks.some((c) => c.type === "PLTE")) return "palette image without PLTE";
    // No image data is damage, reported by next() like a cut-off stream.
    return new PngStripDecoder(
      header,
      chunks,
      chunks.filter((c) => c.type === "IDAT").map((c) => c.data),
      options.reference === true,
    );
  }

  /** The next band of RGBA rows, or null after the last. Throws PngDataError on corrupt data. */
  next(): RgbaBand | null {
    const y = this.row;
    if (y >= this.height) return null;
    const rows = Math.min(BAND_ROWS, this.height - y);
    const stride = this.width * 4;
    if (!this.reference) return this.nextInWasm(y, rows, stride);
    for (let r = 0; r < rows; r++) {
      this.readScanline(y + r);
      this.unfilter(y + r);
      this.toRgba(this.scanline, this.rgba.subarray(r * stride, (r + 1) * stride));
      // The unfiltered row is the next row's "previous" (all zeros before the first row, as PNG says).
      [this.previous, this.scanline] = [this.scanline, this.previous];
      this.filled = 0;
    }
    this.row += rows;
    return { y, rows, rgba: this.rgba.subarray(0, rows * stride) };
  }

  /**
   * The band's scanlines read into the kernels' scratch area behind the previous row, unfiltered there
   * (at most WASM_UNFILTER_BYTES of rows per call, so very wide pictures do not grow wasm memory), converted
   * to RGBA from there. Errors as the reference raises them: a bad filter type in a row before the data
   * ran out is reported first.
   */
  private nextInWasm(y: number, rows: number, stride: number): RgbaBand {
    if (y === 0) this.inflateWhole();
    const length = this.scanline.length;
    const perCall = Math.max(1, Math.floor(WASM_UNFILTER_BYTES / length) - 1);
    for (let first = 0; first < rows; first += perCall) {
      const count = Math.min(perCall, rows - first);
      const s = scratch((count + 1) * length);
      const line = (r: number) => s.bytes.subarray(s.base + r * length, s.base + (r + 1) * length);
      s.bytes.set(this.previous, s.base);
      let read = 0;
      let readError: unknown = null;
      for (; read < count; read++) {
        try {
          this.readScanline(y + first + read);
        } catch (error) {
          readError = error;
          break;
        }
        s.bytes.set(this.scanline, s.base + (read + 1) * length);
        this.filled = 0;
      }
      const badRow = kernels().pngUnfilterRows(s.base, length, read, this.filterStep);
      const unfiltered = badRow < 0 ? read : badRow;
      for (let r = 0; r < unfiltered; r++)
        this.toRgba(line(r + 1), this.rgba.subarray((first + r) * stride, (first + r + 1) * stride));
      if (badRow >= 0)
        throw new PngDataError(`unknown filter type ${line(badRow + 1)[0]} in row ${y + first + badRow + 1}`);
      if (readError) throw readError;
      this.previous.set(line(count));
    }
    this.row += rows;
    return { y, rows, rgba: this.rgba.subarray(0, rows * stride) };
  }

  /**
   * A small picture's image data inflated at once by the kernel, as the only inflated chunk (every IDAT then
   * counts as read); left to fflate's steps when it is large or the kernel does not inflate exactly the
   * picture's scanlines from a stream that ends properly (fflate inflates the same bytes from a valid stream).
   */
  private inflateWhole(): void {
    const raw = this.scanline.length * this.height;
    const compressed = this.idat.reduce((n, chunk) => n + chunk.length, 0);
    if (raw > WHOLE_INFLATE_BYTES || compressed > WHOLE_INFLATE_BYTES) return;
    const { at, bytes } = scratchRegions({ input: compressed, output: raw });
    let to = at.input;
    for (const chunk of this.idat) {
      bytes.set(chunk, to);
      to += chunk.length;
    }
    if (kernels().zlibInflate(at.input, compressed, at.output, raw) !== raw) return;
    this.inflated.push(bytes.slice(at.output, at.output + raw));
    this.idatIndex = this.idat.length;
  }

  /** Fills `scanline` (filter byte + row) from the inflated stream, inflating more as needed. */
  private readScanline(row: number): void {
    while (this.filled < this.scanline.length) {
      const chunk = this.inflated[0];
      if (!chunk) {
        this.inflateMore(row);
        continue;
      }
      const take = Math.min(chunk.length - this.inflatedAt, this.scanline.length - this.filled);
      this.scanline.set(chunk.subarray(this.inflatedAt, this.inflatedAt + take), this.filled);
      this.filled += take;
      this.inflatedAt += take;
      if (this.inflatedAt === chunk.length) {
        this.inflated.shift();
        this.inflatedAt = 0;
      }
    }
  }

  private inflateMore(row: number): void {
    while (this.idatIndex < this.idat.length && this.idatAt >= this.idat[this.idatIndex].length) {
      this.idatIndex++;
      this.idatAt = 0;
    }
    if (this.idatIndex >= this.idat.length)
      throw new PngDataError(`the image data ends in row ${row + 1} of ${this.height} (truncated file?)`);
    const slice = this.idat[this.idatIndex].subarray(this.idatAt, this.idatAt + this.inputSlice);
    this.idatAt += slice.length;
    this.stepOutput = 0;
    try {
      this.unzlib.push(slice);
    } catch (error) {
      throw new PngDataError(
        `the compressed image data is corrupt in row ${row + 1} (${error instanceof Error ? error.message : "inflate failed"})`,
      );
    }
    const ratio = Math.max(1, this.stepOutput / slice.length);
    this.inputSlice = Math.round(Math.min(MAX_INPUT_SLICE, Math.max(MIN_INPUT_SLICE, TARGET_OUTPUT / ratio)));
  }

  /** Reverses the scanline's filter in place (PNG §9.2): a = left, b = above, c = above left. */
  private unfilter(row: number): void {
    const line = this.scanline;
    const up = this.previous;
    const step = this.filterStep;
    const end = line.length;
    switch (line[0]) {
      case 0:
        return;
      case 1:
        for (let i = 1 + step; i < end; i++) line[i] = (line[i] + line[i - step]) & 0xff;
        return;
      case 2:
        for (let i = 1; i < end; i++) line[i] = (line[i] + up[i]) & 0xff;
        return;
      case 3:
        for (let i = 1; i <= step; i++) line[i] = (line[i] + (up[i] >> 1)) & 0xff;
        for (let i = step + 1; i < end; i++) line[i] = (line[i] + ((line[i - step] + up[i]) >> 1)) & 0xff;
        return;
      case 4:
        // The first pixel has no left neighbours: the predictor is the byte above.
        for (let i = 1; i <= step; i++) line[i] = (line[i] + up[i]) & 0xff;
        for (let i = step + 1; i < end; i++) {
          const a = line[i - step];
          const b = up[i];
          const c = up[i - step];
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - 2 * c);
          line[i] = (line[i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
        }
        return;
      default:
        throw new PngDataError(`unknown filter type ${line[0]} in row ${row + 1}`);
    }
  }

  /** One unfiltered scanline (filter byte at 0) → RGBA. */
  private toRgba(line: Uint8Array, out: Uint8Array): void {
    const { width, bitDepth, palette, transparentKey: key } = this;
    if (bitDepth < 8 || palette) {
      // Gray or palette indices, 1/2/4/8 bits packed from the high bit down.
      const perByte = 8 / bitDepth;
      const mask = (1 << bitDepth) - 1;
      const scale = 255 / mask;
      for (let x = 0, o = 0; x < width; x++, o += 4) {
        const v = (line[1 + Math.floor(x / perByte)] >> (8 - bitDepth * ((x % perByte) + 1))) & mask;
        if (palette) out.set(palette.subarray(v * 4, v * 4 + 4), o);
        else {
          out[o] = out[o + 1] = out[o + 2] = Math.round(v * scale);
          out[o + 3] = key && v === key[0] ? 0 : 255;
        }
      }
      return;
    }
    if (bitDepth === 8 && this.colorType === 6) {
      out.set(line.subarray(1));
      return;
    }
    if (bitDepth === 8 && this.colorType === 2 && !key) {
      for (let x = 0, o = 0, i = 1; x < width; x++, o += 4, i += 3) {
        out[o] = line[i];
        out[o + 1] = line[i + 1];
        out[o + 2] = line[i + 2];
        out[o + 3] = 255;
      }
      return;
    }
    const wide = bitDepth === 16;
    const raw = wide ? (i: number) => (line[1 + 2 * i] << 8) | line[2 + 2 * i] : (i: number) => line[1 + i];
    const to8 = wide ? (v: number) => Math.round((v * 255) / 65535) : (v: number) => v;
    switch (this.colorType) {
      case 0:
        for (let x = 0, o = 0; x < width; x++, o += 4) {
          const v = raw(x);
          out[o] = out[o + 1] = out[o + 2] = to8(v);
          out[o + 3] = key && v === key[0] ? 0 : 255;
        }
        return;
      case 2:
        for (let x = 0, o = 0, i = 0; x < width; x++, o += 4, i += 3) {
          const r = raw(i);
          const g = raw(i + 1);
          const b = raw(i + 2);
          out[o] = to8(r);
          out[o + 1] = to8(g);
          out[o + 2] = to8(b);
          out[o + 3] = key && r === key[0] && g === key[1] && b === key[2] ? 0 : 255;
        }
        return;
      case 4:
        for (let x = 0, o = 0, i = 0; x < width; x++, o += 4, i += 2) {
          out[o] = out[o + 1] = out[o + 2] = to8(raw(i));
          out[o + 3] = to8(raw(i + 1));
        }
        return;
      default:
        for (let x = 0, o = 0, i = 0; x < width; x++, o += 4, i += 4) {
          out[o] = to8(raw(i));
          out[o + 1] = to8(raw(i + 1));
          out[o + 2] = to8(raw(i + 2));
          out[o + 3] = to8(raw(i + 3));
        }
    }
  }
}

/** PLTE (+ tRNS alphas) as 256 RGBA entries; indices past the palette are opaque black. */
function paletteRgba(plte: Uint8Array, transparency: Uint8Array | null): Uint8Array {
  const rgba = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    if (i * 3 + 2 < plte.length) rgba.set(plte.subarray(i * 3, i * 3 + 3), i * 4);
    rgba[i * 4 + 3] = transparency && i < transparency.length ? transparency[i] : 255;
  }
  return rgba;
}

/** The tRNS key of a gray (one 16-bit value) or RGB (three) image, compared with raw samples. */
function keyColour(transparency: Uint8Array, colorType: number): number[] | null {
  const count = colorType === 0 ? 1 : 3;
  if (transparency.length < count * 2) return null;
  return Array.from({ length: count }, (_, i) => (transparency[2 * i] << 8) | transparency[2 * i + 1]);
}

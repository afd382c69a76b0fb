/**
 * Minimal PNG encoder (8-bit grey, RGB or RGBA, filter "Up" per row, zlib) for heatmaps, thumbnails
 * and images pdf.js decoded. Not photon, so that rendering does not grow the wasm heap (which never
 * shrinks inside an isolate). The filter and deflate run in the SIMD kernels (wasm/assembly/deflate.ts:
 * greedy matching as zlib's fastest level, ≈ 3× fflate's level 1 on a heatmap, files of the same size);
 * fflate's level 1 is the reference, and what encodes pictures too large for the kernels' scratch memory.
 */
import { Zlib, zlibSync } from "fflate";
import { crc32 } from "../../lib/crc32";
import { align16, kernels, scratch } from "./wasm-kernels";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;
/**
 * Largest filtered picture deflated in wasm memory (a 1024 × 1024 RGB heatmap is 3.1 MB): the scratch
 * area, which never shrinks, then holds at most ≈ 6.5 MB (the filtered rows and the zlib stream).
 */
const WASM_DEFLATE_MAX_BYTES = 3_200_000;

/**
 * PNG bytes of 8-bit pixels, `channels` per pixel (default RGBA), row-major. `{ reference: true }`:
 * filtered and deflated in JavaScript (fflate, level 1): other bytes, the same pixels.
 */
export function encodePng(
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels: 1 | 3 | 4 = 4,
  options: { reference?: boolean } = {},
): Uint8Array {
  const stride = width * channels;
  // Filter "Up" on every row (the first row's "up" is zeros, the same as no filter): runs of equal
  // rows become zeros, which deflate packs smaller.
  if (options.reference || (stride + 1) * height > WASM_DEFLATE_MAX_BYTES)
    return assemble(width, height, channels, zlibSync(filterUp(pixels, stride, height), { level: 1 }));
  return deflateInWasm(pixels, stride, height, (idat) => assemble(width, height, channels, idat));
}

/** The rows behind their filter bytes, each minus the row above (JavaScript reference of pngFilterUp). */
function filterUp(pixels: Uint8Array | Uint8ClampedArray, stride: number, height: number): Uint8Array {
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0, o = 0; y < height; y++) {
    raw[o++] = 2;
    const row = y * stride;
    if (y === 0) raw.set(pixels.subarray(0, stride), o);
    else for (let i = 0; i < stride; i++) raw[o + i] = pixels[row + i] - pixels[row - stride + i];
    o += stride;
  }
  return raw;
}

/**
 * The rows copied behind their filter bytes into the kernels' scratch area, filtered and deflated
 * there; `use` gets the zlib stream as a view of wasm memory (valid until the next kernel call).
 */
function deflateInWasm<T>(
  pixels: Uint8Array | Uint8ClampedArray,
  stride: number,
  height: number,
  use: (zlib: Uint8Array) => T,
): T {
  const k = kernels();
  const rawLength = (stride + 1) * height;
  const at = align16(rawLength);
  const s = scratch(at + k.deflateBound(rawLength));
  for (let y = 0; y < height; y++)
    s.bytes.set(pixels.subarray(y * stride, (y + 1) * stride), s.base + y * (stride + 1) + 1);
  k.pngFilterUp(s.base, stride, height);
  const length = k.zlibDeflate(s.base, rawLength, s.base + at);
  return use(new Uint8Array(s.buffer, s.base + at, length));
}

/**
 * The same PNG (8-bit RGBA, filter "Up", level 1) written row by row, for full-size pictures from a
 * decoder (TIFF pages, HEIC tiles): no filtered copy of the whole picture, no zlib output buffer of
 * that size; what is held is the compressed data and, at `finish`, the file once.
 */
export class PngRowWriter {
  private readonly parts: Uint8Array[] = [];
  private readonly zlib = new Zlib({ level: 1 }, (data) => this.parts.push(data));
  private readonly line: Uint8Array;
  private readonly previous: Uint8Array;
  private y = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.line = new Uint8Array(width * 4 + 1);
    this.line[0] = 2;
    this.previous = new Uint8Array(width * 4);
  }

  /** The next `rows` rows of RGBA (width × 4 bytes each), top to bottom. */
  add(rgba: Uint8Array, rows: number): void {
    const stride = this.width * 4;
    for (let r = 0; r < rows && this.y < this.height; r++, this.y++) {
      const row = rgba.subarray(r * stride, (r + 1) * stride);
      for (let i = 0; i < stride; i++) this.line[1 + i] = row[i] - this.previous[i];
      this.previous.set(row);
      this.zlib.push(this.line, this.y === this.height - 1);
    }
  }

  /** The PNG file; every row must have been added. */
  finish(): Uint8Array {
    if (this.y !== this.height) throw new Error(`PNG has ${this.y} of ${this.height} rows`);
    const length = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(SIGNATURE.length + 25 + 12 + length + 12);
    out.set(SIGNATURE);
    const ihdr = new Uint8Array(13);
    const view = new DataView(ihdr.buffer);
    view.setUint32(0, this.width);
    view.setUint32(4, this.height);
    ihdr.set([8, COLOR_TYPE[4], 0, 0, 0], 8);
    out.set(chunk("IHDR", ihdr), SIGNATURE.length);
    const idat = SIGNATURE.length + 25;
    const head = new DataView(out.buffer);
    head.setUint32(idat, length);
    out.set([0x49, 0x44, 0x41, 0x54], idat + 4); // "IDAT"
    let at = idat + 8;
    for (const part of this.parts.splice(0)) {
      out.set(part, at);
      at += part.length;
    }
    head.setUint32(at, crc32(out.subarray(idat + 4, at)));
    out.set(chunk("IEND", new Uint8Array(0)), at + 4);
    return out;
  }
}

/** A whole RGBA picture through PngRowWriter. */
export function encodeRgbaPngStreamed(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const writer = new PngRowWriter(width, height);
  writer.add(rgba, height);
  return writer.finish();
}

function assemble(width: number, height: number, channels: 1 | 3 | 4, idat: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, COLOR_TYPE[channels], 0, 0, 0], 8);
  const chunks = [chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", new Uint8Array(0))];
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((n, c) => n + c.length, 0));
  out.set(SIGNATURE);
  let at = SIGNATURE.length;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

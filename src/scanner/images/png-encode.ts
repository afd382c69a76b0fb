/**
 * Minimal PNG encoder (8-bit grey, RGB or RGBA, filter "Up" per row, zlib) for heatmaps, thumbnails
 * and images pdf.js decoded. Not photon, so that rendering does not grow the wasm heap (which never
 * shrinks inside an isolate). The filter and deflate run in the SIMD kernels (wasm/assembly/deflate.ts:
 * greedy matching as zlib's fastest level, ≈ 3× fflate's level 1 on a heatmap, files of about the same size);
 * heatmaps are rendered straight into the kernels' scratch area (`encodePngRows`, heatmap.ts);
 * fflate's level 1 is the reference, and what encodes pictures too large for the kernels' scratch memory.
 */
import { Zlib, zlibSync } from "fflate";
import { crc32 } from "../../lib/crc32";
import { align16, kernels, scratch } from "./wasm-kernels";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;
const IDAT_TYPE = new Uint8Array([0x49, 0x44, 0x41, 0x54]);
/** CRC of the chunk type "IDAT", where the chunk's CRC over its data starts. */
const IDAT_TYPE_CRC = crc32(IDAT_TYPE);
const IEND = chunk("IEND", new Uint8Array(0));
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
  const copied = options.reference
    ? null
    : encodePngRows(width, height, channels, 0, (target) => {
        for (let y = 0; y < height; y++)
          target.bytes.set(pixels.subarray(y * stride, (y + 1) * stride), target.rows + y * target.lineBytes + 1);
      });
  return copied ?? assemble(width, height, channels, zlibSync(filterUp(pixels, stride, height), { level: 1 }));
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

/** Where `encodePngRows`' caller writes the picture in the kernels' scratch area (addresses into `bytes`). */
export interface PngRowsTarget {
  bytes: Uint8Array;
  buffer: ArrayBuffer;
  /** Row y's first pixel byte is at rows + y × lineBytes + 1 (behind its filter byte). */
  rows: number;
  lineBytes: number;
  /** Start of the `extraBytes` the caller asked for, its own (behind the rows and the zlib stream's room). */
  extra: number;
}

/**
 * PNG bytes (filter Up, deflated in wasm) of rows that `fill` writes straight into the kernels' scratch
 * area, so no copy of the picture is made in JavaScript; null when the filtered rows are over
 * WASM_DEFLATE_MAX_BYTES (the caller then encodes its pixels with encodePng, which uses fflate).
 */
export function encodePngRows(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  extraBytes: number,
  fill: (target: PngRowsTarget) => void,
): Uint8Array | null {
  const stride = width * channels;
  const rawLength = (stride + 1) * height;
  if (rawLength > WASM_DEFLATE_MAX_BYTES) return null;
  const k = kernels();
  const at = align16(rawLength);
  const extra = align16(at + k.deflateBound(rawLength));
  const s = scratch(extra + extraBytes);
  fill({ bytes: s.bytes, buffer: s.buffer, rows: s.base, lineBytes: stride + 1, extra: s.base + extra });
  k.pngFilterUp(s.base, stride, height);
  // RGB (heatmaps): matches from pixel starts only (zlibDeflate); RGBA and grey from every byte, as before (a
  // 258-byte match of RGBA ends inside a pixel, and its literals up to the next cost more than the search saves).
  const length = k.zlibDeflate(s.base, rawLength, s.base + at, stride + 1, channels === 3 ? 3 : 1);
  // The chunk's CRC over the stream where it lies (the kernel's value is the reference's, unsigned).
  const idatCrc = k.crc32(s.base + at, length, IDAT_TYPE_CRC) >>> 0;
  return assemble(width, height, channels, new Uint8Array(s.buffer, s.base + at, length), idatCrc);
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
    out.set(ihdrChunk(this.width, this.height, 4), SIGNATURE.length);
    const idat = SIGNATURE.length + 25;
    const head = new DataView(out.buffer);
    head.setUint32(idat, length);
    out.set(IDAT_TYPE, idat + 4);
    let at = idat + 8;
    for (const part of this.parts.splice(0)) {
      out.set(part, at);
      at += part.length;
    }
    head.setUint32(at, crc32(out.subarray(idat + 4, at)));
    out.set(IEND, at + 4);
    return out;
  }
}

/** A whole RGBA picture through PngRowWriter. */
export function encodeRgbaPngStreamed(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const writer = new PngRowWriter(width, height);
  writer.add(rgba, height);
  return writer.finish();
}

/** The IHDR chunk: size, 8 bits per sample, the colour type of `channels`, no interlacing. */
function ihdrChunk(width: number, height: number, channels: 1 | 3 | 4): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, COLOR_TYPE[channels], 0, 0, 0], 8);
  return chunk("IHDR", ihdr);
}

/** The PNG file: signature, IHDR, one IDAT (`idat` copied once; its CRC computed unless given), IEND. */
function assemble(
  width: number,
  height: number,
  channels: 1 | 3 | 4,
  idat: Uint8Array,
  idatCrc = crc32(idat, IDAT_TYPE_CRC),
): Uint8Array {
  const head = ihdrChunk(width, height, channels);
  const at = SIGNATURE.length + head.length;
  const out = new Uint8Array(at + 12 + idat.length + IEND.length);
  out.set(SIGNATURE);
  out.set(head, SIGNATURE.length);
  const outView = new DataView(out.buffer);
  outView.setUint32(at, idat.length);
  out.set(IDAT_TYPE, at + 4);
  out.set(idat, at + 8);
  outView.setUint32(at + 8 + idat.length, idatCrc);
  out.set(IEND, at + 12 + idat.length);
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

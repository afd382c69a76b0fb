/**
 * Minimal PNG encoder (8-bit grey, RGB or RGBA, filter "Up" per row, zlib via fflate) for heatmaps,
 * thumbnails and images pdf.js decoded. Not photon, so that rendering does not grow the wasm heap
 * (which never shrinks inside an isolate).
 */
import { Zlib, zlibSync } from "fflate";
import { crc32 } from "../../lib/crc32";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;

/** PNG bytes of 8-bit pixels, `channels` per pixel (default RGBA), row-major. */
export function encodePng(
  pixels: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels: 1 | 3 | 4 = 4,
): Uint8Array {
  const stride = width * channels;
  const raw = new Uint8Array((stride + 1) * height);
  // Filter "Up" on every row (the first row's "up" is zeros, the same as no filter): runs of equal
  // rows become zeros, which deflate packs smaller. Level 1: on heatmaps (RGB, Up) half the CPU of level 6 without "Up", and smaller files.
  for (let y = 0, o = 0; y < height; y++) {
    raw[o++] = 2;
    const row = y * stride;
    if (y === 0) raw.set(pixels.subarray(0, stride), o);
    else for (let i = 0; i < stride; i++) raw[o + i] = pixels[row + i] - pixels[row - stride + i];
    o += stride;
  }
  return assemble(width, height, channels, zlibSync(raw, { level: 1 }));
}

/**
 * The same PNG (8-bit RGBA, filter "Up", level 1) deflated row by row: for full-size pictures from a
 * decoder (TIFF pages, HEIC), where encodePng's filtered copy of the whole picture and zlib's output
 * buffer of the same size would double the memory a 24 MB bitmap already takes.
 */
export function encodeRgbaPngStreamed(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const parts: Uint8Array[] = [];
  const zlib = new Zlib({ level: 1 }, (data) => parts.push(data));
  const row = new Uint8Array(stride + 1);
  row[0] = 2;
  for (let y = 0; y < height; y++) {
    const at = y * stride;
    if (y === 0) row.set(rgba.subarray(0, stride), 1);
    else for (let i = 0; i < stride; i++) row[1 + i] = rgba[at + i] - rgba[at - stride + i];
    zlib.push(row, y === height - 1);
  }
  const idat = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts.splice(0)) {
    idat.set(p, at);
    at += p.length;
  }
  return assemble(width, height, 4, idat);
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

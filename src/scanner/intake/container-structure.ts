/**
 * Cheap structural walks of the WebP, HEIF and TIFF containers (the Structure of structure.ts): every
 * chunk, box or IFD must lie inside the file, so a cut-off or damaged file is reported as such by the
 * gatekeeper before any decoder sees it.
 */
import { heifSize } from "../images/isobmff";
import { declaredSize } from "../images/pixel-budget";
import { readTiffPages } from "../images/tiff-pages";
import type { Structure } from "./structure";

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** RIFF/WEBP: the RIFF size covers the file, chunks are inside it, one image chunk is present. */
export function webpStructure(bytes: Uint8Array): Structure {
  if (bytes.length < 20) return { ok: false, reason: "truncated" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = 8 + view.getUint32(4, true);
  if (end > bytes.length) return { ok: false, reason: "truncated" };
  let image = false;
  for (let at = 12; at + 8 <= end; ) {
    const size = view.getUint32(at + 4, true);
    if (at + 8 + size > end) return { ok: false, reason: "truncated" };
    if (["VP8 ", "VP8L", "ANMF"].includes(ascii(bytes, at))) image = true;
    at += 8 + size + (size % 2);
  }
  const size = declaredSize(bytes);
  if (!image || !size) return { ok: false, reason: "malformed" };
  return { ok: true, ...size, trailingBytes: bytes.length - end };
}

/** ISOBMFF (HEIC/HEIF): top-level boxes inside the file, `ftyp` first, a `meta` box with an image size. */
export function heifStructure(bytes: Uint8Array): Structure {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let meta = false;
  for (let at = 0; at < bytes.length; ) {
    if (at + 8 > bytes.length) return { ok: false, reason: "truncated" };
    let size = view.getUint32(at);
    const type = ascii(bytes, at + 4);
    if (at === 0 && type !== "ftyp") return { ok: false, reason: "malformed" };
    if (size === 1) {
      if (at + 16 > bytes.length) return { ok: false, reason: "truncated" };
      size = Number(view.getBigUint64(at + 8));
    } else if (size === 0) size = bytes.length - at;
    if (size < 8) return { ok: false, reason: "malformed" };
    if (at + size > bytes.length) return { ok: false, reason: "truncated" };
    if (type === "meta") meta = true;
    at += size;
  }
  const size = heifSize(bytes);
  if (!meta || !size || size.width === 0 || size.height === 0) return { ok: false, reason: "malformed" };
  return { ok: true, ...size };
}

/** TIFF: a bounded walk of the page chain (tiff-pages.ts); the first page gives the size. */
export function tiffStructure(bytes: Uint8Array): Structure {
  const read = readTiffPages(bytes);
  if (!read.ok) return read;
  return { ok: true, width: read.pages[0].width, height: read.pages[0].height };
}

import { pdfHeaderOffset } from "./sniff";

/** What a cheap structural walk of a file says: decodable as far as we can tell, or why not. */
export type Structure =
  | { ok: true; width?: number; height?: number; trailingBytes?: number }
  | { ok: false; reason: "truncated" | "malformed" };

/** JPEG: markers up to SOS must be well-formed, a SOF must give the size, and an EOI must end the scan. */
export function jpegStructure(bytes: Uint8Array): Structure {
  let at = 2;
  let size: { width: number; height: number } | null = null;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return { ok: false, reason: "malformed" };
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2 || at + 2 + length > bytes.length) return { ok: false, reason: "truncated" };
    if (isStartOfFrame(marker) && length >= 7) {
      size = { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] };
    }
    if (marker === 0xda) return scanEnd(bytes, at + 2 + length, size);
    at += 2 + length;
  }
  return { ok: false, reason: "truncated" };
}

function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function scanEnd(bytes: Uint8Array, from: number, size: { width: number; height: number } | null): Structure {
  if (!size || size.width === 0 || size.height === 0) return { ok: false, reason: "malformed" };
  for (let i = bytes.length - 2; i >= from; i--) {
    if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return { ok: true, ...size, trailingBytes: bytes.length - i - 2 };
  }
  return { ok: false, reason: "truncated" };
}

/** PNG: chunks must chain from IHDR to IEND inside the file. */
export function pngStructure(bytes: Uint8Array): Structure {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let size: { width: number; height: number } | null = null;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (at + 12 + length > bytes.length) return { ok: false, reason: "truncated" };
    if (type === "IHDR" && length >= 8) size = { width: view.getUint32(at + 8), height: view.getUint32(at + 12) };
    if (at === 8 && type !== "IHDR") return { ok: false, reason: "malformed" };
    if (type === "IEND") {
      if (!size || size.width === 0 || size.height === 0) return { ok: false, reason: "malformed" };
      return { ok: true, ...size, trailingBytes: bytes.length - at - 12 };
    }
    at += 12 + length;
  }
  return { ok: false, reason: "truncated" };
}

/** PDF: a header near the start and an end-of-file marker near the end (a cut-off upload has none). */
export function pdfStructure(bytes: Uint8Array): Structure {
  if (pdfHeaderOffset(bytes) < 0) return { ok: false, reason: "malformed" };
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 2048)));
  return tail.includes("%%EOF") || tail.includes("startxref") ? { ok: true } : { ok: false, reason: "truncated" };
}

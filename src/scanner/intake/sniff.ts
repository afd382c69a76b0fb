import type { FileKind } from "../types";

/** MIME type reported for each recognised kind. */
export const mimeTypes: Record<FileKind, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  pdf: "application/pdf",
  webp: "image/webp",
  heic: "image/heic",
  tiff: "image/tiff",
  unknown: "application/octet-stream",
};

const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The file's kind from its first bytes; the name and extension are never consulted. */
export function sniffKind(bytes: Uint8Array): FileKind {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp";
  if (ascii(bytes, 4, 4) === "ftyp" && HEIF_BRANDS.has(ascii(bytes, 8, 4))) return "heic";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  // PDF readers accept up to 1 KB of junk before the header (ISO 32000-1, 7.5.2 note).
  if (pdfHeaderOffset(bytes) >= 0) return "pdf";
  return "unknown";
}

/** True for a ZIP local file header or an empty archive's end record. */
export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]);
}

export function pdfHeaderOffset(bytes: Uint8Array): number {
  const end = Math.min(bytes.length - 5, 1024);
  for (let i = 0; i <= end; i++) {
    if (bytes[i] === 0x25 && ascii(bytes, i, 5) === "%PDF-") return i;
  }
  return -1;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  if (bytes.length < offset + length) return "";
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

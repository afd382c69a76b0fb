/**
 * Fixtures for the ML tests: the parity PNGs written by models/training/record_reference.py
 * (test/ml/fixtures/, made from opencv-doc sample photos, see fixtures/SOURCES.md) and real files
 * from ../shared/data, imported by Vite as base64 data URLs (workerd cannot read the disk).
 */
import type { ScanContext, ScanFile } from "../../src/scanner/types";

const pngs = import.meta.glob("./fixtures/*.png", { query: "?inline", import: "default", eager: true }) as Record<
  string,
  string
>;
const shared = import.meta.glob(
  [
    "../../../shared/data/photos/opencv-doc/{leuvenA,board,ela_original}.jpg",
    "../../../shared/data/exif-samples/jpg/{corrupted,Canon_40D}.jpg",
    "../../../shared/data/exif-samples/jpg/tests/42_IndexError.jpg",
  ],
  { query: "?inline", import: "default", eager: true },
) as Record<string, string>;

function dataUrlBytes(url: string): Uint8Array {
  const bin = atob(url.slice(url.indexOf(",") + 1));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function fixturePng(name: string): Uint8Array {
  const url = pngs[`./fixtures/${name}`];
  if (!url) throw new Error(`no fixture ${name}`);
  return dataUrlBytes(url);
}

/** e.g. `photos/opencv-doc/leuvenA.jpg` */
export function sharedFile(path: string): Uint8Array {
  const url = shared[`../../../shared/data/${path}`];
  if (!url) throw new Error(`no shared file ${path}`);
  return dataUrlBytes(url);
}

export function scanFile(name: string, bytes: Uint8Array, kind: ScanFile["kind"]): ScanFile {
  const mimeType = kind === "png" ? "image/png" : kind === "jpeg" ? "image/jpeg" : "application/octet-stream";
  return { name, bytes, kind, mimeType, sha256: "0".repeat(64), size: bytes.length };
}

export const context: ScanContext = {
  language: "en",
  issueDate: null,
  now: new Date("2026-11-22T00:00:00Z"),
  caseNumber: "ML-TEST-1",
};

/// <reference types="vite/client" />
import type { ScanContext, ScanFile } from "../../../src/scanner/types";

/**
 * Fixture bytes inside workerd: Vite's `?inline` asset query turns each PDF of
 * ../shared/data/pdf into a base64 data URL at transform time, so the test isolate needs no file
 * system. `import.meta.glob` keeps them lazy: a test loads only the files it names.
 */
const shared = import.meta.glob("../../../../shared/data/pdf/**/*.pdf", {
  query: "?inline",
  import: "default",
}) as Record<string, () => Promise<string>>;

/** Bytes of `../shared/data/pdf/<path>`. */
export async function sharedPdf(path: string): Promise<Uint8Array> {
  const load = shared[`../../../../shared/data/pdf/${path}`];
  if (!load) throw new Error(`no shared fixture ${path}`);
  return dataUrlBytes(await load());
}

/** Paths (relative to ../shared/data/pdf) of every shared fixture PDF. */
export const sharedPdfPaths = Object.keys(shared).map((k) => k.replace("../../../../shared/data/pdf/", ""));

/** Bytes of a `data:` URL as Vite's `?inline` produces it. */
export function dataUrlBytes(url: string): Uint8Array {
  const b64 = url.slice(url.indexOf(",") + 1);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A ScanFile for analyzer tests. */
export async function pdfFile(name: string, bytes: Uint8Array): Promise<ScanFile> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const sha256 = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { name, bytes, kind: "pdf", mimeType: "application/pdf", sha256, size: bytes.length };
}

export const ctx: ScanContext = {
  language: "en",
  issueDate: null,
  now: new Date("2026-11-22T00:00:00Z"),
  caseNumber: "PDF-TEST",
};

import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument } from "pdf-lib";
import { isWhite } from "./bytes";
import { pdfLimits } from "./limits";
import type { Revision } from "./revisions";

/** One signature value (/Sig or /DocTimeStamp dictionary with a /ByteRange). */
export interface SignatureInfo {
  ref: string;
  kind: "signature" | "timestamp";
  byteRange: number[];
  signer: string | null;
  signedAt: string | null;
  subFilter: string | null;
  /** Revision (1-based) whose end the byte range covers, or null when it ends elsewhere. */
  revision: number | null;
  problems: ByteRangeProblem[];
}

export type ByteRangeProblem =
  | { kind: "malformed"; detail: string }
  | { kind: "not-from-start"; start: number }
  | { kind: "gap-not-signature"; from: number; to: number }
  | { kind: "beyond-file"; coveredTo: number; size: number }
  | { kind: "not-revision-end"; coveredTo: number }
  | { kind: "empty-signature" };

/** Every signature dictionary of the (latest) document with its byte-range checks. */
export function findSignatures(doc: PDFDocument, bytes: Uint8Array, revisions: Revision[]): SignatureInfo[] {
  const out: SignatureInfo[] = [];
  let scanned = 0;
  for (const [ref, obj] of doc.context.enumerateIndirectObjects()) {
    if (++scanned > pdfLimits.maxObjectsScanned) break;
    if (!(obj instanceof PDFDict) || !obj.has(PDFName.of("ByteRange"))) continue;
    const type = obj.get(PDFName.of("Type"));
    const range = obj.get(PDFName.of("ByteRange"));
    const numbers =
      range instanceof PDFArray ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN)) : [];
    const sub = obj.get(PDFName.of("SubFilter"));
    const info: SignatureInfo = {
      ref: ref.toString(),
      kind: type instanceof PDFName && type.decodeText() === "DocTimeStamp" ? "timestamp" : "signature",
      byteRange: numbers,
      signer: text(obj.get(PDFName.of("Name"))),
      signedAt: text(obj.get(PDFName.of("M"))),
      subFilter: sub instanceof PDFName ? sub.decodeText() : null,
      revision: null,
      problems: [],
    };
    checkByteRange(info, obj, bytes, revisions);
    out.push(info);
    if (out.length >= pdfLimits.maxSignatures) break;
  }
  return out.sort(
    (a, b) => (a.byteRange[2] ?? 0) + (a.byteRange[3] ?? 0) - ((b.byteRange[2] ?? 0) + (b.byteRange[3] ?? 0)),
  );
}

function checkByteRange(info: SignatureInfo, dict: PDFDict, bytes: Uint8Array, revisions: Revision[]): void {
  const [a, b, c, d] = info.byteRange;
  if (info.byteRange.length !== 4 || ![a, b, c, d].every((n) => Number.isInteger(n) && n >= 0) || b > c) {
    info.problems.push({ kind: "malformed", detail: `ByteRange [${info.byteRange.join(" ")}]` });
    return;
  }
  if (a !== 0) info.problems.push({ kind: "not-from-start", start: a });
  const coveredTo = c + d;
  if (coveredTo > bytes.length) {
    info.problems.push({ kind: "beyond-file", coveredTo, size: bytes.length });
    return;
  }
  if (!gapIsOneHexString(bytes, a + b, c)) info.problems.push({ kind: "gap-not-signature", from: a + b, to: c });
  const contents = dict.get(PDFName.of("Contents"));
  if (contents instanceof PDFHexString && /^0*$/.test(contents.asString()))
    info.problems.push({ kind: "empty-signature" });
  const revision = revisions.find(
    (r) => Math.abs(endIgnoringWhitespace(bytes, r.end) - endIgnoringWhitespace(bytes, coveredTo)) === 0,
  );
  info.revision = revision?.index ?? null;
  if (!revision) info.problems.push({ kind: "not-revision-end", coveredTo });
}

/** The uncovered gap must be exactly `<hex…>`: anything else there is unsigned content. */
function gapIsOneHexString(bytes: Uint8Array, from: number, to: number): boolean {
  if (bytes[from] !== 0x3c || bytes[to - 1] !== 0x3e) return false;
  for (let i = from + 1; i < to - 1; i++) {
    const x = bytes[i];
    const hex = (x >= 0x30 && x <= 0x39) || (x >= 0x41 && x <= 0x46) || (x >= 0x61 && x <= 0x66);
    if (!hex && !isWhite(x)) return false;
  }
  return true;
}

/** Position before trailing whitespace, so `%%EOF\n` and `%%EOF` count as the same end. */
function endIgnoringWhitespace(bytes: Uint8Array, end: number): number {
  let e = end;
  while (e > 0 && isWhite(bytes[e - 1])) e--;
  return e;
}

function text(v: unknown): string | null {
  return v instanceof PDFString || v instanceof PDFHexString ? v.decodeText() : null;
}

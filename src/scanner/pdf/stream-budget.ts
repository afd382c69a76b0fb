/**
 * The unpack budget of a PDF, checked BEFORE pdf.js or pdf-lib opens it. Both decode whole streams
 * into one growing buffer with no limit of their own: a 1 MB content, metadata, font, form or
 * object stream can unpack to 200 MB (a 904-byte ZIP took a worker from 150 MB to 1.4 GB), and
 * pdf.js inflates an image stream to its end even when the image it declares is 100 × 100.
 *
 * So every Flate stream of the file is inflated once here, counting only (nothing is kept), and
 * stopped at its budget: `maxStreamBytes` for a non-image stream, the declared image size (+10 %) for
 * an image, `maxInflatedBytes` for the whole file. Images larger than `maxImagePixels` are skipped:
 * pdf.js does not decode them at all. The scan reads the raw bytes (`N G obj << … >> stream`), so it
 * also covers objects a broken xref hides and streams nothing references.
 */
import { inflateWithin } from "../images/bounded-inflate";
import { pdfLimits } from "./limits";
import { hasPdfHeader } from "./parsed";

export type StreamVerdict =
  | { ok: true; inflated: number; streams: number }
  | { ok: false; kind: "stream" | "image" | "total" | "xref"; inflated: number; limit: number; offset: number };

/** Thrown (as a rejection) by openPdfJs/openPdfLib for a file over its unpack budget. */
export class PdfBudgetError extends Error {
  override name = "PdfBudgetError";
  constructor(readonly verdict: Extract<StreamVerdict, { ok: false }>) {
    super(
      `a ${verdict.kind === "total" ? "set of streams" : `${verdict.kind} stream`} unpacks beyond its budget of ${verdict.limit} bytes (at byte ${verdict.offset})`,
    );
  }
}

const verdicts = new WeakMap<Uint8Array, StreamVerdict>();
/** Buffers whose whole-file verdict (from offset 0) was ok: every earlier revision (a prefix) is ok too. */
const cleanBuffers = new WeakMap<ArrayBufferLike, number>();

/** The verdict for these bytes, computed once per bytes object. */
export function streamBudget(bytes: Uint8Array): StreamVerdict {
  let verdict = verdicts.get(bytes);
  if (verdict) return verdict;
  const clean = bytes.byteOffset === 0 ? cleanBuffers.get(bytes.buffer) : undefined;
  verdict = clean !== undefined && clean >= bytes.length ? { ok: true, inflated: 0, streams: 0 } : scan(bytes);
  if (verdict.ok && bytes.byteOffset === 0)
    cleanBuffers.set(bytes.buffer, Math.max(bytes.length, cleanBuffers.get(bytes.buffer) ?? 0));
  verdicts.set(bytes, verdict);
  return verdict;
}

/** Throws PdfBudgetError when the bytes are over their unpack budget. */
export function assertStreamBudget(bytes: Uint8Array): void {
  const verdict = streamBudget(bytes);
  if (!verdict.ok) throw new PdfBudgetError(verdict);
}

const STREAM = ascii("stream");
const END_STREAM = ascii("endstream");
const OBJ = ascii("obj");
/** How far back from `stream` the object's dictionary is looked for. */
const MAX_DICT_BYTES = 64 * 1024;
const latin1 = new TextDecoder("latin1");

function scan(bytes: Uint8Array): StreamVerdict {
  let total = 0;
  let streams = 0;
  let at = 0;
  for (;;) {
    const keyword = indexOf(bytes, STREAM, at);
    if (keyword < 0) return { ok: true, inflated: total, streams };
    at = keyword + STREAM.length;
    if (keyword >= 3 && bytes[keyword - 3] === 0x65 && bytes[keyword - 2] === 0x6e && bytes[keyword - 1] === 0x64)
      continue; // "endstream"
    let start = at;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    if (start === at) continue; // not followed by an end of line: not a stream keyword
    const dict = dictionaryBefore(bytes, keyword);
    const end = streamEnd(bytes, start, dict);
    at = Math.max(at, end);
    const xref = /\/Type\s*\/XRef\b/.test(dict) ? xrefEntriesClaimed(dict) : null;
    if (!isFlate(dict)) {
      if (xref && xref.claimed > xrefEntriesAllowed(xref.row, end - start))
        return {
          ok: false,
          kind: "xref",
          inflated: xref.claimed,
          limit: xrefEntriesAllowed(xref.row, end - start),
          offset: keyword,
        };
      continue;
    }
    const image = imageNeed(dict);
    if (image === "skip") continue;
    streams++;
    const limit = image ?? pdfLimits.maxStreamBytes;
    const budget = Math.min(limit, pdfLimits.maxInflatedBytes - total);
    const inflated = inflateWithin(bytes.subarray(start, end), budget, false);
    if (inflated.over) {
      const kind = budget < limit ? "total" : image !== null ? "image" : "stream";
      return {
        ok: false,
        kind,
        inflated: kind === "total" ? total + inflated.size : inflated.size,
        limit: kind === "total" ? pdfLimits.maxInflatedBytes : limit,
        offset: keyword,
      };
    }
    // Flate data may end without a final block (pdf-lib and pdf.js read it, our counting inflater may not):
    // for compressed xref streams only the absolute cap.
    if (xref && xref.claimed > pdfLimits.maxObjectsScanned)
      return { ok: false, kind: "xref", inflated: xref.claimed, limit: pdfLimits.maxObjectsScanned, offset: keyword };
    total += inflated.size;
  }
}

/**
 * pdf-lib reads an xref stream by looping over the entries its /Index (or /Size) declares, whatever
 * its data holds: `/W [0 0 0] /Index [1 999999999999]` hangs it. An xref stream may declare no more
 * than maxObjectsScanned entries, and an uncompressed one no more than its data has rows.
 */
function xrefEntriesClaimed(dict: string): { claimed: number; row: number } {
  const numbers = (key: string) =>
    (new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dict)?.[1] ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
  const index = numbers("Index");
  const size = Number(/\/Size\s+(\d+)/.exec(dict)?.[1] ?? 0);
  let claimed = 0;
  if (index.length >= 2) for (let i = 1; i < index.length; i += 2) claimed += Number.isFinite(index[i]) ? index[i] : 0;
  else claimed = size;
  const row = numbers("W").reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return { claimed, row };
}

function xrefEntriesAllowed(row: number, dataBytes: number): number {
  const rows = row > 0 ? Math.floor(dataBytes / row) : 0;
  return Math.min(pdfLimits.maxObjectsScanned, Math.max(rows, 1));
}

/** The text between the object header (`N G obj`) and `stream`, at most MAX_DICT_BYTES. */
function dictionaryBefore(bytes: Uint8Array, keyword: number): string {
  const from = Math.max(0, keyword - MAX_DICT_BYTES);
  const obj = lastIndexOf(bytes, OBJ, keyword, from);
  return latin1.decode(bytes.subarray(obj < 0 ? from : obj + OBJ.length, keyword));
}

/** End of the stream data: a direct /Length when `endstream` follows it, else the next `endstream`. */
function streamEnd(bytes: Uint8Array, start: number, dict: string): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  if (length) {
    const end = start + Number(length[1]);
    if (end <= bytes.length && indexOf(bytes.subarray(end, Math.min(bytes.length, end + 32)), END_STREAM, 0) >= 0)
      return end;
  }
  const next = indexOf(bytes, END_STREAM, start);
  return next < 0 ? bytes.length : next;
}

function isFlate(dict: string): boolean {
  const filter = /\/Filter\s*(?:\[\s*)?\/(\w+)/.exec(dict);
  return !!filter && (filter[1] === "FlateDecode" || filter[1] === "Fl");
}

/**
 * For an image: the bytes its declared size needs (+10 % and 64 KB for predictors and padding), or
 * "skip" when pdf.js would not decode it (over maxImagePixels). null for anything else.
 */
function imageNeed(dict: string): number | "skip" | null {
  if (!/\/Subtype\s*\/Image\b/.test(dict)) return null;
  const num = (key: string) => Number(new RegExp(`/${key}\\s+(\\d+)(?!\\s+\\d+\\s+R)`).exec(dict)?.[1] ?? NaN);
  const width = num("Width");
  const height = num("Height");
  if (!(width > 0 && height > 0)) return null;
  if (width * height > pdfLimits.maxImagePixels) return "skip";
  const bits = num("BitsPerComponent") || 8;
  const components = /\/DeviceGray|\/CalGray|\/ImageMask\s+true/.test(dict)
    ? 1
    : /\/DeviceRGB|\/CalRGB/.test(dict)
      ? 3
      : 4;
  const need = Math.ceil((width * components * bits) / 8) * height + height;
  return Math.ceil(need * 1.1) + 64 * 1024;
}

function ascii(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function indexOf(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  for (
    let i = bytes.indexOf(needle[0], from);
    i >= 0 && i + needle.length <= bytes.length;
    i = bytes.indexOf(needle[0], i + 1)
  ) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

function lastIndexOf(bytes: Uint8Array, needle: Uint8Array, before: number, from: number): number {
  for (
    let i = bytes.lastIndexOf(needle[0], before - needle.length);
    i >= from;
    i = bytes.lastIndexOf(needle[0], i - 1)
  ) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
    if (i === 0) break;
  }
  return -1;
}

/**
 * One parse per bytes object (the PDF detectors of a file share it), and none for a file over its
 * unpack budget: the promise then rejects with PdfBudgetError, which the detectors report as `-`.
 */
export function openWithinBudget<T>(
  parsed: WeakMap<Uint8Array, Promise<T>>,
  bytes: Uint8Array,
  open: () => Promise<T>,
): Promise<T> {
  let doc = parsed.get(bytes);
  if (!doc) {
    try {
      assertStreamBudget(bytes);
    } catch (error) {
      return Promise.reject(error);
    }
    doc = open();
    parsed.set(bytes, doc);
  }
  return doc;
}

/** Whether the PDF detectors after the gate can read the file at all: size cap, header, unpack budget. */
export function pdfReadable(bytes: Uint8Array): boolean {
  return bytes.length <= pdfLimits.maxFileBytes && hasPdfHeader(bytes) && streamBudget(bytes).ok;
}

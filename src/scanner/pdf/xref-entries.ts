import { inflateWithin } from "../images/bounded-inflate";
import { indexOfBytes, latin1Slice, skipEol } from "./bytes";
import { pdfLimits } from "./limits";
import { asNumber, dictGet, parseObjectAt, type PdfValue } from "./objects";
import { readXrefSection, type XrefSection } from "./revisions";

/** Where a cross-reference entry puts an object: freed, at a byte offset, or inside an object stream. */
export type XrefEntry =
  | { type: "free" }
  | { type: "offset"; offset: number; gen: number }
  | { type: "compressed"; stream: number; index: number };

/** Entries an xref section may list before we stop reading it (bounded memory for hostile files). */
const MAX_ENTRIES = 200_000;

/**
 * The entries of one xref section (classic table or xref stream, plus the /XRefStm of a hybrid
 * file), read by our own parser: pdf-lib ignores xref tables and parses objects in byte order, so
 * what an update's xref says (objects freed, or pointed at another body in the signed bytes) is
 * invisible to it.
 */
export function xrefEntries(bytes: Uint8Array, section: XrefSection): Map<number, XrefEntry> {
  let byOffset = memo.get(bytes);
  if (!byOffset) memo.set(bytes, (byOffset = { sections: new Map(), entries: 0 }));
  const known = byOffset.sections.get(section.offset);
  if (known) return known;
  const entries = readEntries(bytes, section);
  byOffset.entries += entries.size;
  // Bounded memory over all revisions of one file: beyond this the caller reports "not checked".
  if (byOffset.entries > MAX_FILE_ENTRIES) throw new RangeError(`more than ${MAX_FILE_ENTRIES} xref entries`);
  byOffset.sections.set(section.offset, entries);
  return entries;
}

/** Parsed sections per file (each revision comparison reads the whole chain before it). */
const memo = new WeakMap<Uint8Array, { sections: Map<number, Map<number, XrefEntry>>; entries: number }>();
/** Xref entries kept per file (≈ 60 bytes each). */
const MAX_FILE_ENTRIES = 400_000;

function readEntries(bytes: Uint8Array, section: XrefSection): Map<number, XrefEntry> {
  const entries = new Map<number, XrefEntry>();
  if (section.kind === "table") {
    const hybrid = asNumber(dictGet(section.trailer, "XRefStm"));
    if (hybrid !== null) {
      const stream = readXrefSection(bytes, hybrid);
      if (stream?.kind === "stream") for (const [n, e] of streamEntries(bytes, hybrid, stream)) entries.set(n, e);
    }
    for (const [n, e] of tableEntries(bytes, section.offset)) entries.set(n, e);
  } else for (const [n, e] of streamEntries(bytes, section.offset, section)) entries.set(n, e);
  return entries;
}

function tableEntries(bytes: Uint8Array, offset: number): Map<number, XrefEntry> {
  const out = new Map<number, XrefEntry>();
  const end = indexOfBytes(bytes, "trailer", offset, Math.min(bytes.length, offset + pdfLimits.maxXrefSectionBytes));
  if (end < 0) return out;
  const lines = latin1Slice(bytes, offset, end).split(/\r\n|\r|\n/);
  let next = 0;
  for (const raw of lines) {
    const line = raw.trim();
    const sub = /^(\d+)\s+(\d+)$/.exec(line);
    if (sub) {
      next = Number(sub[1]);
      continue;
    }
    const entry = /^(\d{1,10})\s+(\d{1,5})\s+([nf])$/.exec(line);
    if (!entry) continue;
    if (entry[3] === "f") out.set(next, { type: "free" });
    else out.set(next, { type: "offset", offset: Number(entry[1]), gen: Number(entry[2]) });
    next++;
    if (out.size >= MAX_ENTRIES) break;
  }
  return out;
}

function streamEntries(bytes: Uint8Array, offset: number, section: XrefSection): Map<number, XrefEntry> {
  const out = new Map<number, XrefEntry>();
  const dict = section.trailer;
  const w = numbers(dictGet(dict, "W"));
  if (w.length !== 3 || w.some((x) => x < 0 || x > 8)) return out;
  const size = asNumber(dictGet(dict, "Size")) ?? 0;
  const index = numbers(dictGet(dict, "Index"));
  const ranges = index.length >= 2 ? index : [0, size];
  const data = streamData(bytes, offset, dict);
  if (!data) return out;
  const row = w[0] + w[1] + w[2];
  if (row === 0) return out;
  let pos = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2)
    for (let i = 0; i < ranges[r + 1] && pos + row <= data.length && out.size < MAX_ENTRIES; i++, pos += row) {
      const field = (at: number, width: number) => {
        let v = 0;
        for (let k = 0; k < width; k++) v = v * 256 + data[pos + at + k];
        return v;
      };
      const type = w[0] === 0 ? 1 : field(0, w[0]);
      const a = field(w[0], w[1]);
      const b = field(w[0] + w[1], w[2]);
      const num = ranges[r] + i;
      if (type === 0) out.set(num, { type: "free" });
      else if (type === 1) out.set(num, { type: "offset", offset: a, gen: b });
      else if (type === 2) out.set(num, { type: "compressed", stream: a, index: b });
    }
  return out;
}

/** The decoded data of the xref stream at `offset` (Flate with an optional PNG predictor), or null. */
function streamData(bytes: Uint8Array, offset: number, dict: PdfValue): Uint8Array | null {
  const head = /^\s*\d+\s+\d+\s+obj/.exec(latin1Slice(bytes, offset, offset + 40));
  if (!head) return null;
  const parsed = parseObjectAt(bytes, offset + head[0].length);
  if (!parsed) return null;
  const kw = indexOfBytes(bytes, "stream", parsed.end, parsed.end + 64);
  if (kw < 0) return null;
  const start = skipEol(bytes, kw + 6);
  const length = asNumber(dictGet(dict, "Length"));
  if (length === null || length < 0 || start + length > bytes.length) return null;
  const raw = bytes.subarray(start, start + length);
  const filter = dictGet(dict, "Filter");
  const name = Array.isArray(filter) ? filter[0] : filter;
  const flate = isName(name, "FlateDecode");
  if (name !== undefined && !flate) return null;
  const inflated = flate ? inflateWithin(raw, pdfLimits.maxStreamBytes) : null;
  const data = inflated ? (inflated.over || inflated.damaged ? null : inflated.bytes) : raw;
  if (!data) return null;
  const parms = dictGet(dict, "DecodeParms");
  const predictor = asNumber(dictGet(Array.isArray(parms) ? parms[0] : parms, "Predictor")) ?? 1;
  const columns = asNumber(dictGet(Array.isArray(parms) ? parms[0] : parms, "Columns")) ?? 1;
  return predictor >= 10 ? unpredictPng(data, columns) : data;
}

/** Undoes the PNG row predictors (None, Sub, Up, Average, Paeth) xref streams are written with. */
function unpredictPng(data: Uint8Array, columns: number): Uint8Array {
  const rowIn = columns + 1;
  const rows = Math.floor(data.length / rowIn);
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * rowIn];
    for (let c = 0; c < columns; c++) {
      const x = data[r * rowIn + 1 + c];
      const left = c > 0 ? out[r * columns + c - 1] : 0;
      const up = r > 0 ? out[(r - 1) * columns + c] : 0;
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1] : 0;
      let v = x;
      if (filter === 1) v = x + left;
      else if (filter === 2) v = x + up;
      else if (filter === 3) v = x + ((left + up) >> 1);
      else if (filter === 4) v = x + paeth(left, up, upLeft);
      out[r * columns + c] = v & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function numbers(v: PdfValue | undefined): number[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === "number" ? x : Number.NaN)).filter(Number.isFinite) : [];
}

function isName(v: PdfValue | undefined, name: string): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && v.t === "name" && v.v === name;
}

/** Whether `N G obj` starts at `offset` (give or take a few bytes of sloppy writers): the entry points at that object. */
export function objectHeaderAt(bytes: Uint8Array, offset: number, num: number): boolean {
  const near = latin1Slice(bytes, offset - 16, offset + 48);
  return new RegExp(`(?:^|[^0-9])${num}\\s+\\d+\\s+obj\\b`).test(near);
}

import { indexOfBytes, isWhite, latin1Slice, lastIndexOfBytes, skipEol } from "./bytes";
import { asName, asNumber, dictGet, isDict, parseObjectAt, type PdfDictValue } from "./objects";
import { pdfLimits } from "./limits";

/** One cross-reference section (classic table or xref stream) and the bytes it ends at. */
export interface XrefSection {
  offset: number;
  kind: "table" | "stream";
  trailer: PdfDictValue;
  prev: number | null;
  /** Index just past this section's `%%EOF` (and its end-of-line). */
  end: number;
}

/** One revision: the file as it was saved at one point (original or one incremental update). */
export interface Revision {
  /** 1 = the original, n = the latest. */
  index: number;
  /** Revision k is bytes [0, end) of the file. */
  end: number;
  sections: XrefSection[];
}

export interface RevisionSplit {
  revisions: Revision[];
  /** `xref-chain`: followed startxref and /Prev; `eof-scan`: the chain was broken, markers counted. */
  method: "xref-chain" | "eof-scan" | "none";
  linearized: boolean;
  /** Bytes after the last revision's `%%EOF` that no revision covers (besides whitespace). */
  trailingBytes: number;
  problems: string[];
}

/**
 * Splits a PDF into its revisions by walking the xref chain from the last `startxref` through
 * every `/Prev`. A `/Prev` that points *forward* is the first-page section of a linearized file
 * pointing to its main table: both belong to the same revision, so linearized files are not
 * double-counted. Hybrid files (`/XRefStm`) keep their one revision per trailer. When the chain
 * is broken we fall back to counting `startxref … %%EOF` markers and say so in `problems`.
 */
export function splitRevisions(bytes: Uint8Array): RevisionSplit {
  const problems: string[] = [];
  const linearized = isLinearized(bytes);
  const startxref = findLastStartxref(bytes, bytes.length);
  if (startxref === null) {
    problems.push("no startxref found at the end of the file");
    return eofScan(bytes, linearized, problems);
  }
  const sections: XrefSection[] = [];
  const seen = new Set<number>();
  for (let offset: number | null = startxref; offset !== null; ) {
    if (seen.has(offset)) {
      problems.push(`xref /Prev loop at offset ${offset}`);
      break;
    }
    if (sections.length >= pdfLimits.maxXrefSections) {
      problems.push(`more than ${pdfLimits.maxXrefSections} xref sections`);
      break;
    }
    seen.add(offset);
    const section = readXrefSection(bytes, offset);
    if (!section) {
      problems.push(`no xref section at offset ${offset}`);
      if (sections.length === 0) return eofScan(bytes, linearized, problems);
      break;
    }
    sections.push(section);
    offset = section.prev;
  }
  let revisions = groupIntoRevisions(sections);
  // A broken chain (loop, dangling /Prev) hides older saves: add the end markers before it.
  if (problems.length > 0) revisions = withScannedEnds(revisions, eofScan(bytes, linearized, []).revisions);
  const last = revisions[revisions.length - 1];
  return { revisions, method: "xref-chain", linearized, trailingBytes: countTrailing(bytes, last.end), problems };
}

/** Newest-first chain → revisions ordered oldest first; forward /Prev stays in one revision. */
function groupIntoRevisions(chain: XrefSection[]): Revision[] {
  const groups: XrefSection[][] = [];
  for (let i = 0; i < chain.length; i++) {
    const pointsForward = i > 0 && chain[i].offset > chain[i - 1].offset;
    if (i === 0 || !pointsForward) groups.push([chain[i]]);
    else groups[groups.length - 1].push(chain[i]);
  }
  const revisions = groups.map((sections) => ({ index: 0, end: Math.max(...sections.map((s) => s.end)), sections }));
  revisions.sort((a, b) => a.end - b.end);
  // Two chain groups ending at the same %%EOF are one revision (e.g. a /Prev into the same update).
  const merged: Revision[] = [];
  for (const r of revisions) {
    const prev = merged[merged.length - 1];
    if (prev && prev.end === r.end) prev.sections.push(...r.sections);
    else merged.push(r);
  }
  merged.forEach((r, i) => (r.index = i + 1));
  return merged;
}

function withScannedEnds(chain: Revision[], scanned: Revision[]): Revision[] {
  const firstChainEnd = chain[0].end;
  const older = scanned.filter((r) => r.end < firstChainEnd && !chain.some((c) => c.end === r.end));
  return [...older, ...chain].map((r, i) => ({ ...r, index: i + 1 }));
}

/** The number after the last `startxref` before `before`, or null. */
function findLastStartxref(bytes: Uint8Array, before: number): number | null {
  const at = lastIndexOfBytes(bytes, "startxref", before, Math.max(0, before - 64 * 1024));
  if (at < 0) return null;
  const m = /^startxref\s+(\d+)/.exec(latin1Slice(bytes, at, at + 40));
  return m ? Number(m[1]) : null;
}

/** Reads the xref table or xref stream at `offset` with its trailer and the `%%EOF` after it. */
export function readXrefSection(bytes: Uint8Array, offset: number): XrefSection | null {
  if (offset <= 0 || offset >= bytes.length) return null;
  let pos = offset;
  while (pos < bytes.length && isWhite(bytes[pos])) pos++;
  const head = latin1Slice(bytes, pos, pos + 32);
  const limit = Math.min(bytes.length, pos + pdfLimits.maxXrefSectionBytes);
  if (head.startsWith("xref")) {
    const trailerAt = indexOfBytes(bytes, "trailer", pos, limit);
    if (trailerAt < 0) return null;
    const parsed = parseObjectAt(bytes, trailerAt + 7);
    if (!parsed || !isDict(parsed.value)) return null;
    const end = findEofAfter(bytes, parsed.end, limit);
    if (end === null) return null;
    return { offset, kind: "table", trailer: parsed.value, prev: prevOf(parsed.value), end };
  }
  const objHead = /^(\d+)\s+(\d+)\s+obj/.exec(head);
  if (!objHead) return null;
  const parsed = parseObjectAt(bytes, pos + objHead[0].length);
  if (!parsed || !isDict(parsed.value) || asName(dictGet(parsed.value, "Type")) !== "XRef") return null;
  const streamEnd = skipStream(bytes, parsed.end, asNumber(dictGet(parsed.value, "Length")), limit);
  if (streamEnd === null) return null;
  const end = findEofAfter(bytes, streamEnd, limit);
  if (end === null) return null;
  return { offset, kind: "stream", trailer: parsed.value, prev: prevOf(parsed.value), end };
}

function prevOf(trailer: PdfDictValue): number | null {
  const prev = asNumber(dictGet(trailer, "Prev"));
  return prev !== null && Number.isInteger(prev) && prev >= 0 ? prev : null;
}

/** Position after `endstream` of a stream whose dictionary ends at `dictEnd`. */
function skipStream(bytes: Uint8Array, dictEnd: number, length: number | null, limit: number): number | null {
  const streamKw = indexOfBytes(bytes, "stream", dictEnd, Math.min(limit, dictEnd + 64));
  if (streamKw < 0) return null;
  const dataStart = skipEol(bytes, streamKw + 6);
  if (length !== null && length >= 0 && dataStart + length <= bytes.length) {
    const after = indexOfBytes(bytes, "endstream", dataStart + length, Math.min(bytes.length, dataStart + length + 64));
    if (after >= 0) return after + 9;
  }
  const endstream = indexOfBytes(bytes, "endstream", dataStart, limit);
  return endstream < 0 ? null : endstream + 9;
}

/** Index past the first `startxref N %%EOF` after `from` (the section's own end marker). */
function findEofAfter(bytes: Uint8Array, from: number, limit: number): number | null {
  const sx = indexOfBytes(bytes, "startxref", from, limit);
  if (sx < 0) return null;
  const eof = indexOfBytes(bytes, "%%EOF", sx, Math.min(limit, sx + 64));
  if (eof < 0) return null;
  return skipEol(bytes, eof + 5);
}

/** `/Linearized` in the first object of the file (spec: within the first 1024 bytes). */
export function isLinearized(bytes: Uint8Array): boolean {
  return indexOfBytes(bytes, "/Linearized", 0, Math.min(bytes.length, 2048)) >= 0;
}

function countTrailing(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = end; i < bytes.length; i++) if (!isWhite(bytes[i])) n++;
  return n;
}

/** Fallback when the xref chain cannot be followed: one revision per `startxref N %%EOF`. */
function eofScan(bytes: Uint8Array, linearized: boolean, problems: string[]): RevisionSplit {
  const ends: number[] = [];
  const text = (at: number) => latin1Slice(bytes, at, at + 48);
  for (
    let at = indexOfBytes(bytes, "startxref");
    at >= 0 && ends.length < pdfLimits.maxXrefSections;
    at = indexOfBytes(bytes, "startxref", at + 9)
  ) {
    const m = /^startxref\s+(\d+)\s*%%EOF/.exec(text(at));
    if (!m) continue;
    // The first-page trailer of a linearized file carries `startxref 0`: not a revision.
    if (linearized && ends.length === 0 && m[1] === "0") continue;
    ends.push(skipEol(bytes, at + m[0].length));
  }
  if (ends.length === 0) return { revisions: [], method: "none", linearized, trailingBytes: 0, problems };
  const revisions = ends.map((end, i) => ({ index: i + 1, end, sections: [] }));
  return {
    revisions,
    method: "eof-scan",
    linearized,
    trailingBytes: countTrailing(bytes, ends[ends.length - 1]),
    problems,
  };
}

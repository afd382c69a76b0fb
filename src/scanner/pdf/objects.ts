import { isWhite, latin1Slice } from "./bytes";
import { pdfLimits } from "./limits";

/**
 * A small, bounded parser for the few PDF objects we read ourselves (trailers, xref stream
 * dictionaries, object headers). Everything else goes through pdf-lib / pdf.js; this one exists
 * because revision splitting must work on files those libraries repair silently.
 */
export type PdfValue =
  | number
  | boolean
  | null
  | { t: "name"; v: string }
  | { t: "ref"; num: number; gen: number }
  | { t: "str"; v: string }
  | PdfValue[]
  | { t: "dict"; v: Record<string, PdfValue> };

export type PdfDictValue = { t: "dict"; v: Record<string, PdfValue> };

const DELIMS = new Set("()<>[]{}/%".split("").map((c) => c.charCodeAt(0)));

class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
  ) {}
  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      if (isWhite(b[this.pos])) this.pos++;
      else if (b[this.pos] === 0x25 /* % */)
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      else break;
    }
  }
  regular(): string {
    const start = this.pos;
    while (this.pos < this.bytes.length && !isWhite(this.bytes[this.pos]) && !DELIMS.has(this.bytes[this.pos]))
      this.pos++;
    return latin1Slice(this.bytes, start, this.pos);
  }
}

/** Parses one object at `pos`; returns it and the position after it, or null when malformed. */
export function parseObjectAt(bytes: Uint8Array, pos: number): { value: PdfValue; end: number } | null {
  const cur = new Cursor(bytes, pos);
  try {
    const value = parseValue(cur, 0);
    return { value, end: cur.pos };
  } catch {
    return null;
  }
}

function parseValue(cur: Cursor, depth: number): PdfValue {
  if (depth > pdfLimits.maxNesting) throw new Error("nesting too deep");
  cur.skipSpace();
  const b = cur.bytes;
  const c = b[cur.pos];
  if (c === undefined) throw new Error("end of data");
  if (c === 0x2f /* / */) {
    cur.pos++;
    return { t: "name", v: decodeName(cur.regular()) };
  }
  if (c === 0x3c /* < */ && b[cur.pos + 1] === 0x3c) return parseDict(cur, depth);
  if (c === 0x3c) return parseHex(cur);
  if (c === 0x28 /* ( */) return parseLiteral(cur);
  if (c === 0x5b /* [ */) {
    cur.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      cur.skipSpace();
      if (b[cur.pos] === 0x5d) {
        cur.pos++;
        return items;
      }
      if (cur.pos >= b.length) throw new Error("unterminated array");
      items.push(parseValue(cur, depth + 1));
    }
  }
  const word = cur.regular();
  if (word === "") throw new Error(`unexpected byte ${c}`);
  if (word === "true") return true;
  if (word === "false") return false;
  if (word === "null") return null;
  const n = Number(word);
  if (Number.isFinite(n)) return maybeRef(cur, n);
  throw new Error(`unexpected token ${word.slice(0, 20)}`);
}

/** `n g R` directly after a number: look ahead without consuming unless it matches. */
function maybeRef(cur: Cursor, n: number): PdfValue {
  if (!Number.isInteger(n) || n < 0) return n;
  const save = cur.pos;
  cur.skipSpace();
  const gen = cur.regular();
  if (/^\d+$/.test(gen)) {
    cur.skipSpace();
    if (
      cur.bytes[cur.pos] === 0x52 /* R */ &&
      (cur.pos + 1 >= cur.bytes.length || isWhite(cur.bytes[cur.pos + 1]) || DELIMS.has(cur.bytes[cur.pos + 1]))
    ) {
      cur.pos++;
      return { t: "ref", num: n, gen: Number(gen) };
    }
  }
  cur.pos = save;
  return n;
}

function parseDict(cur: Cursor, depth: number): PdfDictValue {
  cur.pos += 2;
  const v: Record<string, PdfValue> = {};
  for (;;) {
    cur.skipSpace();
    const b = cur.bytes;
    if (b[cur.pos] === 0x3e && b[cur.pos + 1] === 0x3e) {
      cur.pos += 2;
      return { t: "dict", v };
    }
    if (cur.pos >= b.length) throw new Error("unterminated dictionary");
    const key = parseValue(cur, depth + 1);
    if (typeof key !== "object" || key === null || Array.isArray(key) || key.t !== "name")
      throw new Error("dictionary key is not a name");
    v[key.v] = parseValue(cur, depth + 1);
  }
}

function parseHex(cur: Cursor): PdfValue {
  const end = cur.bytes.indexOf(0x3e, cur.pos);
  if (end < 0) throw new Error("unterminated hex string");
  const hex = latin1Slice(cur.bytes, cur.pos + 1, end).replace(/[^0-9a-fA-F]/g, "");
  cur.pos = end + 1;
  let s = "";
  for (let i = 0; i < hex.length; i += 2) s += String.fromCharCode(parseInt(hex.slice(i, i + 2).padEnd(2, "0"), 16));
  return { t: "str", v: s };
}

function parseLiteral(cur: Cursor): PdfValue {
  const b = cur.bytes;
  let depth = 0;
  let s = "";
  for (cur.pos++; cur.pos < b.length; cur.pos++) {
    const c = b[cur.pos];
    if (c === 0x5c /* \ */) {
      const next = b[++cur.pos];
      const simple: Record<number, string> = { 110: "\n", 114: "\r", 116: "\t", 98: "\b", 102: "\f" };
      if (simple[next] !== undefined) s += simple[next];
      else if (next >= 0x30 && next <= 0x37) {
        let oct = String.fromCharCode(next);
        while (oct.length < 3 && b[cur.pos + 1] >= 0x30 && b[cur.pos + 1] <= 0x37)
          oct += String.fromCharCode(b[++cur.pos]);
        s += String.fromCharCode(parseInt(oct, 8) & 0xff);
      } else if (next === 0x0d || next === 0x0a) {
        if (next === 0x0d && b[cur.pos + 1] === 0x0a) cur.pos++;
      } else s += String.fromCharCode(next);
      continue;
    }
    if (c === 0x28) depth++;
    if (c === 0x29) {
      if (depth === 0) {
        cur.pos++;
        return { t: "str", v: s };
      }
      depth--;
    }
    s += String.fromCharCode(c);
  }
  throw new Error("unterminated string");
}

function decodeName(raw: string): string {
  return raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Typed accessors for parsed values. */
export function dictGet(dict: PdfValue | undefined, key: string): PdfValue | undefined {
  return isDict(dict) ? dict.v[key] : undefined;
}
export function isDict(v: PdfValue | undefined): v is PdfDictValue {
  return typeof v === "object" && v !== null && !Array.isArray(v) && v.t === "dict";
}
export function asNumber(v: PdfValue | undefined): number | null {
  return typeof v === "number" ? v : null;
}
export function asName(v: PdfValue | undefined): string | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) && v.t === "name" ? v.v : null;
}

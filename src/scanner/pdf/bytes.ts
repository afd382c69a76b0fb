/** Byte helpers over PDF bytes: Latin-1 views and bounded searches (no whole-file strings). */

const latin1 = new TextDecoder("latin1");

/** Latin-1 text of bytes[from, to), clamped to the array. */
export function latin1Slice(bytes: Uint8Array, from: number, to: number): string {
  return latin1.decode(bytes.subarray(Math.max(0, from), Math.min(bytes.length, to)));
}

/** First index of `needle` in bytes[from, to), or -1. */
export function indexOfBytes(bytes: Uint8Array, needle: string, from = 0, to = bytes.length): number {
  const first = needle.charCodeAt(0);
  const end = Math.min(to, bytes.length) - needle.length;
  outer: for (let i = Math.max(0, from); i <= end; i++) {
    if (bytes[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

/** Last index of `needle` starting before `before` and at or after `notBefore`, or -1. */
export function lastIndexOfBytes(bytes: Uint8Array, needle: string, before = bytes.length, notBefore = 0): number {
  for (let i = Math.min(before, bytes.length - needle.length); i >= Math.max(0, notBefore); i--) {
    let match = true;
    for (let j = 0; j < needle.length && match; j++) if (bytes[i + j] !== needle.charCodeAt(j)) match = false;
    if (match) return i;
  }
  return -1;
}

/** Every index of `needle` in bytes (bounded by `max` hits). */
export function allIndexesOf(bytes: Uint8Array, needle: string, max = 10_000): number[] {
  const hits: number[] = [];
  for (let i = indexOfBytes(bytes, needle); i >= 0 && hits.length < max; i = indexOfBytes(bytes, needle, i + 1))
    hits.push(i);
  return hits;
}

export function isWhite(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}

/** Index just past an end-of-line at `at` (CRLF, CR or LF), or `at` when there is none. */
export function skipEol(bytes: Uint8Array, at: number): number {
  if (bytes[at] === 0x0d) return bytes[at + 1] === 0x0a ? at + 2 : at + 1;
  if (bytes[at] === 0x0a) return at + 1;
  return at;
}

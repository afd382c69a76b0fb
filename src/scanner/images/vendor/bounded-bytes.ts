/** Integer and text reads from untrusted vendor blocks: null past the end instead of a RangeError. */

export function u16(bytes: Uint8Array, at: number, littleEndian: boolean): number | null {
  if (at < 0 || at + 2 > bytes.length) return null;
  return littleEndian ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1];
}

export function u32(bytes: Uint8Array, at: number, littleEndian: boolean): number | null {
  if (at < 0 || at + 4 > bytes.length) return null;
  const [a, b, c, d] = littleEndian
    ? [bytes[at + 3], bytes[at + 2], bytes[at + 1], bytes[at]]
    : [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Bytes as Latin-1 text (one character per byte), so byte-oriented patterns see every byte. */
export function latin1(bytes: Uint8Array): string {
  let text = "";
  // Chunked: String.fromCharCode(...bytes) overflows the call stack on a 64 KB segment.
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

/** A fixed-size string field cut at its first NUL, as exiftool reads `string` values; null when empty. */
export function cString(bytes: Uint8Array): string | null {
  const text = latin1(bytes).split("\0")[0];
  return text ? text : null;
}

export function startsWithAscii(bytes: Uint8Array, prefix: string): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix.charCodeAt(i)) return false;
  return true;
}

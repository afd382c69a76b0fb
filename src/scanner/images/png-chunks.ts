/** PNG chunk walk: IHDR size and the text chunks (tEXt, zTXt, iTXt), plus raw chunk list. */
import { inflateWithin } from "./bounded-inflate";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** One chunk: type and payload view. */
export interface PngChunk {
  type: string;
  data: Uint8Array;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * All chunks in order; stops quietly at a truncated chunk, or with `truncatedTail` returns what is
 * there of it (a cut-off file's last IDAT still holds rows).
 */
export function pngChunks(bytes: Uint8Array, options: { truncatedTail?: boolean } = {}): PngChunk[] {
  const chunks: PngChunk[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  while (pos + 12 <= bytes.length) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    if (pos + 12 + length > bytes.length) {
      if (options.truncatedTail) chunks.push({ type, data: bytes.subarray(pos + 8) });
      break;
    }
    chunks.push({ type, data: bytes.subarray(pos + 8, pos + 8 + length) });
    pos += 12 + length;
    if (type === "IEND") break;
  }
  return chunks;
}

export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const ihdr = pngChunks(bytes).find((c) => c.type === "IHDR");
  if (!ihdr || ihdr.data.length < 8) return null;
  const v = new DataView(ihdr.data.buffer, ihdr.data.byteOffset, 8);
  return { width: v.getUint32(0), height: v.getUint32(4) };
}

const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder("utf-8");

/**
 * Most bytes one compressed text chunk (zTXt, iTXt) is unpacked to. Real ones (XMP, AI prompts,
 * parameters) are a few KB; a 1 MB chunk can unpack to 1 GB. Beyond this only the start is read.
 */
export const MAX_PNG_TEXT_BYTES = 1024 * 1024;

function inflateText(data: Uint8Array, decoder: TextDecoder, onOver: () => void): string {
  const inflated = inflateWithin(data, MAX_PNG_TEXT_BYTES);
  if (inflated.over) onOver();
  return inflated.damaged && !inflated.over ? "" : decoder.decode(inflated.bytes);
}

/** Text chunks as keyword → text (later duplicates are joined with a newline). */
export function pngText(bytes: Uint8Array): Record<string, string> {
  return pngTextChunks(bytes).text;
}

/** Text chunks, plus the keywords whose compressed text unpacks beyond MAX_PNG_TEXT_BYTES (read in part). */
export function pngTextChunks(bytes: Uint8Array): { text: Record<string, string>; oversized: string[] } {
  const out: Record<string, string> = {};
  const oversized: string[] = [];
  for (const c of pngChunks(bytes)) {
    if (c.type !== "tEXt" && c.type !== "zTXt" && c.type !== "iTXt") continue;
    const nul = c.data.indexOf(0);
    if (nul < 1) continue;
    const key = latin1.decode(c.data.subarray(0, nul));
    let text = "";
    const over = () => oversized.push(key);
    if (c.type === "tEXt") text = latin1.decode(c.data.subarray(nul + 1));
    else if (c.type === "zTXt") text = inflateText(c.data.subarray(nul + 2), latin1, over);
    else {
      const compressed = c.data[nul + 1] === 1;
      let p = nul + 3;
      p = c.data.indexOf(0, p) + 1; // language tag
      p = c.data.indexOf(0, p) + 1; // translated keyword
      if (p <= 0) continue;
      text = compressed ? inflateText(c.data.subarray(p), utf8, over) : utf8.decode(c.data.subarray(p));
    }
    out[key] = out[key] ? `${out[key]}\n${text}` : text;
  }
  return { text: out, oversized };
}

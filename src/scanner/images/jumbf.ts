/**
 * JUMBF (ISO/IEC 19566-5) boxes as used by C2PA: where the manifest store sits in a JPEG (APP11
 * segments, reassembled) or PNG (caBX chunk), and a tree of labelled superboxes.
 */
import { isJpeg, parseJpegStructure } from "./jpeg-markers";
import { isPng, pngChunks } from "./png-chunks";

/** One JUMBF superbox: its label and content boxes (type + payload) and child superboxes. */
export interface JumbfBox {
  label: string;
  /** Description-box type UUID as hex (identifies cbor/json/codestream content). */
  type: string;
  contents: { type: string; data: Uint8Array }[];
  children: JumbfBox[];
}

/** The manifest store bytes and where they sit in the file (for the hash exclusion check). */
export interface JumbfLocation {
  store: Uint8Array;
  /** File byte ranges holding the store (APP11 segments incl. markers, or the caBX chunk). */
  ranges: { start: number; length: number }[];
}

/** Finds the C2PA manifest store of a JPEG or PNG, or null. */
export function findJumbf(bytes: Uint8Array): JumbfLocation | null {
  if (isJpeg(bytes)) {
    const segs = parseJpegStructure(bytes).segments.filter(
      (s) => s.marker === 0xeb && s.data[0] === 0x4a && s.data[1] === 0x50,
    ); // "JP"
    if (!segs.length) return null;
    // Each APP11: "JP", En (2), Z (4), then the box; continuation segments repeat the 8-byte box header.
    const parts = segs.map((s, i) => s.data.subarray(i === 0 ? 8 : 16));
    const store = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
    let o = 0;
    for (const p of parts) {
      store.set(p, o);
      o += p.length;
    }
    return { store, ranges: segs.map((s) => ({ start: s.offset, length: s.data.length + 4 })) };
  }
  if (isPng(bytes)) {
    const chunk = pngChunks(bytes).find((c) => c.type === "caBX");
    if (!chunk) return null;
    const start = chunk.data.byteOffset - bytes.byteOffset - 8;
    return { store: chunk.data, ranges: [{ start, length: chunk.data.length + 12 }] };
  }
  return null;
}

const ascii = (b: Uint8Array) => String.fromCharCode(...b);
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

function boxes(data: Uint8Array): { type: string; data: Uint8Array }[] {
  const out: { type: string; data: Uint8Array }[] = [];
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let p = 0;
  while (p + 8 <= data.length) {
    let size = v.getUint32(p);
    const type = ascii(data.subarray(p + 4, p + 8));
    let header = 8;
    if (size === 1 && p + 16 <= data.length) {
      size = Number(v.getBigUint64(p + 8));
      header = 16;
    } else if (size === 0) size = data.length - p;
    if (size < header || p + size > data.length) break;
    out.push({ type, data: data.subarray(p + header, p + size) });
    p += size;
  }
  return out;
}

function superbox(data: Uint8Array, depth: number): JumbfBox | null {
  if (depth > 16) return null;
  const inner = boxes(data);
  const desc = inner[0];
  if (desc?.type !== "jumd" || desc.data.length < 17) return null;
  const toggles = desc.data[16];
  let label = "";
  if (toggles & 0x02) {
    const end = desc.data.indexOf(0, 17);
    label = new TextDecoder().decode(desc.data.subarray(17, end < 0 ? desc.data.length : end));
  }
  const box: JumbfBox = { label, type: hex(desc.data.subarray(0, 16)), contents: [], children: [] };
  for (const b of inner.slice(1)) {
    if (b.type === "jumb") {
      const child = superbox(b.data, depth + 1);
      if (child) box.children.push(child);
    } else box.contents.push(b);
  }
  return box;
}

/** Parses the manifest store (a top-level `jumb` box). */
export function parseJumbf(store: Uint8Array): JumbfBox | null {
  const top = boxes(store)[0];
  return top && top.type === "jumb" ? superbox(top.data, 0) : null;
}

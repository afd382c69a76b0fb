/**
 * Hand-made signed PDFs for the difference-analysis tests: a one-page form written object by
 * object, a "signing" incremental update whose /ByteRange is computed over the real bytes (the CMS
 * value is filler: the analysis is structural), and further updates with any objects and trailer
 * entries. Byte surgery on the result makes the coverage anomalies (uncovered tail, gaps, one range).
 */
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
const text = (b: Uint8Array) => new TextDecoder("latin1").decode(b);

export type Objects = Record<number, string>;

export const stream = (content: string, dict = "") =>
  `<< ${dict} /Length ${content.length} >>\nstream\n${content}\nendstream`;

/**
 * The base form: page 3 draws content 7 and carries widgets 4 (signature field Sig1), 5 (text field
 * Name, appearance 8) and 6 (empty signature field Sig2, appearance 9). `extra` adds or replaces objects.
 */
export function baseForm(extra: Objects = {}, trailerExtra = ""): { bytes: Uint8Array; objects: Objects } {
  const objects: Objects = {
    1: "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R 6 0 R] /SigFlags 3 >> >>",
    2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 7 0 R /Resources << /Font << /F1 10 0 R >> >> /Annots [4 0 R 5 0 R 6 0 R] >>",
    4: "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Sig1) /Rect [50 50 200 100] /P 3 0 R /F 4 >>",
    5: "<< /Type /Annot /Subtype /Widget /FT /Tx /T (Name) /Rect [50 700 300 720] /P 3 0 R /F 4 /AP << /N 8 0 R >> >>",
    6: "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Sig2) /Rect [300 50 450 100] /P 3 0 R /F 4 /AP << /N 9 0 R >> >>",
    7: stream("BT /F1 18 Tf 50 760 Td (Invoice total 1.234,00 EUR) Tj ET"),
    8: stream("", "/Type /XObject /Subtype /Form /BBox [0 0 250 20]"),
    9: stream("", "/Type /XObject /Subtype /Form /BBox [0 0 150 50]"),
    10: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ...extra,
  };
  let body = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets: [number, number][] = [];
  for (const [num, obj] of Object.entries(objects)) {
    offsets.push([Number(num), body.length]);
    body += `${num} 0 obj\n${obj}\nendobj\n`;
  }
  const size = Math.max(...offsets.map(([n]) => n)) + 1;
  const xrefAt = body.length;
  body += `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let n = 1; n < size; n++) {
    const off = offsets.find(([m]) => m === n)?.[1];
    body += off === undefined ? "0000000000 65535 f \n" : `${String(off).padStart(10, "0")} 00000 n \n`;
  }
  body += `trailer\n<< /Size ${size} /Root 1 0 R${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return { bytes: latin1(body), objects };
}

/** Appends an incremental update with these objects (classic xref) and extra trailer entries. */
export function update(original: Uint8Array, objects: Objects, trailerExtra = "", root = "1 0 R"): Uint8Array {
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text(original.subarray(-200)))?.[1]);
  let tail = "";
  const offsets: [number, number][] = [];
  for (const [num, obj] of Object.entries(objects)) {
    offsets.push([Number(num), original.length + tail.length]);
    tail += `${num} 0 obj\n${obj}\nendobj\n`;
  }
  const size = Math.max(64, ...offsets.map(([n]) => n + 1));
  const xrefAt = original.length + tail.length;
  tail += "xref\n0 1\n0000000000 65535 f \n";
  for (const [num, off] of offsets.sort((a, b) => a[0] - b[0]))
    tail += `${num} 1\n${String(off).padStart(10, "0")} 00000 n \n`;
  tail += `trailer\n<< /Size ${size} /Root ${root} /Prev ${prev}${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  const out = new Uint8Array(original.length + tail.length);
  out.set(original);
  out.set(latin1(tail), original.length);
  return out;
}

export interface SignOptions {
  /** Object number of the new signature dictionary. */
  sigNumber: number;
  /** The field dictionary (number and new body, which must contain `/V <sigNumber> 0 R`). */
  field: [number, string];
  /** Entries added to the signature dictionary (/Reference with DocMDP/FieldMDP, /Type /DocTimeStamp …). */
  sigExtra?: string;
  /** Further objects written in the same update (a new appearance, a catalog with /Perms …). */
  objects?: Objects;
  trailerExtra?: string;
}

/** A signing update: the signature dictionary with a /ByteRange over the whole new revision. */
export function sign(original: Uint8Array, o: SignOptions): Uint8Array {
  const placeholder = "[0 0000000000 0000000000 0000000000]";
  const contents = `<${"ab".repeat(256)}>`;
  const sig = `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /M (D:20261101120000Z) ${o.sigExtra ?? ""} /ByteRange ${placeholder} /Contents ${contents} >>`;
  const signed = update(original, { ...o.objects, [o.field[0]]: o.field[1], [o.sigNumber]: sig }, o.trailerExtra ?? "");
  const body = text(signed);
  const at = body.lastIndexOf(placeholder);
  const gapStart = body.indexOf("/Contents <", at) + "/Contents ".length;
  const gapEnd = gapStart + contents.length;
  const range = `[0 ${pad(gapStart)} ${pad(gapEnd)} ${pad(signed.length - gapEnd)}]`;
  signed.set(latin1(range), at);
  return signed;
}

const pad = (n: number) => String(n).padStart(10, "0");

/** Replaces the (first) /ByteRange of a signature, keeping the file length (byte surgery). */
export function withByteRange(bytes: Uint8Array, numbers: number[]): Uint8Array {
  const body = text(bytes);
  const at = body.lastIndexOf("/ByteRange [");
  const end = body.indexOf("]", at) + 1;
  const width = end - at - "/ByteRange ".length;
  const value = `[${numbers.join(" ")}]`.padEnd(width, " ");
  if (value.length > width) throw new Error("new /ByteRange is longer than the old one");
  const out = bytes.slice();
  out.set(latin1(value), at + "/ByteRange ".length);
  return out;
}

/** The /ByteRange numbers of the last signature. */
export function byteRangeOf(bytes: Uint8Array): number[] {
  const body = text(bytes);
  const m = /\/ByteRange \[([^\]]*)\]/.exec(body.slice(body.lastIndexOf("/ByteRange [")));
  return (m?.[1] ?? "").trim().split(/\s+/).map(Number);
}

export function concat(a: Uint8Array, b: string): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(latin1(b), a.length);
  return out;
}

/** The offset of `N 0 obj` in the bytes (its first definition). */
export function offsetOf(bytes: Uint8Array, num: number): number {
  return text(bytes).search(new RegExp(`(^|\\n)${num} 0 obj`)) + 1;
}

/**
 * Appends an update whose xref section is written by hand: `body(at)` returns the object text
 * (appended at offset `at`) and `entries` the xref subsections, e.g. `["8 1", "0000000000 00001 f "]`.
 */
export function rawUpdate(original: Uint8Array, body: string, entries: string[], trailerExtra = ""): Uint8Array {
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text(original.subarray(-200)))?.[1]);
  const xrefAt = original.length + body.length;
  const tail = `${body}xref\n0 1\n0000000000 65535 f \n${entries.join("\n")}\ntrailer\n<< /Size 64 /Root 1 0 R /Prev ${prev}${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return concat(original, tail);
}

export const xrefOffset = (n: number) => `${String(n).padStart(10, "0")} 00000 n `;

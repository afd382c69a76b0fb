/**
 * Hostile inputs built in memory by code (nothing big is checked in): images and PDFs whose
 * declared or inflated sizes are far beyond what a 128 MB isolate can hold, while the bytes
 * themselves stay small. Every generator is deterministic.
 *
 * The deflate bombs are written by hand: fixed-Huffman blocks of one literal followed by
 * back-references "copy 258 bytes from distance 1" (13 bits per 258 bytes, ≈ 160:1). The block's
 * reference count is chosen so that each block ends on a byte boundary, so one block can be
 * repeated as often as needed without compressing hundreds of megabytes first.
 */

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------- deflate bombs

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  /** LSB first (header fields, extra bits). */
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) this.bit((value >> i) & 1);
  }
  /** Huffman codes: most significant bit first. */
  code(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.bit((value >> i) & 1);
  }
  private bit(b: number): void {
    this.acc |= b << this.n;
    if (++this.n === 8) {
      this.bytes.push(this.acc);
      this.acc = 0;
      this.n = 0;
    }
  }
  finish(): Uint8Array {
    if (this.n > 0) this.bytes.push(this.acc);
    return Uint8Array.from(this.bytes);
  }
}

/** 8006 ≡ 6 (mod 8): 3 + 8 + 13·8006 + 7 bits is a whole number of bytes. */
const COPIES_PER_BLOCK = 8006;
const BYTES_PER_BLOCK = 1 + 258 * COPIES_PER_BLOCK;

/** One fixed-Huffman block: `byte`, then COPIES_PER_BLOCK × (length 258, distance 1), end of block. */
function runBlock(byte: number, final: boolean, copies = COPIES_PER_BLOCK): Uint8Array {
  const w = new BitWriter();
  w.bits(final ? 1 : 0, 1);
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  if (byte < 144) w.code(0x30 + byte, 8);
  else w.code(0x190 + byte - 144, 9);
  for (let i = 0; i < copies; i++) {
    w.code(0xc5, 8); // length symbol 285 = 258
    w.code(0, 5); // distance code 0 = 1
  }
  w.code(0, 7); // end of block (256)
  return w.finish();
}

/** Raw deflate data that inflates to at least `size` bytes of `byte` (whole blocks; ≈ 2 MB each). */
export function deflateRun(size: number, byte = 0): Uint8Array {
  const blocks = Math.max(1, Math.ceil(size / BYTES_PER_BLOCK));
  const block = runBlock(byte, false);
  const tail = runBlock(byte, true, 0);
  const out = new Uint8Array(block.length * blocks + tail.length);
  for (let i = 0; i < blocks; i++) out.set(block, i * block.length);
  out.set(tail, blocks * block.length);
  return out;
}

/** Bytes the data of deflateRun(size) inflates to. */
export function deflateRunSize(size: number): number {
  return Math.max(1, Math.ceil(size / BYTES_PER_BLOCK)) * BYTES_PER_BLOCK + 1;
}

/** Adler-32 of `count` repetitions of one byte, computed without the bytes. */
function adlerOfRun(byte: number, count: number): number {
  const M = 65521;
  // a = 1 + count·byte, b = count + byte·count·(count+1)/2 (mod M), in BigInt to stay exact.
  const c = BigInt(count);
  const x = BigInt(byte);
  const a = (1n + c * x) % BigInt(M);
  const b = (c + (x * c * (c + 1n)) / 2n) % BigInt(M);
  return Number((b << 16n) | a) >>> 0;
}

/** A zlib stream (what PDF FlateDecode and PNG IDAT hold) inflating to ≈ `size` bytes of `byte`. */
export function zlibRun(size: number, byte = 0): Uint8Array {
  const data = deflateRun(size, byte);
  const adler = adlerOfRun(byte, deflateRunSize(size));
  return concat([
    Uint8Array.of(0x78, 0x01),
    data,
    Uint8Array.of(adler >>> 24, (adler >>> 16) & 255, (adler >>> 8) & 255, adler & 255),
  ]);
}

// ---------------------------------------------------------------- JPEG

function segment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 255, ...payload];
}

/**
 * A real, valid baseline greyscale JPEG of any size whose every 8×8 block is flat mid-grey.
 * Both Huffman tables hold one symbol (DC difference 0, AC end-of-block) with the one-bit code
 * "0", so each block costs two bits: 20000 × 20000 pixels is 1.6 MB of zero bytes.
 */
export function flatJpeg(width: number, height: number): Uint8Array {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const header = [
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, 1, ...new Array(15).fill(0), 0x00]),
    ...segment(0xc4, [0x10, 1, ...new Array(15).fill(0), 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
  ];
  return concat([Uint8Array.from(header), new Uint8Array(Math.ceil((blocks * 2) / 8)), Uint8Array.of(0xff, 0xd9)]);
}

/** A JPEG whose frame header (SOF0) claims `width × height` while its data holds a 16 × 16 picture. */
export function lyingJpeg(width: number, height: number): Uint8Array {
  const bytes = flatJpeg(16, 16);
  const sof = bytes.findIndex((b, i) => b === 0xff && bytes[i + 1] === 0xc0);
  bytes.set([height >> 8, height & 255, width >> 8, width & 255], sof + 5);
  return bytes;
}

// ---------------------------------------------------------------- PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([latin1(type), data]);
  return concat([Uint8Array.from(u32(data.length)), typed, Uint8Array.from(u32(crc32(typed)))]);
}

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function ihdr(width: number, height: number, colorType = 2): Uint8Array {
  return pngChunk("IHDR", Uint8Array.from([...u32(width), ...u32(height), 8, colorType, 0, 0, 0]));
}

/** A 100 × 100 RGB PNG whose IDAT inflates to `inflated` bytes (the picture needs 30 100). */
export function pngIdatBomb(inflated: number): Uint8Array {
  return concat([
    PNG_SIGNATURE,
    ihdr(100, 100),
    pngChunk("IDAT", zlibRun(inflated)),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

/** A valid 16 × 16 PNG with a zTXt "Comment" chunk that inflates to `inflated` bytes of spaces. */
export function pngTextBomb(inflated: number): Uint8Array {
  const rows = zlibRun(16 * (1 + 16 * 3) - 1); // a little more than the picture needs: harmless
  const ztxt = concat([latin1("Comment\0\0"), zlibRun(inflated, 0x20)]);
  return concat([
    PNG_SIGNATURE,
    ihdr(16, 16),
    pngChunk("zTXt", ztxt),
    pngChunk("IDAT", rows),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

/** A PNG whose IHDR claims `width × height` (flat rows: deflate packs them tightly) — a real picture. */
export function flatPng(width: number, height: number): Uint8Array {
  return concat([
    PNG_SIGNATURE,
    ihdr(width, height, 0),
    pngChunk("IDAT", zlibRun(height * (width + 1) - 1)),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

// ---------------------------------------------------------------- PDF

/** An indirect object: a dictionary/value as PDF text, optionally with stream data. */
export interface PdfObject {
  body: string;
  stream?: Uint8Array;
}

/** A complete classic PDF (header, objects 1…n, xref table, trailer) from its objects. */
export function assemblePdf(objects: PdfObject[], trailer = "/Root 1 0 R"): Uint8Array {
  const parts: Uint8Array[] = [latin1("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")];
  let at = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(at);
    const head = o.stream
      ? `${i + 1} 0 obj\n${o.body.replace(/>>\s*$/, ` /Length ${o.stream.length} >>`)}\nstream\n`
      : `${i + 1} 0 obj\n${o.body}\nendobj\n`;
    const piece = o.stream ? concat([latin1(head), o.stream, latin1("\nendstream\nendobj\n")]) : latin1(head);
    parts.push(piece);
    at += piece.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  parts.push(latin1(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${at}\n%%EOF\n`));
  return concat(parts);
}

const CATALOG = { body: "<< /Type /Catalog /Pages 2 0 R >>" };
const PAGES = { body: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>" };
const FONT = "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>";

function page(resources: string, contents = "4 0 R"): PdfObject {
  return {
    body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Resources << ${resources} >> /Contents ${contents} >>`,
  };
}

const DRAW_IMAGE = latin1("q 600 0 0 800 0 0 cm /Im1 Do Q\n");

/** One page covered by one image XObject `Im1` (object 5) with the given dictionary entries and data. */
export function pdfWithImage(imageDict: string, data: Uint8Array): Uint8Array {
  return assemblePdf([
    CATALOG,
    PAGES,
    page("/XObject << /Im1 5 0 R >>"),
    { body: "<< >>", stream: DRAW_IMAGE },
    { body: `<< /Type /XObject /Subtype /Image ${imageDict} >>`, stream: data },
  ]);
}

/** A scanned page whose JPEG is `jpeg` (a real or a lying JPEG) declaring `width × height`. */
export function pdfWithJpeg(jpeg: Uint8Array, width: number, height: number): Uint8Array {
  return pdfWithImage(
    `/Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode`,
    jpeg,
  );
}

/** An RGB image XObject declaring `width × height` whose FlateDecode data inflates to `inflated` bytes. */
export function pdfFlateImageBomb(inflated: number, width = 10_000, height = 10_000): Uint8Array {
  return pdfWithImage(
    `/Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
    zlibRun(inflated),
  );
}

/** A page whose content stream inflates to `inflated` bytes of spaces; `filter` as written in the stream dictionary. */
export function pdfContentBomb(inflated: number, filter = "/FlateDecode"): Uint8Array {
  return assemblePdf([
    CATALOG,
    PAGES,
    page(FONT),
    { body: `<< /Filter ${filter} >>`, stream: zlibRun(inflated, 0x20) },
  ]);
}

/** An XMP metadata stream (catalog /Metadata) inflating to `inflated` bytes of spaces. */
export function pdfMetadataBomb(inflated: number): Uint8Array {
  return assemblePdf([
    { body: "<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R >>" },
    PAGES,
    page(FONT),
    { body: "<< >>", stream: latin1("BT /F1 12 Tf 72 700 Td (Invoice) Tj ET\n") },
    { body: "<< /Type /Metadata /Subtype /XML /Filter /FlateDecode >>", stream: zlibRun(inflated, 0x20) },
  ]);
}

/** A page that draws a form XObject whose content inflates to `inflated` bytes of spaces. */
export function pdfFormBomb(inflated: number): Uint8Array {
  return assemblePdf([
    CATALOG,
    PAGES,
    page("/XObject << /Fm1 5 0 R >>"),
    { body: "<< >>", stream: latin1("/Fm1 Do\n") },
    {
      body: "<< /Type /XObject /Subtype /Form /BBox [0 0 600 800] /Filter /FlateDecode >>",
      stream: zlibRun(inflated, 0x20),
    },
  ]);
}

/** An (unreferenced) object stream inflating to `inflated` bytes: parsers that read every object decode it. */
export function pdfObjectStreamBomb(inflated: number): Uint8Array {
  return assemblePdf([
    CATALOG,
    PAGES,
    page(FONT),
    { body: "<< >>", stream: latin1("BT /F1 12 Tf 72 700 Td (Invoice) Tj ET\n") },
    { body: "<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>", stream: zlibRun(inflated, 0x20) },
  ]);
}

/**
 * A one-page invoice saved `count` times in place: each incremental update appends a new content
 * stream, the page redefined to show it, an xref section with /Prev and %%EOF.
 */
export function pdfWithRevisions(count: number): Uint8Array {
  const text = (k: number) => latin1(`BT /F1 12 Tf 72 700 Td (Amount: ${100 + k} EUR) Tj ET\n`);
  const parts: Uint8Array[] = [assemblePdf([CATALOG, PAGES, page(FONT), { body: "<< >>", stream: text(1) }])];
  let size = parts[0].length;
  let prevXref = Number(/startxref\n(\d+)/.exec(new TextDecoder("latin1").decode(parts[0].subarray(-40)))![1]);
  let nextObject = 5;
  for (let k = 2; k <= count; k++) {
    const content = nextObject++;
    const pageAt = size;
    const pageObj = latin1(`3 0 obj\n${page(FONT, `${content} 0 R`).body}\nendobj\n`);
    const contentAt = pageAt + pageObj.length;
    const data = text(k);
    const contentObj = concat([
      latin1(`${content} 0 obj\n<< /Length ${data.length} >>\nstream\n`),
      data,
      latin1("\nendstream\nendobj\n"),
    ]);
    const xrefAt = contentAt + contentObj.length;
    const xref = latin1(
      `xref\n3 1\n${String(pageAt).padStart(10, "0")} 00000 n \n${content} 1\n${String(contentAt).padStart(10, "0")} 00000 n \n` +
        `trailer\n<< /Size ${nextObject} /Root 1 0 R /Prev ${prevXref} >>\nstartxref\n${xrefAt}\n%%EOF\n`,
    );
    parts.push(pageObj, contentObj, xref);
    size = xrefAt + xref.length;
    prevXref = xrefAt;
  }
  return concat(parts);
}

// ---------------------------------------------------------------- seeded PRNG

/** mulberry32: small, fast, good enough to pick mutations reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The pages of a TIFF: the top-level IFD chain, read by our own bounded walk and decoded with utif2
 * (pure JavaScript: LZW, Deflate, PackBits, CCITT G3/G4, JPEG, tiles, 1–16 bit, palette, CMYK).
 * utif2's own IFD reader follows the chain and sub-IFDs without limits (a chain that points back
 * loops forever, a count of 2³² values allocates until the isolate dies), so utif2 only decodes
 * pages whose tags we read here: every value inside the file, no cycle, at most MAX_TIFF_PAGES pages.
 */
import UTIF from "utif2";

/** Pages looked at per file; a fax or scan batch rarely has more, and each page is a unit of work. */
export const MAX_TIFF_PAGES = 32;
/** Entries per IFD (a page has about 20; thousands only in crafted files). */
const MAX_ENTRIES = 1000;
/** Values kept per tag (strip offsets of a tall page: one per strip). */
const MAX_VALUES = 1 << 20;

/** One page's tags as utif2 expects them: `t<tag>` → values. */
export type TiffTags = Record<string, number[] | string[] | Uint8Array>;

export interface TiffPage {
  width: number;
  height: number;
  tags: TiffTags;
}

export type TiffPages =
  | { ok: true; pages: TiffPage[]; morePages: boolean }
  | { ok: false; reason: "truncated" | "malformed" };

const SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

export function isTiff(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 8 &&
    ((bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 0x2a && bytes[3] === 0) ||
      (bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0 && bytes[3] === 0x2a))
  );
}

/** The top-level pages (image IFDs) with their sizes; "truncated" when pixel data lies past the end. */
export function readTiffPages(bytes: Uint8Array): TiffPages {
  if (!isTiff(bytes)) return { ok: false, reason: "malformed" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = bytes[0] === 0x49;
  const seen = new Set<number>();
  const pages: TiffPage[] = [];
  let offset = view.getUint32(4, le);
  while (offset !== 0 && pages.length < MAX_TIFF_PAGES) {
    if (seen.has(offset) || offset + 2 > bytes.length) return { ok: false, reason: "malformed" };
    seen.add(offset);
    const ifd = readIfd(view, offset, le);
    if (!ifd) return { ok: false, reason: "malformed" };
    const page = pageOf(ifd.tags);
    if (!page) return { ok: false, reason: "malformed" };
    if (!dataInside(page.tags, bytes.length)) return { ok: false, reason: "truncated" };
    pages.push(page);
    offset = ifd.next;
  }
  if (pages.length === 0) return { ok: false, reason: "malformed" };
  return { ok: true, pages, morePages: offset !== 0 };
}

/** The tags of the first IFD of a TIFF structure (a TIFF file, or the EXIF block of a JPEG); null when malformed. */
export function firstIfdTags(bytes: Uint8Array): TiffTags | null {
  if (!isTiff(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = bytes[0] === 0x49;
  const offset = view.getUint32(4, le);
  return offset + 2 <= bytes.length ? (readIfd(view, offset, le)?.tags ?? null) : null;
}

function readIfd(view: DataView, offset: number, le: boolean): { tags: TiffTags; next: number } | null {
  const count = view.getUint16(offset, le);
  const end = offset + 2 + count * 12;
  if (count === 0 || count > MAX_ENTRIES || end + 4 > view.byteLength) return null;
  const tags: TiffTags = {};
  for (let at = offset + 2; at < end; at += 12) {
    const tag = view.getUint16(at, le);
    const type = view.getUint16(at + 2, le);
    const n = view.getUint32(at + 4, le);
    const size = SIZES[type];
    if (!size || n === 0) continue; // unknown types are skipped, as by libtiff
    if (n > MAX_VALUES) return null;
    const from = n * size <= 4 ? at + 8 : view.getUint32(at + 8, le);
    if (from + n * size > view.byteLength) return null;
    tags[`t${tag}`] = valuesOf(view, type, from, n, le);
  }
  return { tags, next: view.getUint32(end, le) };
}

function valuesOf(
  view: DataView,
  type: number,
  from: number,
  n: number,
  le: boolean,
): number[] | string[] | Uint8Array {
  const bytes = new Uint8Array(view.buffer, view.byteOffset + from, n);
  if (type === 1 || type === 6 || type === 7) return bytes.slice();
  if (type === 2) return [new TextDecoder("latin1").decode(bytes).split("\0")[0]];
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(numberAt(view, type, from + i * SIZES[type], le));
  return out;
}

function numberAt(view: DataView, type: number, at: number, le: boolean): number {
  switch (type) {
    case 3:
      return view.getUint16(at, le);
    case 8:
      return view.getInt16(at, le);
    case 9:
      return view.getInt32(at, le);
    case 5:
      return view.getUint32(at, le) / (view.getUint32(at + 4, le) || 1);
    case 10:
      return view.getInt32(at, le) / (view.getInt32(at + 4, le) || 1);
    case 11:
      return view.getFloat32(at, le);
    case 12:
      return view.getFloat64(at, le);
    default:
      return view.getUint32(at, le);
  }
}

function pageOf(tags: TiffTags): TiffPage | null {
  const width = first(tags.t256);
  const height = first(tags.t257);
  const offsets = tags.t273 ?? tags.t324;
  if (!width || !height || !offsets || offsets.length === 0) return null;
  return { width, height, tags };
}

/** Every strip or tile (offset + byte count) inside the file. */
function dataInside(tags: TiffTags, length: number): boolean {
  const offsets = (tags.t324 ?? tags.t273) as number[];
  const counts = (tags.t325 ?? tags.t279) as number[] | undefined;
  if (!counts) return true; // uncompressed single strips may omit counts; utif2 computes them
  return offsets.every((o, i) => typeof o === "number" && o + (counts[i] ?? 0) <= length);
}

function first(values: TiffTags[string] | undefined): number {
  const v = values?.[0];
  return typeof v === "number" ? v : 0;
}

/** One page as RGBA; throws on data utif2 cannot decode (the caller reports it). */
export function decodeTiffPage(bytes: Uint8Array, page: TiffPage): { width: number; height: number; rgba: Uint8Array } {
  return decodeOn(utifBuffer(bytes), page);
}

/**
 * A page band by band (`splitTiffPage`'s bands, top to bottom), each as RGBA rows; throws like
 * decodeTiffPage. utif2 makes a bitmap of what its IFD declares, so each band is decoded from a copy of
 * the page's IFD that declares only the band's rows and its strips or tiles.
 */
export function* decodeTiffBands(
  bytes: Uint8Array,
  bands: TiffPage[],
): Generator<{ width: number; height: number; rgba: Uint8Array }> {
  const buffer = utifBuffer(bytes);
  for (const band of bands) yield decodeOn(buffer, band);
}

/**
 * utif2 4.1 (the latest) prints `console.log("====", tilesAcross, tilesDown)` for every tiled image it decodes: one
 * line in the service's logs per band of a tiled page. `decodeImage` is synchronous, so nothing else logs meanwhile.
 */
function withoutDebugPrint(decode: () => void): void {
  const log = console.log;
  console.log = () => {};
  try {
    decode();
  } finally {
    console.log = log;
  }
}

/** utif2 reads offsets from the start of the buffer: copy only a view that does not begin there. */
function utifBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
}

function decodeOn(buffer: ArrayBuffer, page: TiffPage): { width: number; height: number; rgba: Uint8Array } {
  const ifd = { ...page.tags } as unknown as UTIF.IFD;
  withoutDebugPrint(() => UTIF.decodeImage(buffer, ifd));
  if (!ifd.data || ifd.width !== page.width || ifd.height !== page.height) throw new Error("page could not be decoded");
  const rgba = UTIF.toRGBA8(ifd);
  if (rgba.length !== page.width * page.height * 4) throw new Error("unsupported pixel layout");
  return { width: page.width, height: page.height, rgba };
}

/**
 * Compressions whose strips and tiles are decoded each on its own (none, CCITT, LZW, JPEG, Deflate,
 * PackBits). Old-style JPEG (6) may be one stream for the whole page.
 */
const PER_STRIP = new Set([1, 2, 3, 4, 5, 7, 8, 32773, 32946]);

/**
 * The page as bands of whole strips (together about `bandPixels`) or of one row of tiles, each a page
 * of its own for utif2; null when it cannot be split: one compressed strip, a strip or tile row over
 * `maxBandPixels`, separate colour planes, samples wider than 16 bits (utif2 scales float pages by
 * their overall minimum) or a compression that spans strips. An uncompressed single strip is cut into bands.
 */
export function splitTiffPage(page: TiffPage, bandPixels: number, maxBandPixels: number): TiffPage[] | null {
  const { width, height, tags } = page;
  const compression = first(tags.t259) || 1;
  if (!PER_STRIP.has(compression) || first(tags.t284) === 2 || first(tags.t258) > 16) return null;
  if (tags.t322) return tileRows(page, maxBandPixels);
  const offsets = tags.t273 as number[] | undefined;
  const counts = tags.t279 as number[] | undefined;
  if (!offsets) return null;
  if (offsets.length === 1) {
    if (compression !== 1) return null;
    // utif2's own row size for an uncompressed strip: bits per sample × samples (TIFF rows end on a byte).
    const rowBytes = Math.ceil((width * (first(tags.t258) || 1) * (first(tags.t277) || 1)) / 8);
    const rows = Math.max(1, Math.floor(bandPixels / width));
    return bandsOf(height, rows, (y, n) => ({ t273: [offsets[0] + y * rowBytes], t278: [n], t279: [n * rowBytes] }));
  }
  const perStrip = Math.min(first(tags.t278) || height, height);
  if (width * perStrip > maxBandPixels || !counts || offsets.length < Math.ceil(height / perStrip)) return null;
  const strips = Math.max(1, Math.floor(bandPixels / (width * perStrip)));
  return bandsOf(height, strips * perStrip, (y) => {
    const from = y / perStrip;
    return { t273: offsets.slice(from, from + strips), t279: counts.slice(from, from + strips) };
  });

  function bandsOf(total: number, rows: number, strips: (y: number, rows: number) => TiffTags): TiffPage[] {
    const bands: TiffPage[] = [];
    for (let y = 0; y < total; y += rows) {
      const n = Math.min(rows, total - y);
      bands.push({ width, height: n, tags: { ...tags, t257: [n], ...strips(y, n) } });
    }
    return bands;
  }
}

/** A page stored as one compressed strip: utif2 can only inflate it whole. */
export function isOneCompressedStrip(page: TiffPage): boolean {
  return !page.tags.t322 && (page.tags.t273?.length ?? 0) === 1 && (first(page.tags.t259) || 1) !== 1;
}

/** One band per row of tiles. */
function tileRows(page: TiffPage, maxBandPixels: number): TiffPage[] | null {
  const { width, height, tags } = page;
  const tileWidth = first(tags.t322);
  const tileHeight = first(tags.t323);
  const offsets = tags.t324 as number[] | undefined;
  const counts = tags.t325 as number[] | undefined;
  if (!tileWidth || !tileHeight || !offsets || !counts || width * tileHeight > maxBandPixels) return null;
  const across = Math.ceil(width / tileWidth);
  if (offsets.length < across * Math.ceil(height / tileHeight)) return null;
  const bands: TiffPage[] = [];
  for (let y = 0, row = 0; y < height; y += tileHeight, row++) {
    const n = Math.min(tileHeight, height - y);
    const tiles = {
      t324: offsets.slice(row * across, (row + 1) * across),
      t325: counts.slice(row * across, (row + 1) * across),
    };
    bands.push({ width, height: n, tags: { ...tags, t257: [n], ...tiles } });
  }
  return bands;
}

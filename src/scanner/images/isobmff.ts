/** Minimal HEIF/ISOBMFF reading: the image size from the `ispe` boxes (largest = primary image). */

export function isHeif(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const ftyp = String.fromCharCode(...bytes.subarray(4, 8));
  const brand = String.fromCharCode(...bytes.subarray(8, 12));
  return ftyp === "ftyp" && ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc", "avif"].includes(brand);
}

/** Largest `ispe` (image spatial extents) found in the first 1 MB: the primary or grid image. */
export function heifSize(bytes: Uint8Array): { width: number; height: number } | null {
  const limit = Math.min(bytes.length - 16, 1 << 20);
  let best: { width: number; height: number } | null = null;
  for (let i = 4; i < limit; i++) {
    if (bytes[i] !== 0x69 || bytes[i + 1] !== 0x73 || bytes[i + 2] !== 0x70 || bytes[i + 3] !== 0x65) continue; // "ispe"
    const v = new DataView(bytes.buffer, bytes.byteOffset + i + 4, 12);
    const width = v.getUint32(4);
    const height = v.getUint32(8);
    if (!best || width * height > best.width * best.height) best = { width, height };
  }
  return best;
}

interface Box {
  type: string;
  /** First byte after the header (and after version/flags for full boxes, added by the caller). */
  start: number;
  end: number;
}

function childBoxes(view: DataView, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  for (let at = from; at + 8 <= to && boxes.length < 1000; ) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1 && at + 16 <= to) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    const type = String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + at + 4, 4));
    boxes.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

/** The bytes of the first item `matches` picks (by item type and, for "mime" items, content type), or null. */
function heifItem(bytes: Uint8Array, matches: (type: string, contentType: string) => boolean): Uint8Array | null {
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const meta = childBoxes(view, 0, bytes.length).find((b) => b.type === "meta");
    if (!meta) return null;
    const inside = childBoxes(view, meta.start + 4, meta.end);
    const iinf = inside.find((b) => b.type === "iinf");
    const iloc = inside.find((b) => b.type === "iloc");
    const id = iinf ? itemId(view, iinf, matches) : null;
    const extent = id !== null && iloc ? itemExtent(view, iloc, id) : null;
    if (!extent || extent.offset + extent.length > bytes.length) return null;
    return bytes.subarray(extent.offset, extent.offset + extent.length);
  } catch {
    return null; // a box that lies about its size: no item rather than a failed analysis
  }
}

/**
 * The Exif item of a HEIF file as a TIFF stream (ISO/IEC 23008-12 A.2.1: a 4-byte offset to the TIFF
 * header, then the data), or null. Read here because exifr ignores the iloc `base_offset` that
 * libheif writes (heif-enc, GIMP and other libheif-based converters), and then finds no EXIF at all.
 */
export function heifExif(bytes: Uint8Array): Uint8Array | null {
  const item = heifItem(bytes, (type) => type === "Exif");
  if (!item || item.length < 8) return null;
  const skip = 4 + new DataView(item.buffer, item.byteOffset, 4).getUint32(0);
  return skip < item.length ? item.subarray(skip) : null;
}

/** The XMP packet of a HEIF file (a "mime" item of content type application/rdf+xml), which exifr does not read. */
export function heifXmp(bytes: Uint8Array): Uint8Array | null {
  return heifItem(bytes, (type, contentType) => type === "mime" && contentType === "application/rdf+xml");
}

/** A NUL-terminated string at `at` (within `end`) and the position after its NUL. */
function cString(view: DataView, at: number, end: number): { text: string; next: number } {
  let text = "";
  while (at < end && view.getUint8(at) !== 0) text += String.fromCharCode(view.getUint8(at++));
  return { text, next: at + 1 };
}

function itemId(view: DataView, iinf: Box, matches: (type: string, contentType: string) => boolean): number | null {
  const version = view.getUint8(iinf.start);
  const entries = childBoxes(view, iinf.start + 4 + (version === 0 ? 2 : 4), iinf.end);
  for (const infe of entries) {
    if (infe.type !== "infe") continue;
    const infeVersion = view.getUint8(infe.start);
    if (infeVersion < 2) continue;
    const idSize = infeVersion === 3 ? 4 : 2;
    const at = infe.start + 4;
    const type = String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + at + idSize + 2, 4));
    // infe v2/v3: item_ID, item_protection_index, item_type, item_name, then for "mime" the content type.
    const name = cString(view, at + idSize + 6, infe.end);
    const contentType = type === "mime" ? cString(view, name.next, infe.end).text : "";
    if (matches(type, contentType)) return idSize === 4 ? view.getUint32(at) : view.getUint16(at);
  }
  return null;
}

/** The first extent of an item stored in the file itself (construction method 0), base offset included. */
function itemExtent(view: DataView, iloc: Box, id: number): { offset: number; length: number } | null {
  const version = view.getUint8(iloc.start);
  let at = iloc.start + 4;
  const sizes = view.getUint8(at++);
  const more = view.getUint8(at++);
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 15;
  const baseSize = more >> 4;
  const indexSize = version === 1 || version === 2 ? more & 15 : 0;
  const read = (size: number) => {
    const value =
      size === 8
        ? Number(view.getBigUint64(at))
        : size === 4
          ? view.getUint32(at)
          : size === 2
            ? view.getUint16(at)
            : 0;
    at += size;
    return value;
  };
  const count = read(version === 2 ? 4 : 2);
  for (let i = 0; i < count && at < iloc.end; i++) {
    const itemId = read(version === 2 ? 4 : 2);
    const method = version === 1 || version === 2 ? read(2) & 15 : 0;
    read(2); // data_reference_index
    const base = read(baseSize);
    const extents = read(2);
    if (itemId === id && extents > 0) {
      if (method !== 0) return null;
      read(indexSize);
      const offset = read(offsetSize);
      return { offset: base + offset, length: read(lengthSize) };
    }
    at += extents * (indexSize + offsetSize + lengthSize);
  }
  return null;
}

/**
 * How the primary image is meant to be shown, as an EXIF orientation (1–8): its rotation (`irot`, quarter
 * turns anticlockwise) and mirroring (`imir`, axis 0 vertical: left ↔ right; 1 horizontal: top ↔ bottom)
 * properties, applied in that order (ISO/IEC 23008-12 6.5.10–6.5.12). A HEIF's own EXIF Orientation is
 * not read: the properties are what decoders apply (phones write irot; some, e.g. Nokia's, leave EXIF at 1).
 */
export function heifOrientation(bytes: Uint8Array): number {
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const meta = childBoxes(view, 0, bytes.length).find((b) => b.type === "meta");
    if (!meta) return 1;
    const inside = childBoxes(view, meta.start + 4, meta.end);
    const pitm = inside.find((b) => b.type === "pitm");
    const iprp = inside.find((b) => b.type === "iprp");
    if (!pitm || !iprp) return 1;
    const primary = view.getUint8(pitm.start) === 0 ? view.getUint16(pitm.start + 4) : view.getUint32(pitm.start + 4);
    const properties = childBoxes(view, iprp.start, iprp.end);
    const ipco = properties.find((b) => b.type === "ipco");
    const ipma = properties.find((b) => b.type === "ipma");
    if (!ipco || !ipma) return 1;
    const boxes = childBoxes(view, ipco.start, ipco.end);
    let quartersClockwise = 0;
    let mirrored = false;
    for (const index of associatedProperties(view, ipma, primary)) {
      const box = boxes[index - 1];
      if (box?.type === "irot") quartersClockwise = (quartersClockwise + 4 - (view.getUint8(box.start) & 3)) % 4;
      // A mirror after the turn is the mirror before the inverse turn (left ↔ right), or before it and a half turn.
      if (box?.type === "imir") {
        quartersClockwise = ((view.getUint8(box.start) & 1 ? 6 : 4) - quartersClockwise) % 4;
        mirrored = !mirrored;
      }
    }
    // EXIF orientations as "mirror left ↔ right first (or not), then turn clockwise by 0–3 quarters".
    return (mirrored ? [2, 7, 4, 5] : [1, 6, 3, 8])[quartersClockwise];
  } catch {
    return 1; // boxes that lie about their sizes: shown as stored
  }
}

/** The property indices (1-based into `ipco`) associated with item `id`, in their order. */
function associatedProperties(view: DataView, ipma: Box, id: number): number[] {
  const version = view.getUint8(ipma.start);
  const wideIndex = (view.getUint8(ipma.start + 3) & 1) === 1;
  let at = ipma.start + 4;
  const entries = view.getUint32(at);
  at += 4;
  for (let e = 0; e < entries && at < ipma.end; e++) {
    const item = version < 1 ? view.getUint16(at) : view.getUint32(at);
    at += version < 1 ? 2 : 4;
    const count = view.getUint8(at++);
    const indices: number[] = [];
    for (let k = 0; k < count; k++) {
      indices.push(wideIndex ? view.getUint16(at) & 0x7fff : view.getUint8(at) & 0x7f);
      at += wideIndex ? 2 : 1;
    }
    if (item === id) return indices;
  }
  return [];
}

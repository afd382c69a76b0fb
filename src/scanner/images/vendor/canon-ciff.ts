/**
 * Make, model and capture time from a Canon CIFF heap ("Camera Image File Format") that PowerShot cameras
 * of 1998–2000 wrote into a JPEG APP0 segment, laid out as exiftool's Image/ExifTool/CanonRaw.pm reads it:
 *   "II"/"MM" byte order, u32 header length, "HEAPJPGM"; the heap runs from the header length to the end.
 *   A heap ends with the u32 offset of its directory; the directory is a u16 count of 10-byte entries
 *   (u16 tag, u32 size, u32 offset from the heap start). Tag bit 0x4000: the 8 value bytes sit in the
 *   entry itself; types 0x28 and 0x30 (tag bits 0x3800) are nested heaps; bit 0x8000 is invalid.
 * Every offset is checked against the enclosing heap; a malformed heap yields what was read before it.
 */
import { exifTextFromUnixSeconds } from "../exif-dates";
import { cString, startsWithAscii, u16, u32 } from "./bounded-bytes";

/** The camera fields a CIFF heap carries; null when absent. */
export interface CiffCameraFields {
  make: string | null;
  model: string | null;
  dateTimeOriginal: string | null;
}

const HEADER_BYTES = 14; // byte order (2), header length (4), "HEAPJPGM" (8)
const ENTRY_BYTES = 10;
/** CanonRawMakeModel: "Canon\0" then the model name. */
const MAKE_MODEL = 0x080a;
const MAKE_BYTES = 6;
/** TimeStamp: u32 Unix seconds, then time zone fields exiftool does not apply to DateTimeOriginal. */
const TIME_STAMP = 0x180e;
/** Real files nest three heaps deep; the limit and the visited set stop crafted loops. */
const MAX_DEPTH = 8;

interface Heap {
  data: Uint8Array;
  littleEndian: boolean;
  found: CiffCameraFields;
  visitedDirectories: Set<number>;
}

function isCiffSegment(app0: Uint8Array): boolean {
  const order = app0.length >= HEADER_BYTES && (startsWithAscii(app0, "II") || startsWithAscii(app0, "MM"));
  return order && startsWithAscii(app0.subarray(6), "HEAPJPGM");
}

/** Reads an APP0 payload; null when it is not a CIFF heap. */
export function readCiffCameraFields(app0: Uint8Array): CiffCameraFields | null {
  if (!isCiffSegment(app0)) return null;
  const littleEndian = app0[0] === 0x49;
  const headerLength = u32(app0, 2, littleEndian);
  if (headerLength === null || headerLength < HEADER_BYTES) return null;
  const heap: Heap = {
    data: app0,
    littleEndian,
    found: { make: null, model: null, dateTimeOriginal: null },
    visitedDirectories: new Set(),
  };
  walkHeap(heap, headerLength, app0.length, 0);
  return heap.found;
}

function walkHeap(heap: Heap, start: number, end: number, depth: number): void {
  const { data, littleEndian } = heap;
  if (depth > MAX_DEPTH || end - start < 4) return;
  const directoryOffset = u32(data, end - 4, littleEndian);
  if (directoryOffset === null) return;
  const directory = start + directoryOffset;
  const count = directory + 2 <= end ? u16(data, directory, littleEndian) : null;
  if (count === null || directory + 2 + count * ENTRY_BYTES > end || heap.visitedDirectories.has(directory)) return;
  heap.visitedDirectories.add(directory);
  for (let i = 0; i < count; i++) {
    const entry = directory + 2 + i * ENTRY_BYTES;
    // The three reads below lie inside the directory bounds checked above.
    const tag = u16(data, entry, littleEndian) as number;
    if (tag & 0x8000) return; // exiftool stops here too ("Bad CRW directory entry")
    const size = u32(data, entry + 2, littleEndian) as number;
    const offset = u32(data, entry + 6, littleEndian) as number;
    const inEntry = (tag & 0x4000) !== 0;
    const valueStart = inEntry ? entry + 2 : start + offset;
    const valueEnd = inEntry ? entry + ENTRY_BYTES : valueStart + size;
    if (valueEnd > end) continue;
    const type = (tag >> 8) & 0x38;
    if (!inEntry && (type === 0x28 || type === 0x30)) walkHeap(heap, valueStart, valueEnd, depth + 1);
    else readEntry(heap, tag & 0x3fff, data.subarray(valueStart, valueEnd));
  }
}

function readEntry(heap: Heap, id: number, value: Uint8Array): void {
  const found = heap.found;
  if (id === MAKE_MODEL && found.make === null && found.model === null) {
    found.make = cString(value.subarray(0, MAKE_BYTES));
    found.model = value.length > MAKE_BYTES ? cString(value.subarray(MAKE_BYTES)) : null;
  }
  if (id === TIME_STAMP && found.dateTimeOriginal === null) {
    // u32 Unix seconds of the camera's clock (no zone); exiftool prints them with gmtime, i.e. as UTC.
    const seconds = u32(value, 0, heap.littleEndian);
    found.dateTimeOriginal = seconds === null ? null : exifTextFromUnixSeconds(seconds);
  }
}

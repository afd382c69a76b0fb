import type { IntakeLimits } from "./limits";
import { refuse } from "./refuse";
import type { ZipSource } from "./source";

/** One central directory record, already checked against the intake limits. */
export interface DirectoryEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  /**
   * Where the bytes of this entry must end: the next local header or the central directory.
   * A local header whose name/extra lengths push the data past it contradicts the directory.
   */
  regionEnd: number;
}

/** Shared by an archive and the ZIPs nested in it, so nesting cannot multiply the limits. */
export interface IntakeBudget {
  entries: number;
  bytes: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const MAX_COMMENT = 0xffff;

/** Reads and validates the central directory; throws a 422 refusal for hostile archives. */
export async function readDirectory(
  source: ZipSource,
  limits: IntakeLimits,
  budget: IntakeBudget,
): Promise<DirectoryEntry[]> {
  const end = await findEnd(source);
  budget.entries += end.count;
  if (budget.entries > limits.maxEntries) {
    throw refuse("zip-too-many-entries", `The archive has more than ${limits.maxEntries} entries.`);
  }
  if (end.cdOffset + end.cdSize > source.size)
    throw refuse("zip-truncated", "The archive's directory points past its end: it is truncated or corrupt.");
  const cd = await source.range(end.cdOffset, end.cdSize);
  const records = parseRecords(cd, end.count);
  const regionEnd = regionEnds(records, end.cdOffset);
  const seen = new Set<string>();
  const entries: DirectoryEntry[] = [];
  for (const record of records) {
    if (record.flags & 1 || record.method === 99)
      throw refuse("zip-encrypted", `The entry "${record.name}" is encrypted; send the files unencrypted.`);
    const name = safeName(record.name);
    if (name === null) continue;
    if (seen.has(name)) throw refuse("zip-duplicate-name", `The name "${name}" occurs twice in the archive.`);
    seen.add(name);
    checkSizes(record, source.size, limits, budget);
    entries.push({ ...record, name, regionEnd: regionEnd(record.localOffset) });
  }
  return entries.sort((a, b) => a.localOffset - b.localOffset);
}

interface EndRecord {
  count: number;
  cdSize: number;
  cdOffset: number;
}

async function findEnd(source: ZipSource): Promise<EndRecord> {
  if (source.size < 22) throw refuse("not-a-zip", "The file is not a ZIP archive.");
  const tailLength = Math.min(source.size, 22 + MAX_COMMENT + 20);
  const tailStart = source.size - tailLength;
  const tail = await source.range(tailStart, tailLength);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) !== EOCD) continue;
    if (view.getUint16(i + 4, true) !== 0 || view.getUint16(i + 6, true) !== 0) {
      throw refuse("zip-multi-disk", "Split (multi-disk) archives are not supported.");
    }
    const end = {
      count: view.getUint16(i + 10, true),
      cdSize: view.getUint32(i + 12, true),
      cdOffset: view.getUint32(i + 16, true),
    };
    if (end.count === 0xffff || end.cdSize === 0xffffffff || end.cdOffset === 0xffffffff)
      return zip64End(source, view, i, tailStart);
    return end;
  }
  const head = await source.range(0, 4);
  const looksLikeZip = head[0] === 0x50 && head[1] === 0x4b;
  throw looksLikeZip
    ? refuse("zip-truncated", "The ZIP archive is truncated: its end record is missing.")
    : refuse("not-a-zip", "The file is not a ZIP archive.");
}

async function zip64End(source: ZipSource, tail: DataView, eocdAt: number, tailStart: number): Promise<EndRecord> {
  const locatorAt = eocdAt - 20;
  if (locatorAt < 0 || tail.getUint32(locatorAt, true) !== EOCD64_LOCATOR)
    throw refuse("zip-truncated", "The ZIP64 end record is missing.");
  const recordOffset = Number(tail.getBigUint64(locatorAt + 8, true));
  if (recordOffset + 56 > tailStart + eocdAt)
    throw refuse("zip-truncated", "The ZIP64 end record points outside the archive.");
  const record = await source.range(recordOffset, 56);
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  if (view.getUint32(0, true) !== EOCD64) throw refuse("zip-truncated", "The ZIP64 end record is corrupt.");
  return {
    count: Number(view.getBigUint64(32, true)),
    cdSize: Number(view.getBigUint64(40, true)),
    cdOffset: Number(view.getBigUint64(48, true)),
  };
}

interface RawRecord extends Omit<DirectoryEntry, "regionEnd"> {
  flags: number;
}

/** For an entry's local offset: the next local header (skipped entries included) or the central directory. */
function regionEnds(records: RawRecord[], cdOffset: number): (localOffset: number) => number {
  const starts = [...new Set(records.map((r) => r.localOffset))].filter(Number.isFinite).sort((a, b) => a - b);
  return (localOffset) => starts.find((start) => start > localOffset) ?? Math.max(cdOffset, localOffset);
}

function parseRecords(cd: Uint8Array, count: number): RawRecord[] {
  const view = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const records: RawRecord[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > cd.length || view.getUint32(at, true) !== CENTRAL)
      throw refuse("zip-truncated", "The archive's central directory is corrupt.");
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength + extraLength > cd.length)
      throw refuse("zip-truncated", "The archive's central directory is corrupt.");
    const nameBytes = cd.subarray(at + 46, at + 46 + nameLength);
    const record: RawRecord = {
      flags,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      // Bit 11 marks UTF-8; older tools write CP437, which we read as Latin-1 (close enough for names).
      name: flags & 0x800 ? new TextDecoder().decode(nameBytes) : latin1(nameBytes),
    };
    applyZip64Extra(record, cd.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength));
    records.push(record);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return records;
}

/** Byte by byte: spreading a 64 KB name into String.fromCharCode could overflow the call stack. */
function latin1(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

/**
 * ZIP64 extra field (id 1): the 64-bit sizes and offset, in this order, for each field saturated at
 * 0xFFFFFFFF. A saturated field the extra does not supply becomes NaN, so the record is refused as corrupt.
 */
function applyZip64Extra(record: RawRecord, extra: Uint8Array): void {
  const saturated = {
    size: record.size === 0xffffffff,
    compressedSize: record.compressedSize === 0xffffffff,
    localOffset: record.localOffset === 0xffffffff,
  };
  if (saturated.size) record.size = Number.NaN;
  if (saturated.compressedSize) record.compressedSize = Number.NaN;
  if (saturated.localOffset) record.localOffset = Number.NaN;
  const view = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (id === 1) {
      let field = at + 4;
      const next = () => {
        const value =
          field + 8 <= at + 4 + length && field + 8 <= extra.length
            ? Number(view.getBigUint64(field, true))
            : Number.NaN;
        field += 8;
        return value;
      };
      if (saturated.size) record.size = next();
      if (saturated.compressedSize) record.compressedSize = next();
      if (saturated.localOffset) record.localOffset = next();
    }
    at += 4 + length;
  }
}

/**
 * The entry's name as reported, or null for entries that are skipped (directories, macOS
 * resource forks, Finder/Explorer litter). Names that could escape a folder are refused.
 */
export function safeName(raw: string): string | null {
  const name = raw.replace(/\\/g, "/");
  if (/[\u0000-\u001f\u007f]/.test(name)) throw refuse("zip-unsafe-name", `An entry name contains control characters.`);
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name))
    throw refuse("zip-unsafe-name", `The entry "${name}" has an absolute path.`);
  const parts = name.split("/");
  if (parts.includes("..")) throw refuse("zip-unsafe-name", `The entry "${name}" points outside the archive ("..").`);
  if (name.endsWith("/")) return null;
  const base = parts[parts.length - 1];
  if (
    parts.includes("__MACOSX") ||
    base.startsWith("._") ||
    base === ".DS_Store" ||
    base === "Thumbs.db" ||
    base === "desktop.ini"
  )
    return null;
  const cleaned = parts.filter((p) => p !== "." && p !== "").join("/");
  // An empty name ("" or ".") would be reported as a file without a name.
  if (cleaned === "") throw refuse("zip-unsafe-name", "An entry has an empty name.");
  return cleaned;
}

function checkSizes(
  entry: Omit<DirectoryEntry, "regionEnd">,
  archiveSize: number,
  limits: IntakeLimits,
  budget: IntakeBudget,
): void {
  if (!Number.isFinite(entry.size) || !Number.isFinite(entry.compressedSize) || !Number.isFinite(entry.localOffset)) {
    throw refuse("zip-truncated", `The directory record of "${entry.name}" is corrupt.`);
  }
  if (entry.localOffset + entry.compressedSize > archiveSize) {
    throw refuse("zip-truncated", `The entry "${entry.name}" extends past the end of the archive: it is truncated.`);
  }
  if (entry.size > limits.maxEntryBytes) {
    throw refuse(
      "zip-bomb",
      `The entry "${entry.name}" would unpack to ${entry.size} bytes; at most ${limits.maxEntryBytes} are accepted per file.`,
    );
  }
  const ratio = entry.size / Math.max(entry.compressedSize, 1);
  if (entry.size >= limits.ratioCheckFromBytes && ratio > limits.maxRatio) {
    throw refuse(
      "zip-bomb",
      `The entry "${entry.name}" is compressed ${Math.round(ratio)}:1, which only zip bombs do.`,
    );
  }
  budget.bytes += entry.size;
  if (budget.bytes > limits.maxTotalBytes) {
    throw refuse("zip-bomb", `The archive would unpack to more than ${limits.maxTotalBytes} bytes.`);
  }
}

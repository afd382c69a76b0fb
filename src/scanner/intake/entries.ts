import { Inflate } from "fflate";
import { crc32 } from "../../lib/crc32";
import type { DirectoryEntry } from "./directory";
import { refuse } from "./refuse";
import { ArchiveEndedEarly, ByteCursor, EntriesOverlap, type ZipSource } from "./source";

/** An entry's bytes, or why they could not be extracted (the file is then reported as `-`). */
export type RawEntry =
  | { ok: true; entry: DirectoryEntry; bytes: Uint8Array }
  | { ok: false; entry: DirectoryEntry; problem: "corrupt" | "unsupported-compression" };

const LOCAL_HEADER = 0x04034b50;

/** Compression methods we inflate: stored and deflate. Others (bzip2 12, LZMA 14, …) give a `-` file. */
const SUPPORTED_METHODS = new Set([0, 8]);

/**
 * Streams the archive once, front to back, and yields each entry's inflated bytes in turn:
 * only one entry is in memory at a time. The consumer finishes with one before the next is read.
 */
export async function* readEntries(source: ZipSource, entries: DirectoryEntry[]): AsyncGenerator<RawEntry> {
  const reader = (await source.stream()).getReader();
  const cursor = new ByteCursor(reader);
  try {
    for (const entry of entries) {
      // Entries whose data overlaps an earlier one (a known bomb trick) are read no further.
      if (entry.localOffset < cursor.offset) throw overlaps(entry);
      yield await readOne(cursor, entry, source.size).catch((err: unknown) => {
        if (err instanceof ArchiveEndedEarly)
          throw refuse("zip-truncated", `The archive ends inside the entry "${entry.name}".`);
        if (err instanceof EntriesOverlap) throw overlaps(entry);
        throw err;
      });
    }
  } finally {
    await cursor.close();
  }
}

const overlaps = (entry: DirectoryEntry) => refuse("zip-bomb", `The entry "${entry.name}" overlaps another entry.`);

/**
 * One entry from its local header on. The directory's sizes and method are what we trust; the
 * local header only has to agree with them. Where it does not, the entry is a broken file (`-`),
 * unless its lengths run past the end of the archive, which is a truncated archive (422).
 */
async function readOne(cursor: ByteCursor, entry: DirectoryEntry, archiveSize: number): Promise<RawEntry> {
  await cursor.skipTo(entry.localOffset);
  const header = await cursor.take(30);
  const view = new DataView(header.buffer);
  if (view.getUint32(0, true) !== LOCAL_HEADER) return { ok: false, entry, problem: "corrupt" };
  const localMethod = view.getUint16(8, true);
  const dataStart = cursor.offset + view.getUint16(26, true) + view.getUint16(28, true);
  if (dataStart + entry.compressedSize > archiveSize) {
    throw refuse(
      "zip-truncated",
      `The local header of "${entry.name}" says its data runs past the end of the archive: it is truncated or corrupt.`,
    );
  }
  // Lengths that reach into the next entry or the directory: leave the cursor here, so the next entry is still read.
  if (dataStart + entry.compressedSize > entry.regionEnd) return { ok: false, entry, problem: "corrupt" };
  await cursor.skipTo(dataStart);
  const skipData = () => cursor.skipTo(dataStart + entry.compressedSize);
  if (!SUPPORTED_METHODS.has(entry.method) || !SUPPORTED_METHODS.has(localMethod)) {
    await skipData();
    return { ok: false, entry, problem: "unsupported-compression" };
  }
  // A method that differs between the headers, or a stored entry whose two sizes differ, cannot both be right.
  if (localMethod !== entry.method || (entry.method === 0 && entry.compressedSize !== entry.size)) {
    await skipData();
    return { ok: false, entry, problem: "corrupt" };
  }
  const sink = new BoundedSink(entry);
  const inflate = entry.method === 8 ? new Inflate((data) => sink.write(data)) : null;
  let failed = false;
  await cursor.forEach(entry.compressedSize, (chunk) => {
    if (failed) return;
    try {
      if (inflate) inflate.push(chunk, false);
      else sink.write(chunk);
    } catch (err) {
      if (err instanceof SizeExceeded)
        throw refuse("zip-bomb", `The entry "${entry.name}" unpacks to more than its declared ${entry.size} bytes.`);
      failed = true;
    }
  });
  if (!failed && inflate) {
    try {
      inflate.push(new Uint8Array(0), true);
    } catch {
      failed = true;
    }
  }
  const bytes = sink.result();
  if (failed || bytes === null || crc32(bytes) !== entry.crc) return { ok: false, entry, problem: "corrupt" };
  return { ok: true, entry, bytes };
}

class SizeExceeded extends Error {}

/** Collects inflated bytes into a buffer of the declared size and stops at the first byte beyond it. */
class BoundedSink {
  private readonly buffer: Uint8Array;
  private filled = 0;

  constructor(private readonly entry: DirectoryEntry) {
    this.buffer = new Uint8Array(entry.size);
  }

  write(data: Uint8Array): void {
    if (this.filled + data.length > this.entry.size) throw new SizeExceeded();
    this.buffer.set(data, this.filled);
    this.filled += data.length;
  }

  /** The bytes, or null when fewer came out than declared. */
  result(): Uint8Array | null {
    return this.filled === this.entry.size ? this.buffer : null;
  }
}

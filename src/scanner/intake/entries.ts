import { Inflate } from "fflate";
import { crc32 } from "../../lib/crc32";
import type { DirectoryEntry } from "./directory";
import { refuse } from "./refuse";
import { ByteCursor, type ZipSource } from "./source";

/** An entry's bytes, or why they could not be extracted (the file is then reported as `-`). */
export type RawEntry =
  | { ok: true; entry: DirectoryEntry; bytes: Uint8Array }
  | { ok: false; entry: DirectoryEntry; problem: "corrupt" | "unsupported-compression" };

const LOCAL_HEADER = 0x04034b50;

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
      if (entry.localOffset < cursor.offset) throw refuse("zip-bomb", `The entry "${entry.name}" overlaps another entry.`);
      await cursor.skipTo(entry.localOffset);
      yield await readOne(cursor, entry);
    }
  } finally {
    await cursor.close();
  }
}

async function readOne(cursor: ByteCursor, entry: DirectoryEntry): Promise<RawEntry> {
  const header = await cursor.take(30).catch(() => {
    throw refuse("zip-truncated", `The archive ends inside the entry "${entry.name}".`);
  });
  const view = new DataView(header.buffer);
  if (view.getUint32(0, true) !== LOCAL_HEADER) return { ok: false, entry, problem: "corrupt" };
  await cursor.skipTo(cursor.offset + view.getUint16(26, true) + view.getUint16(28, true));
  if (entry.method !== 0 && entry.method !== 8) {
    await cursor.skipTo(cursor.offset + entry.compressedSize);
    return { ok: false, entry, problem: "unsupported-compression" };
  }
  const sink = new BoundedSink(entry);
  const inflate = entry.method === 8 ? new Inflate((data) => sink.write(data)) : null;
  let failed = false;
  await cursor
    .forEach(entry.compressedSize, (chunk) => {
      if (failed) return;
      try {
        if (inflate) inflate.push(chunk, false);
        else sink.write(chunk);
      } catch (err) {
        if (err instanceof SizeExceeded) throw refuse("zip-bomb", `The entry "${entry.name}" unpacks to more than its declared ${entry.size} bytes.`);
        failed = true;
      }
    })
    .catch((err) => {
      if (err instanceof Error && err.message === "archive ended early") throw refuse("zip-truncated", `The archive ends inside the entry "${entry.name}".`);
      throw err;
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

/** Random access plus one sequential pass over a ZIP held in R2 or in memory. */
export interface ZipSource {
  size: number;
  range(offset: number, length: number): Promise<Uint8Array>;
  /** The whole archive as a stream, read once front to back. */
  stream(): Promise<ReadableStream<Uint8Array>>;
}

export function memorySource(bytes: Uint8Array): ZipSource {
  return {
    size: bytes.length,
    range: async (offset, length) => bytes.subarray(offset, offset + length),
    stream: async () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      }),
  };
}

/** An R2 object; the directory is read with range requests, the entries in one streaming GET. */
export async function r2Source(bucket: R2Bucket, key: string): Promise<ZipSource | null> {
  const head = await bucket.head(key);
  if (!head) return null;
  const read = async (options?: R2GetOptions) => {
    const object = await bucket.get(key, options);
    if (!object) throw new Error(`R2 object ${key} vanished while reading`);
    return object;
  };
  return {
    size: head.size,
    // R2 refuses an empty range; an empty central directory (a ZIP without entries) asks for one.
    range: async (offset, length) =>
      length === 0
        ? new Uint8Array(0)
        : new Uint8Array(await (await read({ range: { offset, length } })).arrayBuffer()),
    stream: async () => (await read()).body,
  };
}

/**
 * The stream ended before the bytes a header promised. Intake turns it into a 422
 * `zip-truncated` naming the entry, so it never escapes as a plain Error (a 500).
 */
export class ArchiveEndedEarly extends Error {
  constructor() {
    super("archive ended early");
  }
}

/** A forward-only cursor was asked to go back: two entries claim the same bytes. */
export class EntriesOverlap extends Error {
  constructor() {
    super("entries overlap");
  }
}

/** Reads a stream forwards: skip to an offset, take n bytes, or hand n bytes on chunk by chunk. */
export class ByteCursor {
  private position = 0;
  private pending: Uint8Array = new Uint8Array(0);
  private done = false;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  get offset(): number {
    return this.position;
  }

  async skipTo(offset: number): Promise<void> {
    if (offset < this.position) throw new EntriesOverlap();
    await this.forEach(offset - this.position, () => undefined);
  }

  async take(length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    let filled = 0;
    await this.forEach(length, (chunk) => {
      out.set(chunk, filled);
      filled += chunk.length;
    });
    return out;
  }

  /** Passes the next `length` bytes to `onChunk`; throws if the stream ends first. */
  async forEach(length: number, onChunk: (chunk: Uint8Array) => void): Promise<void> {
    let left = length;
    while (left > 0) {
      if (this.pending.length === 0) await this.fill();
      const chunk = this.pending.subarray(0, Math.min(left, this.pending.length));
      this.pending = this.pending.subarray(chunk.length);
      this.position += chunk.length;
      left -= chunk.length;
      onChunk(chunk);
    }
  }

  async close(): Promise<void> {
    if (!this.done) await this.reader.cancel().catch(() => undefined);
  }

  private async fill(): Promise<void> {
    if (this.done) throw new ArchiveEndedEarly();
    const { value, done } = await this.reader.read();
    if (done) {
      this.done = true;
      throw new ArchiveEndedEarly();
    }
    this.pending = value;
  }
}

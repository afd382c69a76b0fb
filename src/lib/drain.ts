/** How much of a refused body is read and dropped before it is cancelled instead. */
export const DRAIN_MAX_BYTES = 1024 * 1024;

/**
 * Reads a refused body to its end (at most DRAIN_MAX_BYTES, then cancels it) so the connection can
 * carry the answer and the next request: under `wrangler dev` an answer sent while the caller was
 * still sending broke the dev proxy's connection (issue 19; docs/scanner-api.md "Refused request bodies").
 */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let drained = 0;
  try {
    while (drained <= DRAIN_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The caller went away: nothing left to drain.
  }
}

/** Drains the request's body unless a handler already took it. */
export async function drainUnread(request: Request): Promise<void> {
  if (request.body && !request.body.locked && !request.bodyUsed) await drain(request.body.getReader());
}

/** Reads a body of at most `max` bytes; a longer one is drained (as above) and null is returned. */
export async function readAtMost(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await drain(reader);
      return null;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}

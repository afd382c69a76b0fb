/** What became of the caller's side of an upload body while it was streamed into storage. */
export interface BodyWatch {
  received: number;
  ended: boolean;
  failed: boolean;
}

/**
 * The request body as a stream that records whether the caller's side failed or ended early, so
 * that a body shorter than its Content-Length (a client that went away, or one that lied) is told
 * apart from a storage failure: the first is the caller's 400, the second our 500 (issue 19).
 */
export function watchBody(body: ReadableStream<Uint8Array>): { stream: ReadableStream<Uint8Array>; watch: BodyWatch } {
  const watch: BodyWatch = { received: 0, ended: false, failed: false };
  const reader = body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        watch.failed = true;
        throw err;
      }
      if (chunk.done) {
        watch.ended = true;
        controller.close();
        return;
      }
      watch.received += chunk.value.byteLength;
      controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, watch };
}

/** True when the caller sent fewer (or more) bytes than declared, or the connection broke while sending. */
export function bodyCutShort(watch: BodyWatch, declared: number): boolean {
  return watch.failed || (watch.ended && watch.received !== declared);
}

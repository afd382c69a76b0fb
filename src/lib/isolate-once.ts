/**
 * Isolate-wide set-up that many Durable Objects and requests share (a model session, a library's
 * lazily loaded module). In workerd a promise resolved in one object's turn resumes its awaiters in
 * that turn: an object that awaited another's pending set-up would then do its own I/O on the other's
 * behalf ("Cannot perform I/O on behalf of a different Durable Object"), its alarm would fail and the
 * test pool's reporting channel with it. So one set-up runs at a time, awaited only by the caller that
 * started it; the others wait with their own timers and then read the finished value.
 */
const WAIT_MS = 20;

export class IsolateOnce<K, T> {
  private readonly done = new Map<K, T>();
  private busy = false;

  async get(key: K, create: () => Promise<T>): Promise<T> {
    for (;;) {
      if (this.done.has(key)) return this.done.get(key) as T;
      if (!this.busy) break;
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    }
    this.busy = true;
    try {
      const value = await create();
      this.done.set(key, value);
      return value;
    } finally {
      // A failed set-up leaves nothing behind, so a later call may try again.
      this.busy = false;
    }
  }
}

/**
 * A value set up on first use and shared by the whole isolate, one set-up at a time (above): e.g. a
 * module graph loaded with `import()` only by the invocations that need it.
 */
export function lazily<T>(create: () => Promise<T>): () => Promise<T> {
  const once = new IsolateOnce<"value", T>();
  return () => once.get("value", create);
}

/**
 * How many files one isolate analyses at once. Units of many requests can land in one isolate
 * (128 MB in production; everything in one process locally), so decoding is admitted a few at a
 * time. Waiters poll instead of awaiting a shared promise: a promise resolved from another
 * request's context is not safe to await in workerd. A slot held longer than its lease (a hung
 * analyzer) is taken back, so one stuck file cannot block the isolate.
 */
const MAX_ACTIVE = 2;
const POLL_MS = 50;
const held = new Map<symbol, number>();

export async function acquireSlot(leaseMs: number): Promise<() => void> {
  for (;;) {
    const now = Date.now();
    for (const [slot, since] of held) if (now - since > leaseMs) held.delete(slot);
    if (held.size < MAX_ACTIVE) {
      const slot = Symbol("slot");
      held.set(slot, now);
      return () => held.delete(slot);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + Math.random() * POLL_MS));
  }
}

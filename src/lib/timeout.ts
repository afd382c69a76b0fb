/** The promise's value, or `fallback` once `ms` have passed first (the timer is always cleared). */
export async function settleWithin<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const TIMED_OUT = Symbol("timed out");

/** The promise's value, or an error naming `what` once `ms` have passed first. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const value = await settleWithin(promise, ms, TIMED_OUT);
  if (value === TIMED_OUT) throw new Error(`${what} took longer than ${ms} ms`);
  return value;
}

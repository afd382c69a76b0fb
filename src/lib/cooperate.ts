/**
 * Long CPU work (decoding a 49 MP photo takes seconds) must not hold the isolate: other requests of
 * other accounts share it. A loop calls the returned function once per row; every `every` calls it
 * gives up one macrotask turn, so queued requests run in between. Time cannot be
 * used for this: workerd's clock stands still while JavaScript runs.
 */
export function cooperative(every: number): () => Promise<void> {
  let calls = 0;
  return () => (++calls % every === 0 ? new Promise(macrotask) : Promise.resolve());
}

const { setImmediate: immediate } = globalThis as { setImmediate?: (callback: () => void) => unknown };

/**
 * Runs `callback` in a later macrotask: `setImmediate` where there is one (workerd with nodejs_compat, and Node, whose
 * `setTimeout(…, 0)` waits at least 1 ms: ≈ 9 ms idle per 0.4 MP photo's pass in the bench and eval scripts;
 * docs/benchmarks.md, "The small photo's pass, fixed costs"), else `setTimeout(…, 0)`.
 */
function macrotask(callback: () => void): void {
  if (immediate) immediate(callback);
  else setTimeout(callback, 0);
}

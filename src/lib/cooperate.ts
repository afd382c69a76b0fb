/**
 * Long CPU work (decoding a 49 MP photo takes seconds) must not hold the isolate: other requests of
 * other accounts share it. A loop calls the returned function once per row; every `every` calls it
 * gives up one macrotask turn (setTimeout 0), so queued requests run in between. Time cannot be
 * used for this: workerd's clock stands still while JavaScript runs.
 */
export function cooperative(every: number): () => Promise<void> {
  let calls = 0;
  return () => (++calls % every === 0 ? new Promise((resolve) => setTimeout(resolve, 0)) : Promise.resolve());
}

/**
 * `compute` at most once per object (a file's block maps, its coefficient statistics): every detector
 * that reads the result gets the same one. Held as long as the object is (a WeakMap). Callers must not
 * change what they are given.
 */
export function oncePer<K extends object, T>(compute: (key: K) => T): (key: K) => T {
  const results = new WeakMap<K, T>();
  return (key) => {
    let result = results.get(key);
    if (result === undefined) {
      result = compute(key);
      results.set(key, result);
    }
    return result;
  };
}

/**
 * Comparing our metadata values with the INDEX.tsv columns of ../shared/data. INDEX.tsv was written from
 * `exiftool -j`, whose JSON prints number-like text as a number, which the index writer then re-printed
 * (Software "1.00" became 1.0): so two values that both parse as numbers are compared as numbers.
 */
export function sameAsExiftool(expected: string | null, actual: string | null): boolean {
  if (expected === actual) return true;
  if (expected === null || actual === null || !expected.trim() || !actual.trim()) return false;
  const [e, a] = [Number(expected), Number(actual)];
  return Number.isFinite(e) && Number.isFinite(a) && e === a;
}

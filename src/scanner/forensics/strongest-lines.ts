/**
 * The candidate lines of the blur and cut-edge searches: the lines whose run maximum (an integer count of steps)
 * reaches a floor, the strongest first. Counted into one list per count (each in ascending line order) instead of
 * sorted: the same lines in the same order as sorting by count, descending, then by line, and taking the first `n`.
 */
export function strongestLines(most: Uint16Array, atLeast: number, n: number): number[] {
  const byCount: number[][] = [];
  let highest = -1;
  for (let k = 0; k < most.length; k++) {
    const count = most[k];
    if (count < atLeast) continue;
    (byCount[count] ??= []).push(k);
    if (count > highest) highest = count;
  }
  const lines: number[] = [];
  for (let count = highest; count >= 0 && lines.length < n; count--)
    for (const k of byCount[count] ?? []) {
      lines.push(k);
      if (lines.length === n) break;
    }
  return lines;
}

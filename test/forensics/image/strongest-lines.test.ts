// The blur and cut-edge searches' candidate lines (strongest-lines.ts) against their definition: sorted by run
// maximum, descending, then by line, the first n of those reaching the floor.
import { describe, expect, it } from "vitest";
import { strongestLines } from "../../../src/scanner/forensics/strongest-lines";

function bySorting(most: Uint16Array, atLeast: number, n: number): number[] {
  return Array.from(most.keys())
    .filter((k) => most[k] >= atLeast)
    .sort((a, b) => most[b] - most[a] || a - b)
    .slice(0, n);
}

describe("strongestLines", () => {
  it("gives the sorted definition's lines in its order (ties, floors, fewer lines than asked, none)", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (const [length, top] of [
      [0, 5],
      [1, 5],
      [17, 3],
      [750, 33],
      [563, 25],
      [2000, 2],
    ])
      for (const [atLeast, n] of [
        [0, 40],
        [12, 40],
        [16, 40],
        [16, 1],
        [top + 1, 40],
      ]) {
        const most = Uint16Array.from({ length }, () => Math.floor(random() * (top + 1)));
        expect(strongestLines(most, atLeast, n), `${length} lines up to ${top}, ≥ ${atLeast}, ${n}`).toEqual(
          bySorting(most, atLeast, n),
        );
      }
  });
});

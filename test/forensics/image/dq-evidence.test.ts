import { describe, expect, it } from "vitest";
import { dqEvidenceMap, histogramRatios } from "../../../src/scanner/forensics/dq-evidence";
import { fitFrequency } from "../../../src/scanner/forensics/double-quantisation";
import { anomalyRegions } from "../../../src/scanner/images/anomaly";

// A picture of 64 × 48 blocks with three modelled frequencies: every value drawn from a Laplacian, quantised
// with step 5, decoded and quantised again with step 3 (saved twice), except in an edited rectangle of
// 20 × 16 blocks, where it is quantised once with step 3 (the edit lost the first save's pattern).
const W = 64;
const H = 48;
const FREQUENCIES = 3;
const RANGE = 64;
const EDIT = { x: 22, y: 16, w: 20, h: 16 };
const inEdit = (x: number, y: number) => x >= EDIT.x && x < EDIT.x + EDIT.w && y >= EDIT.y && y < EDIT.y + EDIT.h;

/** Deterministic uniform numbers in (0, 1) (a linear congruential generator: the test must not vary). */
function uniforms(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
}

function picture(edited: boolean) {
  const next = uniforms(17);
  const coefficients = new Int16Array(W * H * FREQUENCIES);
  const histograms = new Int32Array(FREQUENCIES * (2 * RANGE + 1));
  const low = new Uint8Array(W * H).fill(40);
  const high = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      high[i] = 60 + ((x * 7 + y * 13) % 150);
      for (let f = 0; f < FREQUENCIES; f++) {
        const u = next() - 0.5;
        const value = -12 * Math.sign(u) * Math.log(1 - 2 * Math.abs(u));
        const v = edited && inEdit(x, y) ? Math.round(value / 3) : Math.round((5 * Math.round(value / 5)) / 3);
        coefficients[i * FREQUENCIES + f] = v;
        if (Math.abs(v) <= RANGE) histograms[f * (2 * RANGE + 1) + v + RANGE]++;
      }
    }
  const fits = Array.from({ length: FREQUENCIES }, (_, f) =>
    fitFrequency(histograms.subarray(f * (2 * RANGE + 1), (f + 1) * (2 * RANGE + 1)), 3, RANGE),
  );
  const ratios = histogramRatios(histograms, fits, RANGE);
  const input = { blocksWide: W, blocksHigh: H, coefficients, frequencies: FREQUENCIES, range: RANGE, low, high };
  return { ratios, map: dqEvidenceMap(input, ratios) };
}

describe("double-quantisation evidence from the picture's own histograms", () => {
  it("reads the values the first save left empty as 'quantised once' and the ones it filled as 'twice'", () => {
    const { ratios } = picture(true);
    expect(ratios.map((r) => r.index)).toEqual([0, 1, 2]);
    // Second-save values are round(5·v / 3) = 0, 2, 3, 5, 7, …: ±1 hold only the edit's values.
    for (const { llr } of ratios) {
      expect(llr[RANGE + 1]).toBeGreaterThan(1);
      expect(llr[RANGE - 1]).toBeGreaterThan(1);
      for (const hit of [2, 3, 5, -2, -3]) expect(llr[RANGE + hit]).toBeLessThan(0);
    }
  });

  it("stands out over the rectangle edited between the two saves and nowhere else", () => {
    const { map } = picture(true);
    const [top] = anomalyRegions(map, W, H, 3);
    expect(top.meanScore).toBeGreaterThan(6);
    // The window reaches 4 blocks past the edit.
    expect(top.x).toBeGreaterThanOrEqual(EDIT.x - 4);
    expect(top.y).toBeGreaterThanOrEqual(EDIT.y - 4);
    expect(top.x + top.width).toBeLessThanOrEqual(EDIT.x + EDIT.w + 4);
    expect(top.y + top.height).toBeLessThanOrEqual(EDIT.y + EDIT.h + 4);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        if (
          Math.abs(x - (EDIT.x + EDIT.w / 2)) > EDIT.w / 2 + 4 ||
          Math.abs(y - (EDIT.y + EDIT.h / 2)) > EDIT.h / 2 + 4
        )
          expect(map[y * W + x]).toBeLessThan(3);
  });

  it("has no area of that strength when nothing was edited", () => {
    const { map } = picture(false);
    expect(anomalyRegions(map, W, H, 3).every((r) => r.meanScore < 6)).toBe(true);
  });

  it("does not judge blocks touching black or white (NaN where most of a window is clipped)", () => {
    const next = uniforms(3);
    const n = W * H;
    const coefficients = Int16Array.from({ length: n * FREQUENCIES }, () => Math.round(next() * 6) - 3);
    const input = {
      blocksWide: W,
      blocksHigh: H,
      coefficients,
      frequencies: FREQUENCIES,
      range: RANGE,
      low: new Uint8Array(n),
      high: new Uint8Array(n).fill(255),
    };
    const llr = new Float32Array(2 * RANGE + 1).fill(1);
    expect(dqEvidenceMap(input, [{ index: 0, llr }]).every(Number.isNaN)).toBe(true);
  });
});

// anomaly.ts `relativeToPeers` and `smoothGrid` against their kernels (wasm/assembly/peer-bins.ts through
// images/peer-bins-wasm.ts): the same f32 values, Object.is for every block (NaN included).
import { describe, expect, it } from "vitest";
import { ELA_FLAT_ACTIVITY, elaScores } from "../../../src/scanner/forensics/ela";
import { NOISE_MAX_ACTIVITY, NOISE_MIN_SIGMA, noiseScores } from "../../../src/scanner/forensics/noise";
import { relativeToPeers, smoothGrid } from "../../../src/scanner/images/anomaly";
import { type BlockMaps, blockMaps } from "../../../src/scanner/images/block-analysis";
import { relativeToPeersWasm, smoothedPeerRatios, smoothGridWasm } from "../../../src/scanner/images/peer-bins-wasm";
import { seededRandom as random, sharedFile } from "./fixtures";

function differing(a: Float32Array, b: Float32Array): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

function expectSamePeers(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
  bins: number,
  floor: number,
  what: string,
): Float32Array {
  const reference = relativeToPeers(values, covariate, reliable, bins, floor);
  expect(differing(relativeToPeersWasm(values, covariate, reliable, bins, floor), reference), what).toBe(0);
  return reference;
}

function expectSameSmooth(values: Float32Array, w: number, h: number, radius: number, what: string): void {
  expect(differing(smoothGridWasm(values, w, h, radius), smoothGrid(values, w, h, radius)), what).toBe(0);
}

/** ELA's and noise's peer inputs (ela.ts `elaScores`, noise.ts `noiseScores`), compared step by step. */
function expectSameOnMaps(maps: BlockMaps, what: string): void {
  const n = maps.ela.length;
  const elaReliable = new Uint8Array(n);
  const noiseReliable = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    elaReliable[i] = !maps.clipped[i] && maps.activity[i] >= ELA_FLAT_ACTIVITY ? 1 : 0;
    noiseReliable[i] =
      !maps.clipped[i] && maps.activity[i] <= NOISE_MAX_ACTIVITY && maps.noise[i] >= NOISE_MIN_SIGMA ? 1 : 0;
  }
  const { blocksWide: w, blocksHigh: h } = maps;
  const ela = expectSamePeers(maps.ela, maps.activity, elaReliable, 12, 0.05, `${what} ELA`);
  const elaSmooth = smoothGrid(ela, w, h, 2);
  expect(differing(elaScores(maps), elaSmooth), `${what} ELA scores`).toBe(0);
  expectSameSmooth(ela, w, h, 2, `${what} ELA smoothed`);
  const noise = expectSamePeers(maps.noise, maps.activity, noiseReliable, 12, NOISE_MIN_SIGMA, `${what} noise`);
  expectSameSmooth(noise, w, h, 2, `${what} noise smoothed`);
  const negated = smoothGrid(noise, w, h, 2).map((v) => -v);
  expect(differing(noiseScores(maps), negated), `${what} noise scores`).toBe(0);
}

describe("peer comparison of ELA and noise: the kernels give anomaly.ts's values", () => {
  it("on the block maps of shared photos (4:2:0, 4:2:2, grey, odd sizes) as ELA and noise use them", async () => {
    for (const path of [
      "photos/opencv-doc/leuvenA.jpg",
      "photos/opencv-doc/board.jpg",
      "photos/opencv-doc/ela_modified.jpg",
      "photos/opencv-doc/text_motion.jpg",
      "photos/plasma-workspace-wallpapers/ColdRipple-2560x1600.jpg",
      "exif-samples/jpg/Canon_40D.jpg",
    ]) {
      const result = await blockMaps(await sharedFile(path));
      if (!result.ok) throw new Error(result.reason);
      expectSameOnMaps(result.maps, path);
    }
  });

  it("on grids of every shape, with tied covariates, ±0, NaN values, short and empty last bins", () => {
    for (const [w, h, bins, share] of [
      [1, 1, 12, 1],
      [7, 7, 12, 1],
      [49, 1, 12, 1],
      [1, 61, 12, 0.9],
      [13, 5, 1, 0.7],
      [63, 41, 12, 0.5],
      [63, 41, 13, 0.95],
      [137, 71, 5, 0.3],
      [200, 3, 12, 0.8],
    ]) {
      const next = random(w * 977 + h * 13 + bins);
      const n = w * h;
      const values = new Float32Array(n);
      const covariate = new Float32Array(n);
      const reliable = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        reliable[i] = next() < share ? 1 : 0;
        // Few distinct covariates (ties decided by index), signed zeros among them; values around the floor.
        covariate[i] = [0, -0, 1.5, 2, 2, 40, -3][Math.floor(next() * 7)];
        values[i] = next() < 0.05 ? -0 : next() * 0.2 + (next() < 0.5 ? 0 : next() * 50);
      }
      const what = `${w}×${h}, ${bins} bins`;
      const ratios = expectSamePeers(values, covariate, reliable, bins, 0.05, what);
      expectSamePeers(values, covariate, reliable, bins, 0.3, `${what}, floor 0.3`);
      for (const radius of [0, 2])
        expect(
          differing(
            smoothedPeerRatios(values, covariate, reliable, w, h, radius, bins),
            smoothGrid(ratios, w, h, radius),
          ),
          `${what} smoothed, radius ${radius}`,
        ).toBe(0);
      // NaN values: fewer than half of some bins, then most of every bin (their middle is NaN).
      for (const nanShare of [0.2, 0.8]) {
        const withNaN = values.map((v) => (next() < nanShare ? Number.NaN : v));
        expectSamePeers(withNaN, covariate, reliable, bins, 0.05, `${what}, NaN ${nanShare}`);
      }
    }
  });

  it("with covariates spread over many octaves and signs (runs ending inside and at the edge of a bucket)", () => {
    for (const [n, bins] of [
      [5000, 12],
      [4801, 7],
      [999, 12],
    ]) {
      const next = random(n + bins);
      const values = Float32Array.from({ length: n }, () => next() * 8);
      // Subnormals, ±0, negatives, values from 1e-30 to 1e30, runs of equal values, and a NaN covariate.
      const covariate = Float32Array.from({ length: n }, (_, i) => {
        const r = next();
        if (i % 97 === 0) return 1e-40;
        if (i % 89 === 0) return i % 2 ? -0 : 0;
        if (r < 0.1) return 42;
        const magnitude = 10 ** (next() * 60 - 30);
        return r < 0.3 ? -magnitude : magnitude;
      });
      covariate[3] = Number.NaN;
      expectSamePeers(values, covariate, new Uint8Array(n).fill(1), bins, 0.05, `${n} spread`);
    }
  });

  it("with 49 reliable blocks in 12 bins (runs of 5: the last two bins empty) and with 47 (too few: all NaN)", () => {
    for (const count of [47, 48, 49]) {
      const next = random(count);
      const values = Float32Array.from({ length: 60 }, () => next() * 10);
      const covariate = Float32Array.from({ length: 60 }, () => next() * 100);
      const reliable = Uint8Array.from({ length: 60 }, (_, i) => (i < count ? 1 : 0));
      expectSamePeers(values, covariate, reliable, 12, 0.05, `${count} reliable`);
    }
  });

  it("with more bins than a byte numbers (300) and arrays of other lengths, as the reference", () => {
    const next = random(300);
    const values = Float32Array.from({ length: 2000 }, () => next() * 10);
    const covariate = Float32Array.from({ length: 2000 }, () => next() * 100);
    const reliable = new Uint8Array(2000).fill(1);
    expectSamePeers(values, covariate, reliable, 300, 0.05, "300 bins");
    expectSamePeers(values, covariate.subarray(0, 1990), reliable, 12, 0.05, "a shorter covariate");
    expectSamePeers(values.subarray(0, 1500), covariate, reliable, 12, 0.05, "shorter values");
  });

  it("with runs in sorted, reversed, constant and alternating order (the selection's hard cases)", () => {
    const n = 4001;
    const orders: Record<string, (i: number) => number> = {
      sorted: (i) => i,
      reversed: (i) => n - i,
      constant: () => 7,
      alternating: (i) => (i % 2 ? i : n - i),
      pipe: (i) => Math.min(i, n - i),
    };
    for (const [name, f] of Object.entries(orders)) {
      const values = Float32Array.from({ length: n }, (_, i) => f(i) / 10);
      const covariate = Float32Array.from({ length: n }, (_, i) => f(n - 1 - i));
      expectSamePeers(values, covariate, new Uint8Array(n).fill(1), 12, 0.05, name);
    }
  });

  it("smooths grids of every shape with NaN holes, at radii 0–3, and a grid shorter than its size as the reference", () => {
    for (const [w, h] of [
      [1, 1],
      [1, 9],
      [9, 1],
      [5, 5],
      [63, 41],
      [137, 71],
    ]) {
      const next = random(w * 31 + h);
      for (const holes of [0, 0.4, 0.9]) {
        const values = Float32Array.from({ length: w * h }, () => (next() < holes ? Number.NaN : next() * 4 - 2));
        for (const radius of [0, 1, 2, 3])
          expectSameSmooth(values, w, h, radius, `${w}×${h} holes ${holes} r ${radius}`);
      }
    }
    const values = Float32Array.from({ length: 30 }, (_, i) => i / 7);
    expectSameSmooth(values, 8, 4, 2, "30 values for 8 × 4");
  });
});

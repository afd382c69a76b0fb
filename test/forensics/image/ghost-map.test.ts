// JPEG ghost maps (src/scanner/forensics/ghost-map.ts: the window averages by the wasm kernel
// wasm/assembly/ghost-map.ts, z-scores as a table of byte values, regions searched on the bytes) against
// their JavaScript reference (ghost-map-reference.ts): the same normalised bytes, the same quality,
// direction and region, the same map value for value (Object.is).
import { describe, expect, it } from "vitest";
import { type GhostInput, ghostVerdict, normalisedGhosts } from "../../../src/scanner/forensics/ghost-map";
import { referenceGhostVerdict, referenceNormalisedGhosts } from "../../../src/scanner/forensics/ghost-map-reference";
import { dctBlocks, GHOST_QUALITIES, GHOST_SCALE } from "../../../src/scanner/forensics/jpeg-dct-blocks";
import { GHOST_THRESHOLDS } from "../../../src/scanner/forensics/jpeg-ghost";
import { croppedJpeg } from "./cropped-jpeg";
import { generatedFile, sharedFile } from "./fixtures";

const { blockScore, maxShare } = GHOST_THRESHOLDS;

/** Positions where two arrays differ (Object.is: −0 and NaN count), plus the length difference. */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** What differs between the fast maps and verdict and the reference's (all 0 when identical). */
function differences(input: GhostInput, score = blockScore, share = maxShare) {
  const fast = ghostVerdict(input, score, share);
  const reference = referenceGhostVerdict(input, score, share);
  const { maps, counts } = normalisedGhosts(input);
  const referenceNormalised = referenceNormalisedGhosts(input);
  // The kernel's count of each byte value per quality, against counting the reference's bytes.
  const referenceCounts = referenceNormalised.map((map) => {
    const c = new Float64Array(256);
    for (const v of map) c[v]++;
    return c;
  });
  return {
    normalised:
      maps.reduce((n, map, q) => n + differing(map, referenceNormalised[q]), 0) +
      counts.reduce((n, c, q) => n + differing(c, referenceCounts[q]), 0),
    map: differing(fast.map, reference.map),
    choice:
      JSON.stringify([fast.quality, fast.direction, fast.region]) ===
      JSON.stringify([reference.quality, reference.direction, reference.region])
        ? 0
        : 1,
    region: fast.region,
  };
}

const SAME = { normalised: 0, map: 0, choice: 0 };

async function inputOf(bytes: Uint8Array): Promise<GhostInput> {
  const decoded = await dctBlocks(bytes);
  if (!decoded.ok) throw new Error(decoded.reason);
  const b = decoded.blocks;
  return {
    blocksWide: b.blocksWide,
    blocksHigh: b.blocksHigh,
    errors: b.ghost,
    qualities: GHOST_QUALITIES,
    scale: GHOST_SCALE,
  };
}

const FILES = [
  { what: "a phone photo, 751 × 563 (leuvenA)", file: () => sharedFile("photos/opencv-doc/leuvenA.jpg") },
  { what: "a patch of another photo pasted in", file: () => generatedFile("localised/splice.jpg") },
  { what: "a brightened rectangle", file: () => generatedFile("localised/bright.jpg") },
  { what: "a patch on another grid", file: () => generatedFile("grid/splice-shifted.jpg") },
  { what: "progressive, 902 × 770", file: () => sharedFile("photos/opencv-doc/ela_original.jpg") },
];

describe("JPEG ghost maps: the fast maps and verdict are the reference's", () => {
  for (const { what, file } of FILES)
    it(what, async () => {
      const d = differences(await inputOf(await file()));
      expect({ normalised: d.normalised, map: d.map, choice: d.choice }).toEqual(SAME);
      expect(d.region?.blocks).toBeGreaterThan(0);
    });

  it("at sizes that are not multiples of 8 or 16 (1 × 1 … 137 × 71)", async () => {
    for (const [w, h] of [
      [1, 1],
      [7, 9],
      [17, 1],
      [1, 33],
      [63, 41],
      [137, 71],
    ]) {
      const d = differences(await inputOf(await croppedJpeg(w, h)));
      expect({ normalised: d.normalised, map: d.map, choice: d.choice }, `${w} × ${h}`).toEqual(SAME);
    }
  });
});

/** A generator of the same numbers on every run. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Crafted errors: noise around a dip at one quality, a rectangle with its dip at another, flat blocks,
 * blocks whose qualities are all alike (0 / 0 in the normalisation), capped values (65535).
 */
function crafted(w: number, h: number, qualities: number, seed: number): GhostInput {
  const random = numbers(seed);
  const errors = new Uint16Array(w * h * qualities);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inside = x >= w / 3 && x < w / 2 && y >= h / 3 && y < (2 * h) / 3;
      const kind = random();
      const level = 40 + random() * 400;
      for (let q = 0; q < qualities; q++) {
        const dip = q === (inside ? 0 : qualities - 1) ? 0.2 : 1;
        const at = (y * w + x) * qualities + q;
        if (kind < 0.05) errors[at] = Math.floor(random() * 20);
        else if (kind < 0.08) errors[at] = 500;
        else if (kind < 0.1) errors[at] = 65535;
        else errors[at] = Math.round(level * dip * (0.8 + 0.4 * random()));
      }
    }
  return {
    blocksWide: w,
    blocksHigh: h,
    errors,
    qualities: Array.from({ length: qualities }, (_, q) => 50 + q),
    scale: GHOST_SCALE,
  };
}

describe("JPEG ghost maps on crafted errors: the reference's bytes, map and region", () => {
  it("with 1, 2, 4, 13 and 16 qualities, odd sizes, flat, uniform and capped blocks", () => {
    const sizes = [
      [1, 1],
      [1, 9],
      [9, 1],
      [2, 3],
      [13, 7],
      [40, 31],
      [97, 64],
    ];
    let seed = 1;
    for (const qualities of [1, 2, 4, 13, 16])
      for (const [w, h] of sizes) {
        const d = differences(crafted(w, h, qualities, seed++));
        expect({ normalised: d.normalised, map: d.map, choice: d.choice }, `${qualities} × ${w} × ${h}`).toEqual(SAME);
      }
    // The planted rectangle is found (the comparison covered a region, not only empty verdicts).
    expect(differences(crafted(97, 64, 13, 99)).region?.blocks).toBeGreaterThan(48);
  });

  it("normalised values on and near halves (ramps of errors, small and capped sums), which the kernel rounds from the reference's averages", () => {
    // A ramp q · m over 13 qualities gives 254 · q / 12 at every position of a uniform area: 63.5 and 190.5 at
    // q = 3 and 9, halves on which the kernel's shortcut from the sums must give way to the reference's
    // operations; small random sums and sums near the cap put other values close to halves.
    let seed = 900;
    for (const [w, h] of [
      [1, 1],
      [3, 2],
      [29, 17],
    ])
      for (const m of [1, 3, 5000]) {
        const input = crafted(w, h, 13, seed++);
        const random = numbers(seed++);
        for (let i = 0; i < w * h; i++) {
          const kind = random();
          for (let q = 0; q < 13; q++)
            input.errors[i * 13 + q] =
              kind < 0.5 ? q * m : kind < 0.8 ? Math.floor(random() * 13) : 65535 - Math.floor(random() * 3);
        }
        const d = differences(input);
        expect({ normalised: d.normalised, map: d.map, choice: d.choice }, `${w} × ${h}, ramp × ${m}`).toEqual(SAME);
      }
  });

  it("the region search at low thresholds (many regions, equal sizes, ones at the edges) and small largest shares", () => {
    let seed = 500;
    let found = 0;
    for (const [w, h] of [
      [1, 1],
      [1, 40],
      [40, 1],
      [13, 7],
      [97, 64],
    ])
      for (const score of [0, 0.5, 1.5])
        for (const share of [0.01, 0.2, 1]) {
          const d = differences(crafted(w, h, 13, seed++), score, share);
          if (d.region) found++;
          expect({ normalised: d.normalised, map: d.map, choice: d.choice }, `${w} × ${h}, ${score}, ${share}`).toEqual(
            SAME,
          );
        }
    expect(found).toBeGreaterThan(20);
  });
});

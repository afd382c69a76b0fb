// The heatmap PNG's kernels against their JavaScript references (docs/wasm.md): the overlay rows
// (wasm/assembly/heatmap.ts) decode to the pixels of renderHeatmapRgba (heatmap.ts), the chunk CRC
// (crc32.ts) is src/lib/crc32.ts's, and the zlib stream's Adler-32 (deflate.ts) is the byte-by-byte sum.
import { describe, expect, it } from "vitest";
import { crc32 } from "../../../src/lib/crc32";
import { type BlockMaps, computeBlockMaps } from "../../../src/scanner/images/block-analysis";
import type { GrayImage } from "../../../src/scanner/images/gray";
import {
  heatmapSize,
  type OverlayLine,
  renderHeatmapPng,
  renderHeatmapRgba,
  type ScoreGrid,
} from "../../../src/scanner/images/heatmap";
import { encodePng } from "../../../src/scanner/images/png-encode";
import { pngChunks } from "../../../src/scanner/images/png-chunks";
import { kernels, scratch } from "../../../src/scanner/images/wasm-kernels";
import { seededRandom as random, sharedFile } from "./fixtures";
import { pngRgba } from "./png-pixels";

/** Every chunk's stored CRC against the reference's CRC of its type and data. */
function expectChunkCrcs(png: Uint8Array): void {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const stored = view.getUint32(at + 8 + length);
    expect(stored, `chunk at ${at}`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    at += 12 + length;
  }
}

/** Adler-32 byte by byte (RFC 1950), the definition. */
function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** The PNG's pixels as RGBA (decoded by the strip decoder), after checking its CRCs. */
function decodedRgba(png: Uint8Array): Uint8Array {
  expectChunkCrcs(png);
  return pngRgba(png);
}

/** The kernel's heatmap PNG decodes to the reference's pixels. */
function expectSameHeatmap(
  base: GrayImage,
  grid: ScoreGrid,
  size: { width: number; height: number },
  lines: OverlayLine[] = [],
): void {
  const reference = renderHeatmapRgba(base, grid, size, lines).rgba;
  const decoded = decodedRgba(renderHeatmapPng(base, grid, size, lines));
  let differing = Math.abs(decoded.length - reference.length);
  for (let i = 0; i < reference.length; i++) if (decoded[i] !== reference[i]) differing++;
  expect(differing, `${size.width} × ${size.height}, base ${base.width} × ${base.height}`).toBe(0);
}

/** A grid of `width` × `height` cells: random scores (some below 0, above 1, NaN), a share not judged. */
function randomGrid(width: number, height: number, seed: number): ScoreGrid {
  const next = random(seed);
  const scores = Float32Array.from({ length: width * height }, () => next() * 1.6 - 0.3);
  const reliable = Uint8Array.from(scores, () => (next() < 0.25 ? 0 : 1));
  scores[0] = Number.NaN;
  return { width, height, scores, reliable };
}

function randomBase(width: number, height: number, seed: number): GrayImage {
  const next = random(seed);
  return { width, height, data: Float32Array.from({ length: width * height }, () => next() * 255) };
}

async function photoMaps(path: string): Promise<BlockMaps> {
  const result = await computeBlockMaps(await sharedFile(path));
  if (!result.ok) throw new Error(result.reason);
  return result.maps;
}

describe("heatmap overlay: the kernel's PNG decodes to renderHeatmapRgba's pixels", () => {
  it("a photo's ELA scores at the block heatmap's size, at the picture's and at copy-move's (base at the output size)", async () => {
    const maps = await photoMaps("photos/opencv-doc/leuvenA.jpg");
    // Judged as ELA judges: neither flat nor clipped.
    const reliable = Uint8Array.from(maps.activity, (a, i) => (a < 2 || maps.clipped[i] ? 0 : 1));
    const scores = Float32Array.from(maps.ela, (v) => v / 8);
    const grid = { width: maps.blocksWide, height: maps.blocksHigh, scores, reliable };
    expectSameHeatmap(maps.preview, grid, { width: maps.blocksWide * 4, height: maps.blocksHigh * 4 });
    expectSameHeatmap(maps.preview, grid, heatmapSize(maps.width, maps.height));
    const searched = randomBase(640, 480, 3);
    expectSameHeatmap(searched, randomGrid(310, 230, 4), { width: 640, height: 480 }, [
      { x1: 0.1, y1: 0.2, x2: 0.8, y2: 0.7 },
      { x1: 0, y1: 1, x2: 1, y2: 0 },
    ]);
  });

  it("at odd sizes, bases larger and smaller than the output, grids finer than it, and one pixel", () => {
    for (const [bw, bh, gw, gh, w, h] of [
      [101, 77, 13, 10, 101, 77],
      [1500, 1001, 750, 500, 1024, 683],
      [50, 30, 7, 5, 333, 201],
      [9, 1283, 2, 161, 3, 641],
      [1, 1, 1, 1, 1, 1],
    ])
      expectSameHeatmap(randomBase(bw, bh, bw + bh), randomGrid(gw, gh, gw * gh), { width: w, height: h }, [
        { x1: 0.5, y1: 0, x2: 0.5, y2: 1 },
      ]);
  });

  it("rows equal to the one above (a base at half the size) copied, hatched rows drawn, and samples NaN, ±∞, −0, beyond 255", () => {
    // Grid rows all judged (copied rows), and a row with one cell not judged (its hatching depends on y).
    const grid = randomGrid(12, 9, 21);
    grid.reliable.fill(1);
    grid.scores[0] = 0.3;
    grid.reliable[4 * 12 + 5] = 0;
    for (const [bw, bh, w, h] of [
      [37, 23, 74, 46],
      [37, 23, 74, 47],
      [37, 23, 111, 69],
      [6, 5, 13, 11],
    ])
      expectSameHeatmap(randomBase(bw, bh, bw * bh), grid, { width: w, height: h });
    const odd = randomBase(37, 23, 22);
    const specials = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 300, -20, 1e12];
    for (let i = 0; i < odd.data.length; i += 5) odd.data[i] = specials[(i / 5) % specials.length];
    expectSameHeatmap(odd, grid, { width: 74, height: 46 });
    expectSameHeatmap(odd, randomGrid(12, 9, 23), { width: 37, height: 23 });
  });

  it("twice the base's width with each pair of columns in one cell: rows drawn at the base's width, each pixel twice", () => {
    // Pairs of columns share their source column and cell: rows all judged are drawn twice as wide (heatmapRow's
    // `twice`), the row with a cell not judged pixel by pixel; widths around the kernel's four pixels per step.
    // Bases (width × height); a grid cell per pair of columns, or per two pairs at even widths, and half the rows.
    const bases = ["37×23", "13×7", "6×5", "7×4", "5×3", "1×2", "94×71"].map((s) => s.split("×").map(Number));
    for (const [bw, bh] of bases) {
      const gw = bw % 2 === 0 ? bw / 2 : bw;
      const gh = Math.ceil(bh / 2);
      const grid = randomGrid(gw, gh, gw + gh);
      grid.reliable.fill(1);
      grid.scores[0] = 0.3;
      grid.reliable[(gh >> 1) * gw] = 0;
      const base = randomBase(bw, bh, bw * bh);
      for (let i = 0; i < base.data.length; i += 7) base.data[i] = [Number.NaN, -0, 300, -20, 1e12][(i / 7) % 5];
      for (const h of [2 * bh, 2 * bh + 1, bh])
        expectSameHeatmap(base, grid, { width: 2 * bw, height: h }, [{ x1: 0, y1: 0.5, x2: 1, y2: 0.5 }]);
    }
  });

  it("every cell not judged (hatched), every cell judged at the ramp's ends and beyond, its middle and its half-way roundings", () => {
    const base = randomBase(64, 48, 5);
    const grid = (score: number, reliable: number) => ({
      width: 8,
      height: 6,
      scores: new Float32Array(48).fill(score),
      reliable: new Uint8Array(48).fill(reliable),
    });
    for (const [score, reliable] of [
      [0.5, 0],
      [0, 1],
      [1, 1],
      [Number.NaN, 1],
      // Outside 0–1 and signed zero: the kernel's selects stand for Math.min(1, Math.max(0, score)).
      [-0, 1],
      [-1, 1],
      [2, 1],
      [Number.POSITIVE_INFINITY, 1],
      [Number.NEGATIVE_INFINITY, 1],
      // 0.25: 40 + 215 × 0.5 = 147.5 and 80 + 175 × 0.5 = 167.5; 0.75: 255 × 0.5 = 127.5 (Math.round: up).
      [0.25, 1],
      [0.5, 1],
      [0.75, 1],
    ])
      expectSameHeatmap(base, grid(score, reliable), { width: 67, height: 45 });
    // Odd grid widths (the kernel takes two cells per step) with every kind of cell in one row.
    const mixed = [0, 0.25, 0.5, 0.75, 1, -0, Number.NaN, 2, -1];
    for (const width of [1, 2, 3, 9]) {
      const scores = Float32Array.from({ length: width * 3 }, (_, i) => mixed[i % mixed.length]);
      const reliable = Uint8Array.from(scores, (_, i) => (i % 4 === 3 ? 0 : 1));
      expectSameHeatmap(base, { width, height: 3, scores, reliable }, { width: 67, height: 45 });
    }
  });
});

describe("a heatmap drawn again over the same picture (renderHeatmapPng remembers the last small grid)", () => {
  it("the same inputs give the same bytes; any other score, judged cell, size or line is drawn anew", () => {
    const base = randomBase(64, 48, 9);
    const size = { width: 67, height: 45 };
    const lines = [{ x1: 0.1, y1: 0.2, x2: 0.9, y2: 0.8 }];
    const grid = randomGrid(9, 7, 9);
    const first = renderHeatmapPng(base, grid, size, lines);
    const again = renderHeatmapPng(
      base,
      { ...grid, scores: grid.scores.slice(), reliable: grid.reliable.slice() },
      size,
      lines.map((l) => ({ ...l })),
    );
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    // The grid changed in place after it was drawn: the remembered copy is not the caller's array.
    grid.scores[5] = 0.97;
    expectSameHeatmap(base, grid, size, lines);
    const judged = { ...grid, reliable: grid.reliable.slice() };
    judged.reliable[3] ^= 1;
    expectSameHeatmap(base, judged, size, lines);
    // −0 against +0 are other bits: drawn anew (and still the reference's pixels), as are another size, lines, picture.
    const zero = { ...grid, scores: grid.scores.slice() };
    zero.scores[1] = -0;
    expectSameHeatmap(base, zero, size, lines);
    expectSameHeatmap(base, zero, { width: 66, height: 45 }, lines);
    expectSameHeatmap(base, zero, { width: 66, height: 45 }, [{ ...lines[0], x2: 0.5 }]);
    expectSameHeatmap(base, zero, { width: 66, height: 45 }, []);
    expectSameHeatmap(randomBase(64, 48, 10), zero, { width: 66, height: 45 }, []);
  });
});

describe("PNG chunk CRC and zlib Adler-32 in wasm: the reference's values", () => {
  it("crc32 on noise of odd lengths (around its 16-byte step), continued from a previous CRC", () => {
    const next = random(11);
    for (const length of [0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 63, 1000, 65_537]) {
      const data = Uint8Array.from({ length }, () => Math.floor(next() * 256));
      const s = scratch(length);
      s.bytes.set(data, s.base);
      expect(kernels().crc32(s.base, length, 0) >>> 0, `length ${length}`).toBe(crc32(data));
      const previous = crc32(new Uint8Array([1, 2, 3]));
      expect(kernels().crc32(s.base, length, previous) >>> 0, `length ${length}, continued`).toBe(
        crc32(data, previous),
      );
    }
  });

  it("the stream's trailer is the Adler-32 of the rows, below and across the 5 552-byte reduction", () => {
    const next = random(12);
    for (const [w, h] of [
      [1, 1],
      [5, 3],
      [37, 50],
      [1851, 3],
      [300, 200],
    ]) {
      // Mostly 255s: the sums grow fastest, which the reduction every 5 552 bytes must keep exact.
      const pixels = Uint8Array.from({ length: w * h * 3 }, () => (next() < 0.8 ? 255 : Math.floor(next() * 256)));
      const png = encodePng(pixels, w, h, 3);
      expectChunkCrcs(png);
      const idat = pngChunks(png).find((c) => c.type === "IDAT");
      if (!idat) throw new Error("no IDAT");
      const stored = new DataView(idat.data.buffer, idat.data.byteOffset + idat.data.length - 4).getUint32(0);
      const filtered = new Uint8Array((w * 3 + 1) * h);
      for (let y = 0; y < h; y++) {
        filtered[y * (w * 3 + 1)] = 2;
        for (let i = 0; i < w * 3; i++)
          filtered[y * (w * 3 + 1) + 1 + i] = pixels[y * w * 3 + i] - (y ? pixels[(y - 1) * w * 3 + i] : 0);
      }
      expect(stored, `${w} × ${h}`).toBe(adler32(filtered));
    }
  });
});

/**
 * The two streaming downscales of the shared decode (the thumbnail's area average, the models' box
 * average) against the plain definition, pixel by pixel: any sizes (not multiples of 8 or 16), any band
 * heights, so that summing a row's columns first changes nothing.
 */
import { describe, expect, it } from "vitest";
import { AreaDownscaler } from "../../../src/scanner/images/area-downscale";
import { BoxDownscaler } from "../../../src/scanner/ml/raster";

/** Deterministic RGBA noise with some structure. */
function picture(width: number, height: number, seed: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < rgba.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    rgba[i] = ((s >>> 16) & 0xff) ^ ((i % 7) * 9);
  }
  return rgba;
}

/** Every source pixel counts once, in the output pixel floor(x · outWidth / width), floor(y · outHeight / height). */
function areaByDefinition(rgba: Uint8Array, width: number, height: number, outWidth: number, outHeight: number) {
  const sums = new Float64Array(outWidth * outHeight * 3);
  const counts = new Uint32Array(outWidth * outHeight);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = Math.floor((y * outHeight) / height) * outWidth + Math.floor((x * outWidth) / width);
      for (let c = 0; c < 3; c++) sums[o * 3 + c] += rgba[(y * width + x) * 4 + c];
      counts[o]++;
    }
  const out = new Uint8Array(outWidth * outHeight * 4);
  for (let o = 0; o < counts.length; o++) {
    for (let c = 0; c < 3; c++) out[o * 4 + c] = Math.round(sums[o * 3 + c] / (counts[o] || 1));
    out[o * 4 + 3] = 255;
  }
  return out;
}

/** Mean of every factor × factor block; the right and bottom remainder is dropped. */
function boxByDefinition(rgba: Uint8Array, width: number, height: number, factor: number): Float32Array {
  const w = Math.floor(width / factor);
  const h = Math.floor(height / factor);
  const out = new Float32Array(w * h * 3);
  for (let oy = 0; oy < h; oy++)
    for (let ox = 0; ox < w; ox++)
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++)
          for (let dx = 0; dx < factor; dx++) sum += rgba[((oy * factor + dy) * width + ox * factor + dx) * 4 + c];
        out[(oy * w + ox) * 3 + c] = sum / (factor * factor);
      }
  return out;
}

/** How many elements differ (a deep equal of a million floats is slow to report). */
function differing(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.max(a.length, b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Feeds `rgba` in bands of `bandRows` rows. */
function bands(rgba: Uint8Array, width: number, height: number, bandRows: number) {
  const out = [];
  for (let y = 0; y < height; y += bandRows) {
    const rows = Math.min(bandRows, height - y);
    out.push({ y, rows, rgba: rgba.subarray(y * width * 4, (y + rows) * width * 4) });
  }
  return out;
}

const sizes = [
  { width: 1, height: 1, outWidth: 1, outHeight: 1, band: 1 },
  { width: 37, height: 23, outWidth: 5, outHeight: 3, band: 8 },
  { width: 751, height: 563, outWidth: 320, outHeight: 240, band: 16 },
  { width: 1000, height: 7, outWidth: 320, outHeight: 2, band: 3 },
  { width: 65, height: 129, outWidth: 65, outHeight: 100, band: 64 },
];

describe("the thumbnail's area average, fed band by band, is the average by definition", () => {
  for (const { width, height, outWidth, outHeight, band } of sizes) {
    it(`${width} × ${height} → ${outWidth} × ${outHeight}, bands of ${band} rows`, () => {
      const rgba = picture(width, height, width * 31 + height);
      const scaler = new AreaDownscaler(width, height, outWidth, outHeight);
      for (const b of bands(rgba, width, height, band)) scaler.add(b);
      expect(differing(scaler.finish(), areaByDefinition(rgba, width, height, outWidth, outHeight))).toBe(0);
    });
  }
});

describe("the same average with its rows handed to a sink (a reduced page written into its PNG), in wasm and in JavaScript", () => {
  for (const { width, height, outWidth, outHeight, band } of sizes) {
    it(`${width} × ${height} → ${outWidth} × ${outHeight}, bands of ${band} rows`, () => {
      const rgba = picture(width, height, width * 17 + height);
      const expected = areaByDefinition(rgba, width, height, outWidth, outHeight);
      for (const reference of [false, true]) {
        const rows: Uint8Array[] = [];
        const scaler = new AreaDownscaler(width, height, outWidth, outHeight, {
          reference,
          rows: (finished, count) => rows.push(finished.slice(0, count * outWidth * 4)),
        });
        for (const b of bands(rgba, width, height, band)) scaler.add(b);
        expect(scaler.finish()).toEqual(new Uint8Array(0));
        const joined = new Uint8Array(rows.reduce((n, r) => n + r.length, 0));
        rows.reduce((at, r) => (joined.set(r, at), at + r.length), 0);
        expect(joined.length).toBe(outWidth * outHeight * 4);
        expect(differing(joined, expected)).toBe(0);
      }
    });
  }
});

describe("the models' box average, fed row by row, is the block mean by definition", () => {
  for (const [width, height, factor] of [
    [1, 1, 1],
    [37, 23, 4],
    [151, 113, 1],
    [1030, 771, 2],
    [6001, 17, 6],
  ]) {
    it(`${width} × ${height}, factor ${factor}`, () => {
      const rgba = picture(width, height, factor * 7 + width);
      const scaler = new BoxDownscaler(width, height, factor);
      for (let y = 0; y < height; y++) scaler.addRow(rgba, y * width * 4, y);
      const scaled = scaler.finish();
      expect([scaled.width, scaled.height]).toEqual([Math.floor(width / factor), Math.floor(height / factor)]);
      expect(differing(scaled.rgb, boxByDefinition(rgba, width, height, factor))).toBe(0);
    });
  }
});

// gray.ts `downscale` and `lumaFromRgba` against their kernels (wasm/assembly/gray.ts through
// images/gray-wasm.ts): the same f32 values, Object.is for every sample (NaN and −0 included); and when
// copyGrayInto copies a picture into the scratch area again.
import { describe, expect, it } from "vitest";
import { downscale, type GrayImage, lumaFromRgba } from "../../../src/scanner/images/gray";
import { copyGrayInto, downscaleWasm, lumaInto } from "../../../src/scanner/images/gray-wasm";
import { JpegStripDecoder } from "../../../src/scanner/images/jpeg-strip-decoder";
import { scratch } from "../../../src/scanner/images/wasm-kernels";
import { sharedFile } from "./fixtures";

/** Deterministic floats 0–255 with fractions (xorshift32), as luma and cell means are. */
function noiseGray(width: number, height: number, seed: number): GrayImage {
  const data = new Float32Array(width * height);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < data.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = ((x >>> 0) % 2_560_000) / 10_000;
  }
  return { width, height, data };
}

function differing(a: Float32Array, b: Float32Array): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

function expectSameDownscale(img: GrayImage, maxSide: number): void {
  const reference = downscale(img, maxSide);
  const wasm = downscaleWasm(img, maxSide);
  expect([wasm.width, wasm.height]).toEqual([reference.width, reference.height]);
  expect(differing(wasm.data, reference.data), `${img.width}×${img.height} to ${maxSide}`).toBe(0);
}

/** A photo's luma by the reference, decoded whole. */
async function photoLuma(path: string): Promise<{ gray: GrayImage; rgba: Uint8Array }> {
  const decoder = JpegStripDecoder.open(await sharedFile(path));
  if (typeof decoder === "string") throw new Error(decoder);
  const rgba = new Uint8Array(decoder.width * decoder.height * 4);
  for (let band = decoder.next(); band; band = decoder.next()) rgba.set(band.rgba, band.y * decoder.width * 4);
  return { gray: lumaFromRgba(rgba, decoder.width, decoder.height), rgba };
}

describe("grey downscale (heatmap backgrounds): the kernel gives gray.ts downscale's values", () => {
  it("on a photo's luma: leuvenA to the seams heatmap's 376 px and to 100, ColdRipple to 1024", async () => {
    const leuven = (await photoLuma("photos/opencv-doc/leuvenA.jpg")).gray;
    expectSameDownscale(leuven, 376);
    expectSameDownscale(leuven, 100);
    expectSameDownscale((await photoLuma("photos/plasma-workspace-wallpapers/ColdRipple-2560x1600.jpg")).gray, 1024);
  });

  it("at sizes that are not multiples of 8 or 16, uneven ratios, and pictures wide enough for several bands", () => {
    for (const [w, h, side] of [
      [751, 563, 376],
      [641, 37, 640],
      [33, 41, 16],
      [1283, 9, 640],
      [9, 1283, 100],
      [17, 17, 3],
      [5, 5, 1],
      [3001, 801, 1000],
      [4000, 300, 1999],
    ])
      expectSameDownscale(noiseGray(w, h, w * 31 + h), side);
  });

  it("passes NaN, infinities and −0 through as the reference sums them; a picture not shrunk is returned as it is", () => {
    const img = noiseGray(37, 29, 5);
    img.data[0] = Number.NaN;
    img.data[100] = Number.POSITIVE_INFINITY;
    img.data[101] = Number.NEGATIVE_INFINITY;
    img.data[500] = -0;
    expectSameDownscale(img, 11);
    // Cells two columns wide, two per f64x2 in the kernel (NaN, ±∞ and −0 among their pixels).
    expectSameDownscale(img, 19);
    expectSameDownscale({ width: 4, height: 2, data: new Float32Array([-0, -0, -0, 1, -0, -0, 2, -0]) }, 2);
    expectSameDownscale({ width: 1, height: 1, data: new Float32Array([-0]) }, 1);
    expect(downscaleWasm(img, 37)).toBe(img);
  });
});

describe("luma (copy-move's search picture at full resolution): the kernel gives lumaFromRgba's values", () => {
  it("on leuvenA, and on every byte combination's corners at odd pixel counts", async () => {
    const { gray, rgba } = await photoLuma("photos/opencv-doc/leuvenA.jpg");
    const out = new Float32Array(gray.data.length);
    lumaInto(rgba, gray.width * gray.height, out, 0);
    expect(differing(out, gray.data)).toBe(0);
    for (const pixels of [1, 2, 3, 5, 7, 255, 4097]) {
      const bytes = new Uint8Array(pixels * 4);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 97 + (i >> 2) * 13) & 0xff;
      bytes[0] = 255;
      bytes[1] = 255;
      bytes[2] = 255;
      const at = new Float32Array(pixels + 3);
      lumaInto(bytes, pixels, at, 3);
      expect(differing(at.subarray(3), lumaFromRgba(bytes, pixels, 1).data)).toBe(0);
    }
  });
});

describe("copyGrayInto: the picture copied once per synchronous run", () => {
  /** The picture region's values after copyGrayInto, having overwritten it first (as another kernel's caller may). */
  const afterOverwrite = (img: GrayImage, claim: () => void) => {
    const { at, buffer } = copyGrayInto(img, { rest: 64 });
    claim();
    new Float32Array(buffer, at.picture, img.data.length).fill(-1);
    const again = copyGrayInto(img, { rest: 64 });
    return new Float32Array(again.buffer, again.at.picture, img.data.length);
  };

  it("keeps the copy for the same picture in the same run, copies again after the area is claimed or an await", async () => {
    const img = noiseGray(31, 17, 9);
    // Overwritten without a claim (no caller does so): the copy is kept, which shows it is not made again.
    expect(afterOverwrite(img, () => {})[0]).toBe(-1);
    expect(
      differing(
        afterOverwrite(img, () => scratch(16)),
        img.data,
      ),
    ).toBe(0);
    const { at, buffer } = copyGrayInto(img, {});
    await Promise.resolve();
    new Float32Array(buffer, at.picture, img.data.length).fill(-1);
    const later = copyGrayInto(img, {});
    expect(differing(new Float32Array(later.buffer, later.at.picture, img.data.length), img.data)).toBe(0);
    const other = noiseGray(31, 17, 10);
    const next = copyGrayInto(other, {});
    expect(differing(new Float32Array(next.buffer, next.at.picture, other.data.length), other.data)).toBe(0);
  });
});

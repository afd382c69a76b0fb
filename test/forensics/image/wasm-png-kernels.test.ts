// The PNG and downscale kernels of wasm/assembly/ against their JavaScript references (docs/wasm.md):
// unfiltering (png-unfilter.ts) and area downscaling (area-downscale.ts) give the same bytes, deflate
// (deflate.ts) other bytes than fflate but the same data once inflated.
import { unzlibSync, zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { AreaDownscaler, areaDownscale, singleBand } from "../../../src/scanner/images/area-downscale";
import { computeBlockMaps } from "../../../src/scanner/images/block-analysis";
import { heatmapSize, renderHeatmapRgba } from "../../../src/scanner/images/heatmap";
import { JpegStripDecoder } from "../../../src/scanner/images/jpeg-strip-decoder";
import { LumaDownscaler } from "../../../src/scanner/images/luma-downscale";
import { encodePng } from "../../../src/scanner/images/png-encode";
import { pngChunks } from "../../../src/scanner/images/png-chunks";
import { PngStripDecoder } from "../../../src/scanner/images/png-strip-decoder";
import { bitmapBands } from "../../../src/scanner/images/streamed-image";
import { align16, kernels, scratch } from "../../../src/scanner/images/wasm-kernels";
import { concat, pngChunk } from "../../support/hostile-inputs";
import { generatedFile, sharedFile, noiseBytes as noise } from "./fixtures";

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * A PNG whose scanlines are noise behind the filter byte `filterOf(row)` (any byte: 5+ is damage), so
 * every filter meets every kind of neighbour; `cut` keeps only that share of the compressed data.
 */
function craftedPng(
  width: number,
  height: number,
  colorType: number,
  bitDepth: number,
  filterOf: (row: number) => number,
  cut = 1,
): Uint8Array {
  const rowBytes = Math.ceil((width * CHANNELS[colorType] * bitDepth) / 8);
  const raw = noise((rowBytes + 1) * height, width * 7919 + height * 31 + colorType * 3 + bitDepth);
  for (let y = 0; y < height; y++) raw[y * (rowBytes + 1)] = filterOf(y);
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([bitDepth, colorType, 0, 0, 0], 8);
  const idat = zlibSync(raw, { level: 6 });
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    ...(colorType === 3 ? [pngChunk("PLTE", noise(3 * 256, 5))] : []),
    pngChunk("IDAT", idat.subarray(0, Math.floor(idat.length * cut))),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

type Decoded = { bands: Array<{ y: number; rows: number; rgba: Uint8Array }>; error: string | null } | string;

/** Every band (copied) and the error that stopped the decode. */
function decodePng(bytes: Uint8Array, reference: boolean): Decoded {
  const decoder = PngStripDecoder.open(bytes, { reference });
  if (typeof decoder === "string") return decoder;
  const bands: Array<{ y: number; rows: number; rgba: Uint8Array }> = [];
  try {
    for (let band = decoder.next(); band; band = decoder.next()) bands.push({ ...band, rgba: band.rgba.slice() });
    return { bands, error: null };
  } catch (error) {
    return { bands, error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function expectSameDecode(bytes: Uint8Array): Decoded {
  const wasm = decodePng(bytes, false);
  const reference = decodePng(bytes, true);
  if (typeof wasm === "string" || typeof reference === "string") {
    expect(wasm).toEqual(reference);
    return wasm;
  }
  const shape = (d: typeof wasm) => ({ error: d.error, bands: d.bands.map((b) => [b.y, b.rows, b.rgba.length]) });
  expect(shape(wasm)).toEqual(shape(reference));
  expect(wasm.bands.reduce((n, b, i) => n + differingBytes(b.rgba, reference.bands[i].rgba), 0)).toBe(0);
  return wasm;
}

const FILTER_CYCLE = (row: number) => row % 5;

describe("PNG unfiltering: the wasm kernel gives the reference's rows", () => {
  it("on every colour type and bit depth of the generated PNGs (131 × 97)", async () => {
    const names = [
      "gray-1bit",
      "gray-4bit",
      "gray-8bit",
      "gray-8bit-trns",
      "gray-16bit",
      "gray-alpha-8bit",
      "palette-2bit-trns",
      "palette-4bit-trns",
      "palette-8bit-trns",
      "rgb-16bit",
    ];
    for (const name of names) {
      const result = expectSameDecode(await generatedFile(`png/${name}.png`));
      expect(typeof result === "string" ? result : result.error, name).toBeNull();
    }
  });

  it("with every filter type next to every other, at sizes that are not multiples of 8 or 16", () => {
    const layouts: Array<[number, number]> = [
      [6, 8], // RGBA 8-bit: 4 bytes per pixel (SIMD per pixel)
      [2, 8], // RGB: 3
      [0, 8], // grey: 1
      [0, 1], // 1-bit grey: step 1, packed
      [3, 4], // palette, 4-bit
      [4, 16], // grey + alpha 16-bit: 4 bytes per pixel
      [6, 16], // RGBA 16-bit: 8
      [2, 16], // RGB 16-bit: 6
    ];
    const sizes: Array<[number, number]> = [
      [1, 1],
      [1, 33],
      [7, 9],
      [15, 17],
      [17, 16],
      [33, 41],
    ];
    for (const [colorType, bitDepth] of layouts)
      for (const [w, h] of sizes) {
        const result = expectSameDecode(craftedPng(w, h, colorType, bitDepth, (y) => (y * 7 + w) % 5));
        expect(typeof result === "string" ? result : result.error, `${colorType}/${bitDepth} ${w}×${h}`).toBeNull();
      }
  });

  it("on damage: an unknown filter type, data cut off, and a bad filter before the cut", () => {
    const badFilter = expectSameDecode(craftedPng(45, 40, 6, 8, (y) => (y === 20 ? 7 : FILTER_CYCLE(y))));
    expect(badFilter).toMatchObject({ error: "PngDataError: unknown filter type 7 in row 21" });
    expect(typeof badFilter !== "string" && badFilter.bands.length).toBe(1);
    const cut = expectSameDecode(craftedPng(45, 40, 2, 8, FILTER_CYCLE, 0.6));
    expect(typeof cut !== "string" && cut.error).toMatch(
      /^PngDataError: the (image data ends|compressed image data is corrupt) in row/,
    );
    // Large enough for the inflated data to arrive in steps: the cut is read in the band of the bad row.
    const both = expectSameDecode(craftedPng(300, 100, 6, 8, (y) => (y === 18 ? 200 : FILTER_CYCLE(y)), 0.3));
    expect(both).toMatchObject({ error: "PngDataError: unknown filter type 200 in row 19" });
    const cutFirst = expectSameDecode(craftedPng(300, 100, 6, 8, (y) => (y === 60 ? 200 : FILTER_CYCLE(y)), 0.3));
    expect(typeof cutFirst !== "string" && cutFirst.error).toMatch(
      /^PngDataError: the image data ends in row (2\d|3[01]) /,
    );
  });

  it("with rows too wide for one call (20 000 px RGBA 16-bit: 5 rows per call), a bad filter and a cut in later calls", () => {
    const wide = expectSameDecode(craftedPng(20_000, 20, 6, 16, FILTER_CYCLE));
    expect(typeof wide === "string" ? wide : wide.error).toBeNull();
    expect(expectSameDecode(craftedPng(20_000, 20, 6, 16, (y) => (y === 12 ? 9 : FILTER_CYCLE(y))))).toMatchObject({
      error: "PngDataError: unknown filter type 9 in row 13",
    });
    const cut = expectSameDecode(craftedPng(20_000, 20, 6, 16, FILTER_CYCLE, 0.6));
    expect(typeof cut !== "string" && cut.error).toMatch(/^PngDataError: the image data ends in row 1[0-3] /);
  });
});

function expectSameDownscale(
  image: { width: number; height: number; rgba: Uint8Array },
  outWidth: number,
  outHeight: number,
): void {
  for (const rowsPerBand of [16, 5, image.height]) {
    const wasm = areaDownscale(bitmapBands(image, rowsPerBand), outWidth, outHeight);
    const reference = areaDownscale(bitmapBands(image, rowsPerBand), outWidth, outHeight, { reference: true });
    expect(wasm.length).toBe(reference.length);
    let differing = 0;
    for (let i = 0; i < wasm.length; i++) if (wasm[i] !== reference[i]) differing++;
    expect(differing, `${image.width}×${image.height} → ${outWidth}×${outHeight}, bands of ${rowsPerBand}`).toBe(0);
  }
}

describe("area downscale: the wasm kernel gives the reference's pixels", () => {
  it("on a photo (leuvenA, 751 × 563) to thumbnail and odd sizes", async () => {
    const decoder = JpegStripDecoder.open(await sharedFile("photos/opencv-doc/leuvenA.jpg"));
    if (typeof decoder === "string") throw new Error(decoder);
    const rgba = new Uint8Array(decoder.width * decoder.height * 4);
    for (let band = decoder.next(); band; band = decoder.next()) rgba.set(band.rgba, band.y * decoder.width * 4);
    const image = { width: decoder.width, height: decoder.height, rgba };
    for (const [w, h] of [
      [320, 240],
      [224, 224],
      [751, 563],
      [750, 1],
      [1, 562],
      [1, 1],
      [97, 33],
    ])
      expectSameDownscale(image, w, h);
  });

  it("on noise at sizes that are not multiples of 8 or 16, fed whole and in bands", () => {
    for (const [w, h] of [
      [1, 1],
      [7, 9],
      [17, 33],
      [63, 41],
    ]) {
      const image = { width: w, height: h, rgba: noise(w * h * 4, w * h) };
      for (const [ow, oh] of [
        [1, 1],
        [w, h],
        [Math.ceil(w / 2), Math.ceil(h / 3)],
        [Math.max(1, w - 1), h],
      ])
        expectSameDownscale(image, ow, oh);
    }
  });

  it("enlarging (never asked for) stays on the reference", () => {
    const image = { width: 3, height: 2, rgba: noise(24, 3) };
    const scaler = new AreaDownscaler(3, 2, 6, 5);
    scaler.add({ y: 0, rows: 2, rgba: image.rgba });
    expect(scaler.finish()).toEqual(areaDownscale(singleBand(image), 6, 5, { reference: true }));
  });
});

/** A photo's RGBA, decoded whole. */
async function photoRgba(path: string): Promise<{ width: number; height: number; rgba: Uint8Array }> {
  const decoder = JpegStripDecoder.open(await sharedFile(path));
  if (typeof decoder === "string") throw new Error(decoder);
  const rgba = new Uint8Array(decoder.width * decoder.height * 4);
  for (let band = decoder.next(); band; band = decoder.next()) rgba.set(band.rgba, band.y * decoder.width * 4);
  return { width: decoder.width, height: decoder.height, rgba };
}

function expectSameLuma(image: { width: number; height: number; rgba: Uint8Array }, maxSide: number): void {
  const run = (rowsPerBand: number, reference: boolean) => {
    const scaler = new LumaDownscaler(image.width, image.height, maxSide, { reference });
    const source = bitmapBands(image, rowsPerBand);
    for (let band = source.next(); band; band = source.next()) scaler.add(band);
    return scaler.finish();
  };
  const reference = run(16, true);
  for (const rowsPerBand of [16, 5, image.height]) {
    const wasm = run(rowsPerBand, false);
    expect([wasm.width, wasm.height]).toEqual([reference.width, reference.height]);
    let differing = 0;
    for (let i = 0; i < wasm.data.length; i++) if (!Object.is(wasm.data[i], reference.data[i])) differing++;
    expect(differing, `${image.width}×${image.height} to ${maxSide}, bands of ${rowsPerBand}`).toBe(0);
  }
}

describe("luma downscale (copy-move's search picture): the wasm kernel gives gray.ts lumaFromRgba + downscale's values", () => {
  it("on photos: leuvenA (751 → 640, a scale of 1.17, and not shrunk: its full-resolution search) and ColdRipple (2560 → 640, 4)", async () => {
    const leuven = await photoRgba("photos/opencv-doc/leuvenA.jpg");
    expectSameLuma(leuven, 640);
    expectSameLuma(leuven, 751);
    expectSameLuma(await photoRgba("photos/plasma-workspace-wallpapers/ColdRipple-2560x1600.jpg"), 640);
  });

  it("on noise at sizes that are not multiples of 8 or 16, and a picture that is not shrunk", () => {
    for (const [w, h, side] of [
      [641, 37, 640],
      [33, 41, 16],
      [1283, 9, 640],
      [9, 1283, 100],
      [17, 17, 3],
      [63, 41, 64],
      // Not shrunk (the kernel's luma alone), widths leaving 1–3 pixels after its steps of four.
      [5, 3, 64],
      [7, 9, 7],
      [10, 2, 10],
    ])
      expectSameLuma({ width: w, height: h, rgba: noise(w * h * 4, w + 7 * h) }, side);
  });
});

/** The zlib data of a PNG's IDAT chunks, inflated. */
function inflatedIdat(png: Uint8Array): Uint8Array {
  return unzlibSync(concat(pngChunks(png).flatMap((c) => (c.type === "IDAT" ? [c.data] : []))));
}

/** Positions where two byte arrays differ, plus the length difference (toEqual is slow on megabytes). */
function differingBytes(a: Uint8Array, b: Uint8Array): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) n++;
  return n;
}

function expectSamePng(pixels: Uint8Array, width: number, height: number, channels: 1 | 3 | 4): Uint8Array {
  const wasm = encodePng(pixels, width, height, channels);
  const reference = encodePng(pixels, width, height, channels, { reference: true });
  expect(differingBytes(inflatedIdat(wasm), inflatedIdat(reference))).toBe(0);
  expect(wasm.subarray(0, 33)).toEqual(reference.subarray(0, 33)); // signature and IHDR
  return wasm;
}

describe("PNG deflate: the wasm encoder's stream inflates to the reference's filtered rows", () => {
  it("a photo's ELA heatmap (RGB), which decodes to the rendered pixels", async () => {
    const result = await computeBlockMaps(await sharedFile("photos/opencv-doc/leuvenA.jpg"));
    if (!result.ok) throw new Error(result.reason);
    const maps = result.maps;
    const grid = {
      width: maps.blocksWide,
      height: maps.blocksHigh,
      scores: Float32Array.from(maps.ela, (v) => Math.min(1, v / 8)),
      reliable: Uint8Array.from(maps.clipped, (c) => (c ? 0 : 1)),
    };
    const size = heatmapSize(maps.width, maps.height);
    const { rgba } = renderHeatmapRgba(maps.preview, grid, size);
    const png = expectSamePng(rgba, size.width, size.height, 4);
    expect(png.length).toBeLessThan(encodePng(rgba, size.width, size.height, 4, { reference: true }).length * 1.1);
    const decoded = decodePng(png, false);
    if (typeof decoded === "string") throw new Error(decoded);
    expect(decoded.error).toBeNull();
    expect(decoded.bands.reduce((n, b) => n + b.rows, 0)).toBe(size.height);
    let differing = 0;
    for (const b of decoded.bands)
      differing += differingBytes(b.rgba, rgba.subarray(b.y * size.width * 4, (b.y + b.rows) * size.width * 4));
    expect(differing).toBe(0);
  });

  it("noise (stored blocks), flat areas (long matches), several blocks, odd and tiny sizes", () => {
    const noisy = expectSamePng(noise(300 * 200 * 3, 9), 300, 200, 3);
    expect(noisy.length).toBeLessThan(300 * 200 * 3 + 200 + 1000); // stored, not inflated by Huffman codes
    const flat = new Uint8Array(500 * 400 * 4).fill(77);
    expect(expectSamePng(flat, 500, 400, 4).length).toBeLessThan(5000);
    const stripes = Uint8Array.from({ length: 611 * 203 }, (_, i) => ((i % 611) * 5 + (i % 7)) & 0xff);
    expectSamePng(stripes, 611, 203, 1);
    for (const [w, h, c] of [
      [1, 1, 1],
      [1, 1, 4],
      [17, 3, 3],
      [1, 33, 4],
      [63, 41, 3],
    ] as Array<[number, number, 1 | 3 | 4]>)
      expectSamePng(noise(w * h * c, w + h), w, h, c);
  });

  it("matches from pixel starts only: across lines shorter than a match, ending inside a pixel, at the end", () => {
    // Lines of 1–3 pixels: a match of 258 bytes passes many lines; a repeated pattern of 5 bytes ends its matches
    // inside a pixel; noise between flat runs makes literals at every place of a line.
    for (const c of [1, 3, 4] as const)
      for (const [w, h] of [
        [1, 700],
        [2, 301],
        [3, 97],
        [85, 64],
        [86, 63],
      ]) {
        const flat = new Uint8Array(w * h * c).fill(200);
        expectSamePng(flat, w, h, c);
        expectSamePng(
          Uint8Array.from({ length: w * h * c }, (_, i) => [9, 9, 3, 250, 7][i % 5]),
          w,
          h,
          c,
        );
        const patched = noise(w * h * c, w * h + c);
        patched.fill(17, (w * h * c) >> 3, (w * h * c) >> 1);
        expectSamePng(patched, w, h, c);
      }
  });

  it("matches at the window's edge and beyond it, and empty input (the zlib stream alone)", () => {
    const deflate = (data: Uint8Array) => {
      const s = scratch(align16(data.length) + kernels().deflateBound(data.length));
      s.bytes.set(data, s.base);
      const length = kernels().zlibDeflate(s.base, data.length, s.base + align16(data.length), 0, 1);
      return s.bytes.slice(s.base + align16(data.length), s.base + align16(data.length) + length);
    };
    // Noise repeated once: within the 32 KB window the copy is one run of matches, beyond it nothing matches.
    for (const period of [3, 1000, 32_767, 32_768, 32_769, 40_000]) {
      const block = noise(period, period);
      const data = concat([block, block]);
      const packed = deflate(data);
      expect(differingBytes(unzlibSync(packed), data), `period ${period}`).toBe(0);
      if (period <= 32_768) expect(packed.length, `period ${period}`).toBeLessThan(period + 1000);
      else expect(packed.length, `period ${period}`).toBeGreaterThan(2 * period);
    }
    expect(unzlibSync(deflate(new Uint8Array(0)))).toEqual(new Uint8Array(0));
  });
});

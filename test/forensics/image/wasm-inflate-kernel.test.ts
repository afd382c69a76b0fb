// The inflate kernel (wasm/assembly/inflate.ts) against fflate, its reference: on every stream it finishes
// it gives fflate's bytes, and it finishes no stream that fflate cannot inflate (damage goes back to fflate,
// so a damaged PNG is reported as before: wasm-png-kernels.test.ts decodes such files both ways).
import { unzlibSync, zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { encodePng } from "../../../src/scanner/images/png-encode";
import { pngChunks } from "../../../src/scanner/images/png-chunks";
import { PngStripDecoder } from "../../../src/scanner/images/png-strip-decoder";
import { kernels, scratchRegions } from "../../../src/scanner/images/wasm-kernels";
import { concat, zlibRun } from "../../support/hostile-inputs";
import { sharedFile, noiseBytes as noise } from "./fixtures";

/** The kernel's result: the bytes, or its error code (−1 damaged, −2 longer than `capacity`). */
function kernelInflate(stream: Uint8Array, capacity: number): Uint8Array | number {
  const { at, bytes } = scratchRegions({ input: stream.length, output: capacity });
  bytes.set(stream, at.input);
  const n = kernels().zlibInflate(at.input, stream.length, at.output, capacity);
  return n < 0 ? n : bytes.slice(at.output, at.output + n);
}

function fflateInflate(stream: Uint8Array): Uint8Array | null {
  try {
    return unzlibSync(stream);
  } catch {
    return null;
  }
}

function expectSameBytes(a: Uint8Array, b: Uint8Array): void {
  expect(a.length).toBe(b.length);
  let differing = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing++;
  expect(differing).toBe(0);
}

/** A valid stream: the kernel inflates it to fflate's bytes. */
function expectSameInflate(stream: Uint8Array): Uint8Array {
  const want = unzlibSync(stream);
  const got = kernelInflate(stream, want.length);
  if (typeof got === "number") throw new Error(`kernel error ${got}`);
  expectSameBytes(got, want);
  return want;
}

describe("inflate kernel: fflate's bytes", () => {
  it("of a PNG's image data (pixels made of a photo file's bytes) and of streams from fflate at every kind of block (stored, fixed, dynamic)", async () => {
    const png = await sharedFile("photos/opencv-doc/leuvenA.jpg").then((jpeg) => {
      const bytes = new Uint8Array(64 * 48 * 4).map((_, i) => jpeg[i % jpeg.length]);
      return encodePng(bytes, 64, 48, 4, { reference: true });
    });
    expectSameInflate(concat(pngChunks(png).flatMap((c) => (c.type === "IDAT" ? [c.data] : []))));
    for (const [length, alphabet] of [
      [0, 256],
      [1, 256],
      [100, 4],
      [70_000, 256],
      [300_000, 7],
      [200_003, 256],
    ])
      for (const level of [0, 1, 6, 9] as const)
        expectSameInflate(zlibSync(noise(length, length + level, alphabet), { level }));
    // Long runs (matches at distance 1, lengths 258), and the service's own deflate kernel's streams.
    expectSameInflate(zlibRun(1_000_000, 7));
    expectSameInflate(zlibSync(new Uint8Array(500_000)));
    const rows = new Uint8Array(300 * 301).map((_, i) => (i % 301 === 0 ? 0 : (i * 13) % 97));
    expectSameInflate(
      concat(pngChunks(encodePng(rows, 300, 301, 1)).flatMap((c) => (c.type === "IDAT" ? [c.data] : []))),
    );
  });

  it("a stream longer than the room given, a truncated one and a damaged one are refused", () => {
    const data = noise(50_000, 3, 16);
    const stream = zlibSync(data, { level: 6 });
    expect(kernelInflate(stream, data.length - 1)).toBe(-2);
    expect(kernelInflate(stream.subarray(0, stream.length - 8), data.length)).toBe(-1);
    const badHeader = stream.slice();
    badHeader[1] ^= 1;
    expect(kernelInflate(badHeader, data.length)).toBe(-1);
    const dictionary = stream.slice();
    dictionary[1] |= 32;
    expect(kernelInflate(dictionary, data.length)).toBe(-1);
    // Block type 3.
    expect(kernelInflate(new Uint8Array([0x78, 0x01, 0x07, 0, 0, 0, 0, 0]), 10)).toBe(-1);
    // Stored length and its complement disagree.
    expect(kernelInflate(new Uint8Array([0x78, 0x01, 0x01, 5, 0, 0xfa, 0xfe, 1, 2, 3, 4, 5, 0, 0, 0, 0]), 10)).toBe(-1);
    // A distance reaching before the start (fixed codes: literal 'a', then length 3 at distance 4).
    expect(kernelInflate(new Uint8Array([0x78, 0x01, 0x4b, 0x04, 0x62, 0x00, 0x00, 0, 0, 0, 0]), 10)).toBe(-1);
  });

  it("finishes no damaged stream that fflate refuses, and gives fflate's bytes where both finish", () => {
    const data = noise(40_000, 11, 12);
    const streams = [
      zlibSync(data, { level: 1 }),
      zlibSync(data, { level: 9 }),
      zlibSync(noise(3000, 5), { level: 0 }),
    ];
    let refusedByBoth = 0;
    for (const stream of streams)
      for (let k = 0; k < 300; k++) {
        const damaged = stream.slice();
        const at = 2 + ((k * 7919) % (damaged.length - 2));
        damaged[at] ^= 1 << (k % 8);
        const cut = k % 3 === 0 ? damaged.subarray(0, at + 1) : damaged;
        const want = fflateInflate(cut);
        const got = kernelInflate(cut, 1 << 20);
        if (typeof got === "number") {
          if (!want) refusedByBoth++;
          continue;
        }
        expect(want, `stream ${streams.indexOf(stream)}, byte ${at}`).not.toBeNull();
        if (want) expectSameBytes(got, want);
      }
    expect(refusedByBoth).toBeGreaterThan(100);
  });

  it("a small PNG decoded through it gives the reference's rows (at odd sizes, every colour type, a cut stream)", () => {
    const decode = (bytes: Uint8Array, reference: boolean) => {
      const decoder = PngStripDecoder.open(bytes, { reference });
      if (typeof decoder === "string") throw new Error(decoder);
      const out: Uint8Array[] = [];
      try {
        for (let band = decoder.next(); band; band = decoder.next()) out.push(band.rgba.slice());
        return { rows: concat(out), error: "" };
      } catch (error) {
        return { rows: concat(out), error: (error as Error).message };
      }
    };
    for (const [w, h, channels] of [
      [1, 1, 4],
      [17, 9, 3],
      [63, 41, 1],
      [301, 203, 4],
    ] as const) {
      const png = encodePng(noise(w * h * channels, w * h, 9), w, h, channels);
      const wasm = decode(png, false);
      expect(wasm.error).toBe("");
      expectSameBytes(wasm.rows, decode(png, true).rows);
      const idatEnd = png.length - 12 - 4;
      const cut = concat([png.subarray(0, idatEnd - 20), png.subarray(idatEnd)]);
      const [a, b] = [decode(cut, false), decode(cut, true)];
      expect(a.error).toBe(b.error);
      expectSameBytes(a.rows, b.rows);
    }
  });
});

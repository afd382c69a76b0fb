import { PhotonImage } from "@cf-wasm/photon";
import { zlibSync } from "fflate";
import { describe, expect, it } from "vitest";
import { crc32 } from "../../../src/lib/crc32";
import { encodePng } from "../../../src/scanner/images/png-encode";
import { PngDataError, PngStripDecoder } from "../../../src/scanner/images/png-strip-decoder";
import { ImageDataError } from "../../../src/scanner/images/rgba-band";
import { generatedFile } from "./fixtures";

function open(bytes: Uint8Array): PngStripDecoder {
  const decoder = PngStripDecoder.open(bytes);
  if (typeof decoder === "string") throw new Error(decoder);
  return decoder;
}

/** The whole picture as RGBA from the strip decoder, and the band sizes it used. */
function decode(bytes: Uint8Array): { rgba: Uint8Array; width: number; height: number; bands: number[] } {
  const decoder = open(bytes);
  const rgba = new Uint8Array(decoder.width * decoder.height * 4);
  const bands: number[] = [];
  for (let band = decoder.next(); band; band = decoder.next()) {
    expect(band.y).toBe(bands.reduce((a, b) => a + b, 0));
    rgba.set(band.rgba, band.y * decoder.width * 4);
    bands.push(band.rows);
  }
  return { rgba, width: decoder.width, height: decoder.height, bands };
}

/** Largest per-channel |ours − photon| (RGBA, alpha included). */
function maxDifferenceToPhoton(bytes: Uint8Array): number {
  const image = PhotonImage.new_from_byteslice(bytes);
  const reference = image.get_raw_pixels();
  image.free();
  const { rgba } = decode(bytes);
  expect(rgba.length).toBe(reference.length);
  let max = 0;
  for (let i = 0; i < rgba.length; i++) max = Math.max(max, Math.abs(rgba[i] - reference[i]));
  return max;
}

function decodeError(bytes: Uint8Array): Error | null {
  try {
    decode(bytes);
    return null;
  } catch (error) {
    return error as Error;
  }
}

describe("PNG strip decoder: pixels identical to photon's decode (Rust png crate), every colour type and bit depth", () => {
  const cases = [
    ["gray-1bit.png", "gray, 1 bit (odd width: a partial last byte)"],
    ["gray-4bit.png", "gray, 4 bits (ImageMagick)"],
    ["gray-8bit.png", "gray, 8 bits, Sub/Up/Paeth filters"],
    ["gray-8bit-trns.png", "gray, 8 bits, tRNS key → alpha 0"],
    ["gray-alpha-8bit.png", "gray + alpha, 8 bits"],
    ["palette-2bit-trns.png", "palette, 2 bits, tRNS alphas"],
    ["palette-4bit-trns.png", "palette, 4 bits, tRNS alphas"],
    ["palette-8bit-trns.png", "palette, 8 bits, tRNS alphas"],
    ["rgb-8bit.png", "RGB, 8 bits"],
    ["rgb-8bit-trns.png", "RGB, 8 bits, tRNS key colour"],
    ["rgba-8bit.png", "RGBA, 8 bits"],
    ["rgba-8bit-every-filter.png", "RGBA, row y filtered with type y mod 5 (None, Sub, Up, Average, Paeth)"],
  ] as const;
  for (const [name, what] of cases) {
    it(what, async () => {
      expect(maxDifferenceToPhoton(await generatedFile(`png/${name}`))).toBe(0);
    });
  }

  it("16-bit gray, RGB (6 IDAT chunks) and RGBA: rounded to 8 bits, within 1 of photon", async () => {
    for (const name of ["gray-16bit.png", "rgb-16bit.png", "rgba-16bit.png"])
      expect(maxDifferenceToPhoton(await generatedFile(`png/${name}`)), name).toBeLessThanOrEqual(1);
  });

  it("the Average-filtered rows decode to the same pixels as the adaptively filtered copy", async () => {
    expect(decode(await generatedFile("png/rgba-8bit-every-filter.png")).rgba).toEqual(
      decode(await generatedFile("png/rgba-8bit.png")).rgba,
    );
  });

  it("hands out bands of 16 rows, the last one shorter", async () => {
    expect(decode(await generatedFile("png/rgb-8bit.png")).bands).toEqual([16, 16, 16, 16, 16, 16, 1]);
  });
});

describe("PNG strip decoder: what it refuses (callers fall back to photon within its cap)", () => {
  it("an interlaced (Adam7) file", async () => {
    expect(PngStripDecoder.open(await generatedFile("png/rgb-8bit-interlaced.png"))).toBe("interlaced");
  });

  it("headers declaring more than 50 MP or a side over 65 535, before allocating anything", () => {
    expect(PngStripDecoder.open(withSize(10_000, 5_001))).toBe("too many pixels");
    expect(PngStripDecoder.open(withSize(70_000, 10))).toBe("size 70000 × 10");
    expect(typeof PngStripDecoder.open(withSize(10_000, 5_000))).not.toBe("string");
  });

  it("a bit depth the colour type does not allow, a palette image without PLTE, not a PNG", async () => {
    const png = encodePng(new Uint8Array(4 * 4 * 3), 4, 4, 3);
    expect(PngStripDecoder.open(patchIhdr(png, 8, 4))).toBe("colour type 2 with bit depth 4");
    expect(PngStripDecoder.open(patchIhdr(png, 9, 3))).toBe("palette image without PLTE");
    expect(PngStripDecoder.open(await generatedFile("grayscale.jpg"))).toBe("not a PNG");
  });
});

describe("PNG strip decoder: damaged data throws PngDataError (an ImageDataError), never hangs", () => {
  it("a file cut in the middle of its image data", async () => {
    const bytes = await generatedFile("png/rgb-16bit.png");
    const error = decodeError(bytes.slice(0, Math.floor(bytes.length * 0.6)));
    expect(error).toBeInstanceOf(PngDataError);
    expect(error).toBeInstanceOf(ImageDataError);
    expect(error?.message).toMatch(/ends in row \d+ of 97/);
  });

  it("a file cut after its header (no image data at all)", () => {
    const error = decodeError(encodePng(new Uint8Array(4 * 4 * 3), 4, 4, 3).slice(0, 33));
    expect(error).toBeInstanceOf(PngDataError);
    expect(error?.message).toBe("the image data ends in row 1 of 4 (truncated file?)");
  });

  it("a scanline with filter type 7", () => {
    const raw = new Uint8Array(4 * (1 + 4 * 3));
    raw[13] = 7;
    expect(decodeError(pngFromScanlines(4, 4, raw))?.message).toBe("unknown filter type 7 in row 2");
  });

  it("garbage in the compressed stream either decodes or throws PngDataError", async () => {
    const bytes = await generatedFile("png/rgb-8bit.png");
    for (let seed = 1; seed <= 20; seed++) {
      const garbled = bytes.slice();
      for (let i = 0; i < 40; i++) garbled[60 + ((seed * 7919 + i * 104_729) % (garbled.length - 80))] ^= 0x5a;
      const error = decodeError(garbled);
      if (error) expect(error).toBeInstanceOf(PngDataError);
    }
  });
});

describe("PNG strip decoder: large pictures are streamed", () => {
  it("a 9000 × 1000 PNG (9 MP, over photon's 6 MP cap) decodes row for row like the pixels it was made from", () => {
    const width = 9000;
    const height = 1000;
    const pixels = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) pixels.set([x & 0xff, y & 0xff, (x ^ y) & 0xff], (y * width + x) * 3);
    const decoder = open(encodePng(pixels, width, height, 3));
    let rows = 0;
    for (let band = decoder.next(); band; band = decoder.next()) {
      for (let r = 0; r < band.rows; r++) {
        const y = band.y + r;
        for (const x of [0, 1, 4321, width - 1])
          expect([...band.rgba.subarray((r * width + x) * 4, (r * width + x) * 4 + 4)]).toEqual([
            x & 0xff,
            y & 0xff,
            (x ^ y) & 0xff,
            255,
          ]);
      }
      rows += band.rows;
    }
    expect(rows).toBe(height);
  });
});

/** A PNG header claiming width × height, with a tiny IDAT. */
function withSize(width: number, height: number): Uint8Array {
  const png = encodePng(new Uint8Array(4), 1, 1, 4);
  const view = new DataView(png.buffer, png.byteOffset);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return png;
}

/** The PNG with one IHDR byte changed (offset within IHDR data: 8 = bit depth, 9 = colour type). */
function patchIhdr(png: Uint8Array, offset: number, value: number): Uint8Array {
  const patched = png.slice();
  patched[16 + offset] = value;
  return patched;
}

/** An 8-bit RGB PNG whose IDAT holds these raw scanlines (filter bytes included). */
function pngFromScanlines(width: number, height: number, raw: Uint8Array): Uint8Array {
  const headerChunks = encodePng(new Uint8Array(width * height * 3), width, height, 3).subarray(0, 33);
  const parts = [headerChunks, chunk("IDAT", zlibSync(raw)), chunk("IEND", new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (png.set(p, at), at + p.length), 0);
  return png;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

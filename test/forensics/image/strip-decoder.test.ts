import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { decodeLumaCoefficients, type WasmLumaRows } from "../../../src/scanner/images/jpeg-coefficients";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { JpegDataError, JpegStripDecoder } from "../../../src/scanner/images/jpeg-strip-decoder";
import { kernels } from "../../../src/scanner/images/wasm-kernels";
import { croppedJpeg } from "./cropped-jpeg";
import { generatedFile, sharedFile } from "./fixtures";

function open(bytes: Uint8Array): JpegStripDecoder {
  const decoder = JpegStripDecoder.open(bytes);
  if (typeof decoder === "string") throw new Error(decoder);
  return decoder;
}

/** Per-channel |ours − photon| over the whole picture (RGB, alpha ignored). */
function differenceToPhoton(bytes: Uint8Array): { max: number; mean: number; bandHeight: number } {
  const image = PhotonImage.new_from_byteslice(bytes);
  const reference = image.get_raw_pixels();
  image.free();
  const decoder = open(bytes);
  let max = 0;
  let sum = 0;
  let n = 0;
  for (let band = decoder.next(); band; band = decoder.next()) {
    const offset = band.y * decoder.width * 4;
    for (let i = 0; i < band.rgba.length; i++) {
      if ((i & 3) === 3) continue;
      const d = Math.abs(band.rgba[i] - reference[offset + i]);
      max = Math.max(max, d);
      sum += d;
      n++;
    }
  }
  expect(n).toBe(decoder.width * decoder.height * 3);
  return { max, mean: sum / n, bandHeight: decoder.bandHeight };
}

/** Decodes to the end; returns the error that stopped it, or null. */
function decodeAll(bytes: Uint8Array): Error | null {
  const decoder = open(bytes);
  try {
    while (decoder.next());
    return null;
  } catch (error) {
    return error as Error;
  }
}

describe("strip decoder: pixels identical to photon's decode (Rust jpeg-decoder)", () => {
  const cases = [
    { what: "4:2:0 camera photo (leuvenA)", file: () => sharedFile("photos/opencv-doc/leuvenA.jpg"), bandHeight: 16 },
    {
      what: "4:2:0, restart interval 204 (iPhone HDR, 8 MP)",
      file: () => sharedFile("exif-samples/jpg/hdr/iphone_hdr_YES.jpg"),
      bandHeight: 16,
    },
    {
      what: "4:2:2, restart interval 4 (Fujifilm MX-1700)",
      file: () => sharedFile("exif-samples/jpg/exif-org/fujifilm-mx1700.jpg"),
      bandHeight: 8,
    },
    {
      what: "4:4:0 (1×2 luma sampling)",
      file: () => sharedFile("exif-samples/jpg/tests/28-hex_value.jpg"),
      bandHeight: 16,
    },
    { what: "4:4:4", file: () => sharedFile("exif-samples/jpg/invalid/image00971.jpg"), bandHeight: 8 },
    {
      what: "4:4:4 with an Adobe APP14 segment (Nikon E950)",
      file: () => sharedFile("exif-samples/jpg/exif-org/nikon-e950.jpg"),
      bandHeight: 8,
    },
    { what: "grayscale, odd size 250 × 203", file: () => generatedFile("grayscale.jpg"), bandHeight: 8 },
    { what: "restart interval 3 (OpenCV)", file: () => generatedFile("restart-interval.jpg"), bandHeight: 16 },
  ];
  for (const { what, file, bandHeight } of cases) {
    it(what, async () => {
      expect(differenceToPhoton(await file())).toEqual({ max: 0, mean: 0, bandHeight });
    });
  }
});

describe("strip decoder: damaged and unsupported files", () => {
  it("a truncated file (exif-samples corrupted.jpg) throws JpegDataError, it does not hang", async () => {
    const error = decodeAll(await sharedFile("exif-samples/jpg/corrupted.jpg"));
    expect(error).toBeInstanceOf(JpegDataError);
    expect(error?.message).toMatch(/ends early/);
  });

  it("a file cut in the middle of its entropy-coded data throws JpegDataError", async () => {
    const bytes = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    expect(decodeAll(bytes.slice(0, Math.floor(bytes.length * 0.6)))).toBeInstanceOf(JpegDataError);
  });

  it("overwritten entropy-coded data either decodes or throws JpegDataError, in bounded time", async () => {
    const original = await generatedFile("restart-interval.jpg");
    for (let seed = 1; seed <= 20; seed++) {
      const bytes = original.slice();
      for (let k = 0; k < 8; k++)
        bytes[1000 + ((seed * 7919 * (k + 1)) % (bytes.length - 1200))] = (seed * 31 + k * 17) & 0xff;
      const error = decodeAll(bytes);
      if (error) expect(error).toBeInstanceOf(JpegDataError);
    }
  });

  it("progressive JPEGs are read too (jpeg-progressive.ts; test/forensics/image/progressive-decoder.test.ts)", async () => {
    expect(open(await sharedFile("photos/opencv-doc/ela_original.jpg")).bandHeight).toBe(8);
  });
});

describe("strip decoder: the luminance blocks it hands on while decoding (one Huffman pass for pixels and coefficients)", () => {
  /** Every visited block as "row,col:coefficients", in visiting order, and the bands' bytes. */
  function tapped(bytes: Uint8Array, reference: boolean) {
    const blocks: string[] = [];
    const decoder = JpegStripDecoder.open(bytes, undefined, {
      reference,
      luma: (row, col, coefficients) => blocks.push(`${row},${col}:${coefficients.join(" ")}`),
    });
    if (typeof decoder === "string") throw new Error(decoder);
    let pixels = 0;
    for (let band = decoder.next(); band; band = decoder.next())
      for (const v of band.rgba) pixels = (pixels * 31 + v) | 0;
    return { blocks, pixels };
  }

  it("the blocks decodeLumaCoefficients visits (4:2:0, grayscale of an odd size, 4:2:2, 4:4:0, progressive), in its order, with the wasm kernels and the JavaScript reference alike; the pixels unchanged", async () => {
    for (const bytes of [
      await sharedFile("photos/opencv-doc/leuvenA.jpg"),
      await generatedFile("grayscale.jpg"),
      await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg"),
      await sharedFile("exif-samples/jpg/tests/28-hex_value.jpg"), // 4:4:0: two luma blocks per MCU, one above the other
      // Progressive: a row's blocks are complete once every scan added its part to it.
      await sharedFile("photos/opencv-doc/ela_modified.jpg"),
      await generatedFile("progressive/scan-script.jpg"),
    ]) {
      const alone: string[] = [];
      const result = await decodeLumaCoefficients(bytes, parseJpegStructure(bytes), (row, col, coefficients) =>
        alone.push(`${row},${col}:${coefficients.join(" ")}`),
      );
      expect(result.error).toBeNull();
      const wasm = tapped(bytes, false);
      expect(wasm.blocks.length).toBe(result.blocksWide * result.blocksHigh);
      expect(wasm.blocks).toEqual(alone);
      expect(tapped(bytes, true).blocks).toEqual(alone);
      let plain = 0;
      const decoder = open(bytes);
      for (let band = decoder.next(); band; band = decoder.next())
        for (const v of band.rgba) plain = (plain * 31 + v) | 0;
      expect(wasm.pixels).toBe(plain);
    }
  });
});

describe("strip decoder: the luminance block rows it hands on in wasm memory (the shared pass's row sinks)", () => {
  /** Every handed row as "first+count:coefficients|samples" (copied out of wasm memory, samples asked for first). */
  function collector(width: number) {
    const rows: string[] = [];
    const visit = (r: WasmLumaRows) => {
      const length = r.count * r.blocksWide * 64;
      expect(r.blocksWide).toBe(Math.ceil(width / 8));
      const samples = r.samples();
      const memory = kernels().memory.buffer;
      const q = new Int16Array(memory, r.coefficients, length).join(" ");
      rows.push(`${r.first}+${r.count}:${q}|${new Uint8Array(memory, samples, length).join(" ")}`);
    };
    return { rows, visit };
  }

  /** The rows a decoder opened with `lumaRows` hands on, and a checksum of its bands. */
  function tappedRows(bytes: Uint8Array, reference: boolean) {
    const decoder = JpegStripDecoder.open(bytes, undefined, { reference, lumaRows: (r) => rows.visit(r) });
    if (typeof decoder === "string") throw new Error(decoder);
    const rows = collector(decoder.width);
    let pixels = 0;
    for (let band = decoder.next(); band; band = decoder.next())
      for (const v of band.rgba) pixels = (pixels * 31 + v) | 0;
    return { rows: rows.rows, pixels };
  }

  it("decodeLumaCoefficients' rows (coefficients and integer IDCT samples) with the wasm kernels and the JavaScript reference alike, at odd sizes too; the pixels unchanged", async () => {
    const files = [
      await sharedFile("photos/opencv-doc/leuvenA.jpg"),
      await generatedFile("grayscale.jpg"),
      await sharedFile("exif-samples/jpg/exif-org/fujifilm-mx1700.jpg"), // 4:2:2, restart interval 4
      await sharedFile("exif-samples/jpg/tests/28-hex_value.jpg"), // 4:4:0: two luma blocks per MCU, one above the other
      await sharedFile("photos/opencv-doc/ela_modified.jpg"), // progressive
      ...(await Promise.all(
        [
          [1, 1],
          [7, 9],
          [17, 1],
          [63, 41],
          [137, 71],
        ].map(([w, h]) => croppedJpeg(w, h)),
      )),
    ];
    for (const bytes of files) {
      const structure = parseJpegStructure(bytes);
      const frame = structure.frame;
      const table = frame && structure.quantTables.get(frame.components[0].tq);
      if (!frame || !table) throw new Error("not a JPEG with a luminance table");
      const alone = collector(frame.width);
      const result = await decodeLumaCoefficients(bytes, structure, null, { rows: { table, visit: alone.visit } });
      expect(result.error).toBeNull();
      const wasm = tappedRows(bytes, false);
      expect(wasm.rows).toEqual(alone.rows);
      expect(tappedRows(bytes, true).rows).toEqual(alone.rows);
      let plain = 0;
      const decoder = open(bytes);
      for (let band = decoder.next(); band; band = decoder.next())
        for (const v of band.rgba) plain = (plain * 31 + v) | 0;
      expect(wasm.pixels).toBe(plain);
    }
  });

  it("is refused when the luminance block grid is not the picture's (a chroma component sampled more finely)", async () => {
    const bytes = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const structure = parseJpegStructure(bytes);
    const frame = structure.frame;
    if (!frame) throw new Error("no frame");
    const odd = { ...frame, components: frame.components.map((c, i) => (i === 1 ? { ...c, h: 4, v: 4 } : c)) };
    expect(JpegStripDecoder.open(bytes, { ...structure, frame: odd }, { lumaRows: () => {} })).toBe(
      "luminance block grid is not the picture's",
    );
  });
});

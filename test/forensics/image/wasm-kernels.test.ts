import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import kernelsModule from "#wasm-kernels";
import { relativeToPeers } from "../../../src/scanner/images/anomaly";
import { type BlockMaps, coefficientMaps, computeBlockMaps } from "../../../src/scanner/images/block-analysis";
import { candidatePairsOf, searchCopyMove } from "../../../src/scanner/images/block-matching";
import { downscale, type GrayImage, lumaFromRgba } from "../../../src/scanner/images/gray";
import { heatmapSize, renderHeatmapPng, renderHeatmapRgba } from "../../../src/scanner/images/heatmap";
import { MAX_WINDOW } from "../../../src/scanner/images/jpeg-entropy-wasm";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { JpegStripDecoder } from "../../../src/scanner/images/jpeg-strip-decoder";
import { PngStripDecoder } from "../../../src/scanner/images/png-strip-decoder";
import { decodeSmallLuma } from "../../../src/scanner/images/thumbnail-compare";
import { kernels } from "../../../src/scanner/images/wasm-kernels";
import { croppedJpeg } from "./cropped-jpeg";
import { generatedFile, sharedFile } from "./fixtures";
import { withJunkBeforeRestart } from "./progressive-fixtures";

// The AssemblyScript sources as text (Vite `?raw`), keyed by path: what scripts/build-wasm.mjs digests.
const sources = import.meta.glob("../../../wasm/assembly/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** The same digest as `sourceDigest` in scripts/build-wasm.mjs: name, NUL, text, NUL; sorted by name. */
async function sourceDigest(): Promise<string> {
  const files = Object.entries(sources)
    .map(([path, text]) => [path.slice(path.lastIndexOf("/") + 1), text])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bytes = new TextEncoder().encode(files.map(([name, text]) => `${name}\0${text}\0`).join(""));
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

type Outcome = { width: number; height: number; bands: Uint8Array[]; error: string | null };

/** Every band (copied) and the error that stopped the decode, with the wasm kernels or the JavaScript reference. */
function decode(bytes: Uint8Array, reference: boolean): Outcome | string {
  const decoder = JpegStripDecoder.open(bytes, undefined, { reference });
  if (typeof decoder === "string") return decoder;
  const bands: Uint8Array[] = [];
  try {
    for (let band = decoder.next(); band; band = decoder.next()) bands.push(band.rgba.slice());
    return { width: decoder.width, height: decoder.height, bands, error: null };
  } catch (error) {
    return {
      width: decoder.width,
      height: decoder.height,
      bands,
      error: `${(error as Error).name}: ${(error as Error).message}`,
    };
  }
}

/** Number of band bytes that differ (0 = identical), after checking that both stopped alike. */
function decodersDiffer(bytes: Uint8Array): { wasm: Outcome | string; differing: number } {
  const wasm = decode(bytes, false);
  const reference = decode(bytes, true);
  if (typeof wasm === "string" || typeof reference === "string") {
    expect(wasm).toEqual(reference);
    return { wasm, differing: 0 };
  }
  expect({ ...wasm, bands: wasm.bands.length }).toEqual({ ...reference, bands: reference.bands.length });
  let differing = 0;
  wasm.bands.forEach((band, i) => {
    for (let k = 0; k < band.length; k++) if (band[k] !== reference.bands[i][k]) differing++;
  });
  return { wasm, differing };
}

/** Positions where two arrays differ (Object.is), plus the length difference. */
function differingBytes(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

const MAP_FIELDS = ["mean", "activity", "ela", "noise", "clipped"] as const;

/** Positions where the wasm and reference maps differ, per field (Object.is: −0, NaN count). */
function mapDifferences(a: BlockMaps, b: BlockMaps): Record<string, number> {
  const out: Record<string, number> = {};
  const count = (x: ArrayLike<number>, y: ArrayLike<number>) => {
    let n = x.length === y.length ? 0 : Math.max(x.length, y.length);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (!Object.is(x[i], y[i])) n++;
    return n;
  };
  for (const f of MAP_FIELDS) out[f] = count(a[f], b[f]);
  out.preview = count(a.preview.data, b.preview.data);
  return out;
}

async function mapsDiffer(bytes: Uint8Array): Promise<{ source: string; differences: Record<string, number> }> {
  const wasm = await computeBlockMaps(bytes);
  const reference = await computeBlockMaps(bytes, { reference: true });
  expect(wasm.ok).toBe(reference.ok);
  if (!wasm.ok || !reference.ok) {
    expect(wasm).toEqual(reference);
    return { source: "none", differences: {} };
  }
  expect(wasm.maps.histograms).toEqual(reference.maps.histograms);
  return { source: wasm.maps.source, differences: mapDifferences(wasm.maps, reference.maps) };
}

const SAME = { mean: 0, activity: 0, ela: 0, noise: 0, clipped: 0, preview: 0 };

const PHOTOS = [
  { what: "4:2:0 phone photo, 751 × 563 (leuvenA)", file: () => sharedFile("photos/opencv-doc/leuvenA.jpg") },
  { what: "4:2:2, restart interval 4", file: () => sharedFile("exif-samples/jpg/exif-org/fujifilm-mx1700.jpg") },
  {
    what: "4:2:2, 100 × 75 (chroma lines of 50 samples: the upsampling's vector loop and its scalar tail)",
    file: () => sharedFile("exif-samples/jpg/Nikon_COOLPIX_P1.jpg"),
  },
  { what: "4:4:0 (1×2 luma sampling)", file: () => sharedFile("exif-samples/jpg/tests/28-hex_value.jpg") },
  { what: "4:4:4", file: () => sharedFile("exif-samples/jpg/invalid/image00971.jpg") },
  { what: "4:4:4 with Adobe APP14", file: () => sharedFile("exif-samples/jpg/exif-org/nikon-e950.jpg") },
  { what: "grayscale, 250 × 203", file: () => generatedFile("grayscale.jpg") },
  { what: "restart interval 3", file: () => generatedFile("restart-interval.jpg") },
  { what: "59 × 100 camera thumbnail", file: () => sharedFile("exif-samples/jpg/Fujifilm_FinePix_E500.jpg") },
  { what: "70 × 100 camera thumbnail", file: () => sharedFile("exif-samples/jpg/Konica_Minolta_DiMAGE_Z3.jpg") },
  {
    what: "2560 × 1600 wallpaper (MCU rows longer than the first entropy window)",
    file: () => sharedFile("photos/plasma-workspace-wallpapers/ColdRipple-2560x1600.jpg"),
  },
];

/** Sizes around the 8 × 8 block and 16 × 16 MCU edges. */
const EDGE_SIZES: Array<[number, number]> = [
  [1, 1],
  [7, 9],
  [8, 8],
  [15, 17],
  [16, 16],
  [17, 1],
  [1, 33],
  [63, 41],
];

describe("wasm/kernels.wasm is built from wasm/assembly/", () => {
  it("the module records the digest of the current sources (rebuild: node scripts/build-wasm.mjs)", async () => {
    const [section] = WebAssembly.Module.customSections(kernelsModule, "sources-sha256");
    expect(Object.keys(sources).length).toBeGreaterThan(0);
    expect(new TextDecoder().decode(section)).toBe(await sourceDigest());
  });

  it("it needs nothing from its host (no imports) and uses v128 SIMD", () => {
    expect(WebAssembly.Module.imports(kernelsModule)).toEqual([]);
    expect(WebAssembly.Module.exports(kernelsModule).map((e) => e.name)).toContain("idctBlocks");
  });
});

describe("JPEG strip decoder: the wasm Huffman decoding, IDCT, upsampling and colour conversion give the reference's bytes", () => {
  for (const { what, file } of PHOTOS)
    it(what, async () => {
      const { wasm, differing } = decodersDiffer(await file());
      expect(typeof wasm).toBe("object");
      expect(differing).toBe(0);
    });

  it("at sizes that are not multiples of 8 or 16 (1 × 1 … 63 × 41)", async () => {
    for (const [w, h] of EDGE_SIZES) {
      const { wasm, differing } = decodersDiffer(await croppedJpeg(w, h));
      expect(typeof wasm === "object" && [wasm.width, wasm.height], `${w} × ${h}`).toEqual([w, h]);
      expect(differing, `${w} × ${h}`).toBe(0);
    }
  });

  it("on damaged files: the same rows before the same error (truncated, cut, overwritten)", async () => {
    const photo = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const restart = await generatedFile("restart-interval.jpg");
    const damaged = [
      await sharedFile("exif-samples/jpg/corrupted.jpg"),
      photo.slice(0, Math.floor(photo.length * 0.3)),
      photo.slice(0, Math.floor(photo.length * 0.6)),
    ];
    for (let seed = 1; seed <= 12; seed++) {
      const bytes = (seed % 2 ? restart : photo).slice();
      for (let k = 0; k < 8; k++)
        bytes[1000 + ((seed * 7919 * (k + 1)) % (bytes.length - 1200))] = (seed * 31 + k * 17) & 0xff;
      damaged.push(bytes);
    }
    // 0xFF bytes inside the data (markers and stuffed 0xFF 00 pairs where there were none): the bit reader's
    // byte-at-a-time path beside its up-to-seven-bytes-at-once one (entropy.ts fill).
    for (let seed = 1; seed <= 4; seed++) {
      const bytes = photo.slice();
      for (let k = 0; k < 6; k++) {
        const at = 2000 + ((seed * 104729 * (k + 1)) % (bytes.length - 4000));
        bytes[at] = 0xff;
        if (k % 2) bytes[at + 1] = 0x00;
      }
      damaged.push(bytes);
    }
    let errors = 0;
    for (const bytes of damaged) {
      const { wasm, differing } = decodersDiffer(bytes);
      if (typeof wasm === "object" && wasm.error) errors++;
      expect(differing).toBe(0);
    }
    expect(errors).toBeGreaterThanOrEqual(3);
  });
});

describe("a crafted file with megabytes of junk before a restart marker", () => {
  it("decodes like the reference, and the row too long for the wasm window leaves wasm memory small", async () => {
    const original = await generatedFile("restart-interval.jpg");
    const crafted = withJunkBeforeRestart(
      original,
      parseJpegStructure(original).scanStarts[0] + 200,
      MAX_WINDOW + 100_000,
    );
    const { wasm, differing } = decodersDiffer(crafted);
    expect(typeof wasm === "object" && wasm.bands.length).toBeGreaterThan(1);
    expect(differing).toBe(0);
    expect(await mapsDiffer(crafted)).toEqual({ source: "jpeg-coefficients", differences: SAME });
    expect(kernels().memory.buffer.byteLength).toBeLessThan(MAX_WINDOW + 4_000_000);
  });
});

describe("block maps (ELA, noise, preview): the wasm Huffman decoding and block pass give the reference's values exactly", () => {
  for (const { what, file } of PHOTOS)
    it(what, async () => {
      expect(await mapsDiffer(await file())).toEqual({ source: "jpeg-coefficients", differences: SAME });
    });

  it("at sizes that are not multiples of 8 or 16", async () => {
    for (const [w, h] of EDGE_SIZES)
      expect(await mapsDiffer(await croppedJpeg(w, h)), `${w} × ${h}`).toEqual({
        source: "jpeg-coefficients",
        differences: SAME,
      });
  });

  it("from pixels: a PNG (streamed)", async () => {
    expect(await mapsDiffer(await generatedFile("png/rgba-8bit.png"))).toEqual({ source: "pixels", differences: SAME });
  });

  it("a progressive JPEG: from its coefficients (jpeg-progressive.ts)", async () => {
    expect(await mapsDiffer(await sharedFile("photos/opencv-doc/ela_original.jpg"))).toEqual({
      source: "jpeg-coefficients",
      differences: SAME,
    });
  });

  it("a damaged file fails alike", async () => {
    const photo = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    expect(await mapsDiffer(photo.slice(0, photo.length >> 1))).toEqual({ source: "none", differences: {} });
  });
});

describe("block pass: the fast transforms' values are used only away from a rounding tie, the reference's dense ones elsewhere", () => {
  /** Differences between the wasm and the reference maps of coefficient blocks, and the stages the kernel redid densely. */
  const differ = (width: number, height: number, table: Uint16Array, blocks: Int16Array) => {
    kernels().takeDenseStages();
    const wasm = coefficientMaps(width, height, table, blocks, false);
    const dense = kernels().takeDenseStages();
    return { differences: mapDifferences(wasm, coefficientMaps(width, height, table, blocks, true)), dense };
  };
  /** A repeatable stream of integers in [from, to]. */
  const integers = (seed: number, from: number, to: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return from + (seed % (to - from + 1));
  };

  it("a phone photo: a few stages are redone densely, the maps are the reference's", async () => {
    const photo = (await sharedFile("photos/opencv-doc/leuvenA.jpg")).slice(); // fresh bytes: no cached maps
    kernels().takeDenseStages();
    expect(await mapsDiffer(photo)).toEqual({ source: "jpeg-coefficients", differences: SAME });
    const dense = kernels().takeDenseStages();
    const stages = 3 * Math.ceil(751 / 8) * Math.ceil(563 / 8);
    expect(dense).toBeGreaterThan(0);
    expect(dense).toBeLessThan(stages / 10);
  });

  it("flat blocks whose samples lie exactly on x.5 (ties of the first stage), 19 × 13 pixels", () => {
    const ones = new Uint16Array(64).fill(1);
    const blocks = new Int16Array(64 * 6);
    // DC / 8 + 128 = x.5 for DC ≡ 4 (mod 8); the (0, 4) and (4, 0) terms are ± DC-like eighths too.
    [4, -4, 12, 1020].forEach((dc, i) => {
      blocks[i * 64] = dc;
    });
    blocks[4 * 64] = 20;
    blocks[4 * 64 + 4] = 8;
    blocks[5 * 64] = -36;
    blocks[5 * 64 + 32] = 16;
    const { differences, dense } = differ(19, 13, ones, blocks);
    expect(differences).toEqual(SAME);
    expect(dense).toBeGreaterThanOrEqual(4);
  });

  it("coefficients no camera writes: dequantised values up to ± 2^31 and around the fast range's limit 2^16, 107 × 19 pixels", () => {
    const blocksWide = 14;
    const count = blocksWide * 3;
    const next = integers(7, -32768, 32767);
    const huge = Int16Array.from({ length: count * 64 }, next);
    const table = new Uint16Array(64).fill(65535);
    const result = differ(107, 19, table, huge);
    expect(result.differences).toEqual(SAME);
    expect(result.dense).toBeGreaterThanOrEqual(count);
    const small = integers(11, 60, 70);
    const nearLimit = Int16Array.from({ length: count * 64 }, (_, k) => (k % 64 < 3 ? small() * (k % 2 ? -1 : 1) : 0));
    expect(differ(107, 19, new Uint16Array(64).fill(1024), nearLimit).differences).toEqual(SAME);
  });
});

describe("copy-move search: the wasm block hashes give the reference's search result exactly", () => {
  const expectSameSearch = (img: GrayImage) => {
    const wasm = searchCopyMove(img);
    const reference = searchCopyMove(img, { reference: true });
    expect(differingBytes(wasm.judged, reference.judged)).toBe(0);
    expect(JSON.stringify({ ...wasm, judged: 0 })).toBe(JSON.stringify({ ...reference, judged: 0 }));
    return wasm;
  };
  const pictures = [
    { what: "phone photo (leuvenA, 751 × 563)", file: () => sharedFile("photos/opencv-doc/leuvenA.jpg") },
    { what: "a picture with a copied area (512 × 384)", file: () => generatedFile("copymove/leuvenA.jpg") },
    { what: "an odd-sized grayscale picture (250 × 203)", file: () => generatedFile("grayscale.jpg") },
  ];
  for (const { what, file } of pictures)
    it(what, async () => {
      const luma = decodeSmallLuma(await file(), 4_000_000);
      if (!luma) throw new Error("not decodable");
      expect(expectSameSearch(luma).blocksCompared).toBeGreaterThan(0);
      // Odd sizes (not multiples of 4, 8 or 16): the last kernel lane and the last rows of a call.
      expect(expectSameSearch(downscale(luma, 233)).blocksCompared).toBeGreaterThan(0);
    });

  it("a copied area is found alike, with cell means on the quantiser's steps (whole grey levels)", async () => {
    const luma = decodeSmallLuma(await generatedFile("copymove/leuvenA.jpg"), 4_000_000);
    if (!luma) throw new Error("not decodable");
    const rounded = { ...luma, data: luma.data.map(Math.round) };
    expect(expectSameSearch(rounded).areas[0]?.blocks.length ?? 0).toBeGreaterThan(0);
  });

  it("flat, saturated and too small pictures", () => {
    expectSameSearch({ width: 7, height: 5, data: new Float32Array(35).fill(100) });
    expectSameSearch({ width: 15, height: 40, data: new Float32Array(600).fill(255) });
    expectSameSearch({ width: 17, height: 16, data: Float32Array.from({ length: 272 }, (_, i) => (i % 3 ? 0 : 255)) });
    expect(expectSameSearch({ width: 64, height: 64, data: new Float32Array(4096).fill(0) }).blocksCompared).toBe(0);
  });
});

describe("copy-move search: the wasm cell means and hash groups give the reference's candidate pairs exactly (the same pairs in the same order)", () => {
  /**
   * Cell means, pairs, twin counts and judged positions of both, the kernel's also with its output cut into calls of
   * 9 pairs (one block's at most 8), in an instance of its own and with every block's detail decided by the
   * reference's order (the kernel's fallback where its own sums come too near the threshold).
   */
  const expectSamePairs = (img: GrayImage) => {
    const reference = candidatePairsOf(img, { reference: true });
    const variants = [{}, { pairsPerCall: 9 }, { ownScratch: true }, { residualSlack: Number.POSITIVE_INFINITY }];
    for (const wasm of variants.map((options) => candidatePairsOf(img, options))) {
      expect(wasm.blocksCompared).toBe(reference.blocksCompared);
      expect(wasm.first.length).toBe(reference.first.length);
      expect(differingBytes(wasm.first, reference.first)).toBe(0);
      expect(differingBytes(wasm.shift, reference.shift)).toBe(0);
      expect(differingBytes(wasm.twins, reference.twins)).toBe(0);
      expect(differingBytes(wasm.cells, reference.cells)).toBe(0);
      expect(differingBytes(wasm.judged, reference.judged)).toBe(0);
    }
    return reference;
  };

  it("a phone photo, a picture with a copied area and an odd-sized grayscale one, at full size and reduced to odd sizes", async () => {
    for (const bytes of [
      await sharedFile("photos/opencv-doc/leuvenA.jpg"),
      await generatedFile("copymove/leuvenA.jpg"),
      await generatedFile("grayscale.jpg"),
    ]) {
      const luma = decodeSmallLuma(bytes, 4_000_000);
      if (!luma) throw new Error("not decodable");
      expect(expectSamePairs(luma).blocksCompared).toBeGreaterThan(0);
      expect(expectSamePairs(downscale(luma, 233)).blocksCompared).toBeGreaterThan(0);
    }
    const copied = decodeSmallLuma(await generatedFile("copymove/leuvenA.jpg"), 4_000_000);
    if (!copied) throw new Error("not decodable");
    // The copy's pairs are there (hundreds: more than a few calls of 9).
    expect(expectSamePairs(copied).first.length).toBeGreaterThan(100);
  });

  it("a tiled picture (every block's hash shared by many: the chain limit of 8 later partners, twins up to 8 + 8)", () => {
    const width = 301;
    const height = 117;
    const data = new Float32Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) data[y * width + x] = ((x % 37) * 7 + (y % 29) * 13 + ((x * y) % 5)) % 256;
    const pairs = expectSamePairs({ width, height, data });
    expect(pairs.first.length).toBeGreaterThan(1000);
    expect(Math.max(...pairs.twins)).toBe(16);
  });

  it("blocks whose residual is on the detail threshold or a rounding away (the kernel asks the reference's order there)", () => {
    // 4 × 4 px squares of 100 ± d in a checkerboard: a block on the squares' grid has cell means 100 ± d, no ramp,
    // and a residual sum of squares of 16·d², which is the threshold 16·3² for d = 3 (exactly, in real numbers):
    // the kernel's sums in its order cannot tell the side, so it recomputes those blocks as the reference does.
    // Values of d a few float steps around 3, and grey levels around 100 and 1000, put the reference's
    // rounded residuals on both sides of the threshold.
    const width = 67;
    const height = 45;
    for (const base of [100, 1000.5])
      for (const d of [3, 3 + 2 ** -20, 3 - 2 ** -20, 3 + 2 ** -22, 3 - 2 ** -21, 3 * (1 + 2 ** -23)]) {
        const data = new Float32Array(width * height);
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) data[y * width + x] = base + (((x >> 2) + (y >> 2)) & 1 ? d : -d);
        expect(expectSamePairs({ width, height, data }).blocksCompared).toBeGreaterThan(0);
      }
  });

  it("noise, values outside 0–255 and the smallest searchable sizes", () => {
    let seed = 12345;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    expectSamePairs({ width: 97, height: 61, data: Float32Array.from({ length: 97 * 61 }, () => random() * 255) });
    expectSamePairs({
      width: 64,
      height: 50,
      data: Float32Array.from({ length: 3200 }, (_, i) => (i % 7) * 400 - 900),
    });
    // Where the kernel's f32 sums overflow (cells beyond 2⁶⁰: squares past f32's range) or underflow (tiny cells),
    // and quotients v / 8 beyond an i32 (the reference's Math.imul wraps them).
    for (const scale of [2 ** 61, 2 ** 70, 3e19, 2 ** 40, 2 ** -70, 1e-30])
      expectSamePairs({
        width: 61,
        height: 37,
        data: Float32Array.from({ length: 61 * 37 }, (_, i) => (((i * 7) % 11) - 5) * scale),
      });
    // 4 × 4 squares of tiny negative samples (subnormal cell means, which the quantiser floors to −1: as
    // floor(floor(v) · 0.125), where v · 0.125 would round to −0) among squares of detail.
    expectSamePairs({
      width: 59,
      height: 43,
      data: Float32Array.from({ length: 59 * 43 }, (_, i) => {
        const [x, y] = [i % 59, Math.floor(i / 59)];
        return ((x >> 2) + (y >> 2)) & 1 ? -(2 ** -148) * (1 + (x % 3)) : (x * 7 + y * 13) % 256;
      }),
    });
    // NaN and ±∞ samples (their blocks' residuals are NaN, which the reference counts as detail).
    const odd = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    expectSamePairs({
      width: 53,
      height: 41,
      data: Float32Array.from({ length: 53 * 41 }, (_, i) => (i % 97 === 5 ? odd[i % 3] : (i * 37) % 256)),
    });
    expectSamePairs({ width: 16, height: 16, data: Float32Array.from({ length: 256 }, (_, i) => (i * 37) % 256) });
    expectSamePairs({ width: 17, height: 40, data: new Float32Array(680).fill(255) });
  });
});

describe("small JPEGs are decoded for comparison by the strip decoder: the same luma as photon's decode", () => {
  it("leuvenA (4:2:0) and a 4:4:4 file", async () => {
    for (const bytes of [
      await sharedFile("photos/opencv-doc/leuvenA.jpg"),
      await sharedFile("exif-samples/jpg/invalid/image00971.jpg"),
    ]) {
      const image = PhotonImage.new_from_byteslice(bytes);
      const rgba = image.get_raw_pixels();
      const [width, height] = [image.get_width(), image.get_height()];
      image.free();
      const ours = decodeSmallLuma(bytes, 4_000_000);
      const photon = lumaFromRgba(rgba, width, height).data;
      expect(ours?.data.length).toBe(photon.length);
      expect(differingBytes(ours?.data ?? [], photon)).toBe(0);
    }
  });
});

/** relativeToPeers as it was before its sort became one numeric sort of packed keys (the reference). */
function relativeToPeersByComparator(
  values: Float32Array,
  covariate: Float32Array,
  reliable: Uint8Array,
): Float32Array {
  const [bins, floor] = [12, 0.05];
  const idx = Uint32Array.from([...reliable.keys()].filter((i) => reliable[i]));
  const out = new Float32Array(values.length).fill(Number.NaN);
  if (idx.length < bins * 4) return out;
  idx.sort((a, b) => covariate[a] - covariate[b]);
  const per = Math.ceil(idx.length / bins);
  for (let b = 0; b < bins; b++) {
    const members = idx.subarray(b * per, Math.min(idx.length, (b + 1) * per));
    if (!members.length) continue;
    const sorted = Float32Array.from(members, (i) => values[i]).sort();
    const median = Math.max(floor, sorted[sorted.length >> 1]);
    for (const i of members) out[i] = Math.log2(Math.max(floor, values[i]) / median);
  }
  return out;
}

describe("peer comparison (ELA, noise): ordering blocks by packed keys gives the comparator sort's result", () => {
  it("on a photo's maps, with ties, −0, negative covariates and unreliable blocks", async () => {
    const result = await computeBlockMaps(await sharedFile("photos/opencv-doc/leuvenA.jpg"));
    if (!result.ok) throw new Error(result.reason);
    const { ela, activity, mean, clipped } = result.maps;
    const reliable = Uint8Array.from(clipped, (c, i) => (!c && activity[i] >= 2 ? 1 : 0));
    const everything = new Uint8Array(ela.length).fill(1);
    const tied = Float32Array.from(mean, (m, i) => (i % 3 === 0 ? -0 : i % 3 === 1 ? 0 : Math.round(m / 64) - 2));
    for (const [values, covariate, mask] of [
      [ela, activity, reliable],
      [ela, mean, everything],
      [ela, tied, everything],
    ] as const) {
      const ours = relativeToPeers(values, covariate, mask);
      expect(differingBytes(ours, relativeToPeersByComparator(values, covariate, mask))).toBe(0);
    }
  });
});

describe("heatmap PNG (RGB, filter Up, per-cell colours): decodes to exactly the rendered overlay", () => {
  it("ELA heatmap of a photo with a copy-move line, hatched and NaN cells", async () => {
    const result = await computeBlockMaps(await sharedFile("photos/opencv-doc/leuvenA.jpg"));
    if (!result.ok) throw new Error(result.reason);
    const maps = result.maps;
    const scores = Float32Array.from(maps.ela, (v, i) => (i % 97 === 0 ? Number.NaN : Math.min(1, v / 8)));
    const reliable = Uint8Array.from(maps.clipped, (c, i) => (c || i % 13 === 0 ? 0 : 1));
    const grid = { width: maps.blocksWide, height: maps.blocksHigh, scores, reliable };
    const size = heatmapSize(maps.width, maps.height);
    const lines = [{ x1: 0.1, y1: 0.2, x2: 0.8, y2: 0.9 }];
    const rendered = renderHeatmapRgba(maps.preview, grid, size, lines).rgba;
    const decoder = PngStripDecoder.open(renderHeatmapPng(maps.preview, grid, size, lines));
    if (typeof decoder === "string") throw new Error(decoder);
    expect([decoder.width, decoder.height]).toEqual([size.width, size.height]);
    let differing = 0;
    for (let band = decoder.next(); band; band = decoder.next())
      differing += differingBytes(
        band.rgba,
        rendered.subarray(band.y * size.width * 4, (band.y + band.rows) * size.width * 4),
      );
    expect(differing).toBe(0);
  });
});

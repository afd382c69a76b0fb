/**
 * One pass over an image's 8×8 luminance blocks that computes everything the pixel detectors
 * need: block mean/activity, clipping, error level (re-quantisation error at quality 90), a
 * high-pass noise estimate, DCT coefficient histograms (JPEG only) and a 1/4-scale preview.
 *
 * For baseline and progressive JPEGs the blocks come straight from the entropy-coded coefficients, one block at
 * a time, so a 24 MP photo never exists as a full-size bitmap (≈ 6 MB of per-block maps instead
 * of ≈ 100 MB of RGBA). Non-interlaced PNGs are streamed in bands of rows; other images are decoded
 * with photon when they are small enough.
 *
 * The per-block work (float IDCT, re-quantisation, noise residual, preview) runs in the SIMD wasm
 * kernel (wasm/assembly/block-measure.ts) one row of blocks per call; `measureBlock` below is its
 * JavaScript reference (bit-identical results, test/unit/wasm-kernels.test.ts).
 */
import { COS, forwardDct, inverseDct } from "./dct";
import { type GrayImage, lumaFromRgba } from "./gray";
import { decodeLumaCoefficients, readsCoefficients, type WasmLumaRows } from "./jpeg-coefficients";
import { isJpeg, type JpegFrame, type JpegStructure, ZIGZAG } from "./jpeg-markers";
import { declaredSize, MAX_BLOCK_MAP_PIXELS } from "./pixel-budget";
import { STANDARD_LUMA, scaledTable } from "./quant-tables";
import { type DecodeProduct, type DecodeSink, decoded, jpegStructureOf, lumaFrameOf } from "./file-decode";
import { ImageDataError, type RgbaBand, type RgbaBandSource } from "./rgba-band";
import { openPixels, TOO_LARGE } from "./streamed-image";
import { align16, ensureBlockConstants, kernels, scratch, scratchRegions } from "./wasm-kernels";
import { cooperative } from "../../lib/cooperate";

/** Pixel bands measured between two turns given to other requests. */
const BANDS_PER_TURN = 4;

/** Quality of the re-compression used for error level analysis. */
export const ELA_QUALITY = 90;
/** Zig-zag positions 1..HISTOGRAM_FREQUENCIES of the luminance AC coefficients get histograms. */
export const HISTOGRAM_FREQUENCIES = 9;
/** Histograms cover quantized values −HISTOGRAM_RANGE..HISTOGRAM_RANGE. */
export const HISTOGRAM_RANGE = 60;

/** Per-8×8-block maps of one image (row-major, blocksWide × blocksHigh). */
export interface BlockMaps {
  width: number;
  height: number;
  blocksWide: number;
  blocksHigh: number;
  source: "jpeg-coefficients" | "pixels";
  mean: Float32Array;
  /** Standard deviation of the block's pixels. */
  activity: Float32Array;
  /** Mean absolute difference between the block and its quality-90 re-compression. */
  ela: Float32Array;
  /** Noise sigma estimated from a 4-neighbour high-pass residual inside the block. */
  noise: Float32Array;
  /** 1 when more than half the block's pixels are clipped (≤ 2 or ≥ 253). */
  clipped: Uint8Array;
  /** 1/4-scale luminance (each block gives 2×2 pixels). */
  preview: GrayImage;
  /** Quantized-coefficient histograms of the first AC frequencies (JPEG only). */
  histograms: Int32Array[] | null;
  /** Luminance quantisation table (JPEG only, natural order). */
  lumaTable: Uint16Array | null;
}

/** A picture whose declared size is beyond MAX_BLOCK_MAP_PIXELS: the maps were not even allocated. */
export interface TooLarge {
  width: number;
  height: number;
  maxPixels: number;
}

/** Result of building the maps: the maps, or why they could not be built. */
export type BlockMapsResult =
  | { ok: true; maps: BlockMaps; structure: JpegStructure | null }
  | { ok: false; reason: string; structure: JpegStructure | null; tooLarge?: TooLarge };

/** Refuses a declared size over the budget before createMaps allocates ≈ 33 bytes per block for it. */
function overBudget(width: number, height: number, structure: JpegStructure | null): BlockMapsResult | null {
  if (width * height <= MAX_BLOCK_MAP_PIXELS) return null;
  return {
    ok: false,
    reason: `image too large for the block analysis (${width} × ${height})`,
    structure,
    tooLarge: { width, height, maxPixels: MAX_BLOCK_MAP_PIXELS },
  };
}

/** The quality-90 luminance table of the re-compression (also handed to the wasm kernels). */
export const ELA_TABLE = scaledTable(STANDARD_LUMA, ELA_QUALITY);

function createMaps(width: number, height: number, source: BlockMaps["source"], withHistograms: boolean): BlockMaps {
  const blocksWide = Math.ceil(width / 8);
  const blocksHigh = Math.ceil(height / 8);
  const n = blocksWide * blocksHigh;
  return {
    width,
    height,
    blocksWide,
    blocksHigh,
    source,
    mean: new Float32Array(n),
    activity: new Float32Array(n),
    ela: new Float32Array(n),
    noise: new Float32Array(n),
    clipped: new Uint8Array(n),
    preview: { width: blocksWide * 2, height: blocksHigh * 2, data: new Float32Array(n * 4) },
    histograms: withHistograms
      ? Array.from({ length: HISTOGRAM_FREQUENCIES }, () => new Int32Array(2 * HISTOGRAM_RANGE + 1))
      : null,
    lumaTable: null,
  };
}

const coef = new Float64Array(64);
const recompressed = new Float64Array(64);
const shifted = new Float64Array(64);

/** Fills every per-block statistic from the block's decoded pixels (0–255, natural order). */
function measureBlock(maps: BlockMaps, row: number, col: number, px: Float64Array): void {
  const i = row * maps.blocksWide + col;
  let sum = 0;
  let sq = 0;
  let clipped = 0;
  for (let k = 0; k < 64; k++) {
    const v = px[k];
    sum += v;
    sq += v * v;
    if (v <= 2 || v >= 253) clipped++;
    shifted[k] = v - 128;
  }
  const mean = sum / 64;
  maps.mean[i] = mean;
  maps.activity[i] = Math.sqrt(Math.max(0, sq / 64 - mean * mean));
  maps.clipped[i] = clipped > 32 ? 1 : 0;
  // Error level: quantise the block's DCT with the quality-90 table and measure the change.
  forwardDct(shifted, coef);
  for (let k = 0; k < 64; k++) coef[k] = Math.round(coef[k] / ELA_TABLE[k]) * ELA_TABLE[k];
  inverseDct(coef, recompressed);
  let err = 0;
  for (let k = 0; k < 64; k++) err += Math.abs(Math.min(255, Math.max(0, Math.round(recompressed[k] + 128))) - px[k]);
  maps.ela[i] = err / 64;
  // Noise: residual against the 4-neighbour mean on the 6×6 interior (white noise σ → E|r| = σ·√1.25·√(2/π)).
  let res = 0;
  for (let y = 1; y < 7; y++)
    for (let x = 1; x < 7; x++) {
      const k = y * 8 + x;
      res += Math.abs(px[k] - (px[k - 1] + px[k + 1] + px[k - 8] + px[k + 8]) / 4);
    }
  maps.noise[i] = ((res / 36) * Math.sqrt(Math.PI / 2)) / Math.sqrt(1.25);
  const pw = maps.preview.width;
  for (let qy = 0; qy < 2; qy++)
    for (let qx = 0; qx < 2; qx++) {
      let s = 0;
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) s += px[(qy * 4 + y) * 8 + qx * 4 + x];
      maps.preview.data[(row * 2 + qy) * pw + col * 2 + qx] = s / 16;
    }
}

const dequantized = new Float64Array(64);
const pixels = new Float64Array(64);

async function fromJpeg(bytes: Uint8Array, structure: JpegStructure, reference: boolean): Promise<BlockMapsResult> {
  const frame = structure.frame;
  const table = frame ? structure.quantTables.get(frame.components[0]?.tq ?? 0) : undefined;
  if (!frame || !table) return { ok: false, reason: "no frame header or quantisation table", structure };
  const refused = overBudget(frame.width, frame.height, structure);
  if (refused) return refused;
  // The file's shared coefficient pass when it could build them (file-decode.ts; not damaged).
  const shared = reference ? null : await decoded(bytes, coefficientBlockMaps);
  if (shared) return { ok: true, maps: shared, structure };
  const measurer = coefficientMeasurer(frame, table, reference);
  const result = await decodeLumaCoefficients(bytes, structure, measurer.block, { reference });
  if (result.error) return { ok: false, reason: result.error, structure };
  return { ok: true, maps: measurer.finish(), structure };
}

/** The block pass of the coefficient path, fed one luminance block at a time in decoding order. */
function coefficientMeasurer(
  frame: JpegFrame,
  table: Uint16Array,
  reference: boolean,
): Required<Pick<DecodeSink<BlockMaps>, "block" | "finish">> & Pick<DecodeSink<BlockMaps>, "rows"> {
  const maps = createMaps(frame.width, frame.height, "jpeg-coefficients", true);
  maps.lumaTable = table;
  const hist = maps.histograms as Int32Array[];
  const rows = reference ? null : new CoefficientRows(maps, table, Math.max(...frame.components.map((c) => c.v)));
  return {
    // The kernel counts the histograms of the rows it measures.
    rows: rows ? (wasmRows) => rows.measureWasmRows(wasmRows) : undefined,
    block(row, col, q) {
      if (rows) {
        rows.add(row, col, q);
        return;
      }
      for (let f = 0; f < HISTOGRAM_FREQUENCIES; f++) {
        const v = q[ZIGZAG[f + 1]];
        if (v >= -HISTOGRAM_RANGE && v <= HISTOGRAM_RANGE) hist[f][v + HISTOGRAM_RANGE]++;
      }
      for (let k = 0; k < 64; k++) dequantized[k] = q[k] * table[k];
      inverseDct(dequantized, pixels);
      for (let k = 0; k < 64; k++) pixels[k] = Math.min(255, Math.max(0, Math.round(pixels[k] + 128)));
      measureBlock(maps, row, col, pixels);
    },
    finish() {
      rows?.flush(maps.blocksHigh);
      return maps;
    },
  };
}

/**
 * The block maps of luminance blocks handed in as quantised coefficients (64 each, natural order, row by
 * row of a `width` × `height` picture, dequantised with `table`): the wasm block pass, or with `reference`
 * the JavaScript one. For tests with coefficients no well-formed file carries.
 */
export function coefficientMaps(
  width: number,
  height: number,
  table: Uint16Array,
  blocks: Int16Array,
  reference: boolean,
): BlockMaps {
  const frame: JpegFrame = {
    marker: 0xc0,
    progressive: false,
    baseline: true,
    precision: 8,
    width,
    height,
    components: [{ id: 1, h: 1, v: 1, tq: 0 }],
  };
  const measurer = coefficientMeasurer(frame, table, reference);
  const blocksWide = Math.ceil(width / 8);
  for (let i = 0; i * 64 < blocks.length; i++)
    measurer.block(Math.floor(i / blocksWide), i % blocksWide, blocks.subarray(i * 64, i * 64 + 64));
  return measurer.finish();
}

/** The coefficient-path block maps as a product of the file's shared Huffman pass (baseline/progressive JPEGs within budget). */
export const coefficientBlockMaps: DecodeProduct<BlockMaps> = {
  id: "block-maps-coefficients",
  kind: "coefficients",
  cached: true,
  sink(width, height, bytes) {
    const { frame, table } = lumaFrameOf(bytes);
    if (!frame || !table || width * height > MAX_BLOCK_MAP_PIXELS) return null;
    return coefficientMeasurer(frame, table, false);
  },
};

/** Scratch bytes of one wasm call on `count` blocks: table or lines first, then the outputs. */
function blockPassLayout(count: number, inputBytes: number): { input: number; out: number; bytes: number } {
  const input = 128;
  const out = align16(input + inputBytes);
  return { input, out, bytes: out + kernels().blockOutputBytes(count) };
}

/** Copies the kernel's outputs for block row `row` (see wasm/assembly/block-measure.ts) into the maps. */
function storeBlockRow(maps: BlockMaps, row: number, buffer: ArrayBuffer, at: number): void {
  const n = maps.blocksWide;
  const floats = (k: number, length: number) => new Float32Array(buffer, at + k * n * 4, length);
  maps.mean.set(floats(0, n), row * n);
  maps.activity.set(floats(1, n), row * n);
  maps.ela.set(floats(2, n), row * n);
  maps.noise.set(floats(3, n), row * n);
  maps.preview.data.set(floats(4, 4 * n), row * 4 * n);
  maps.clipped.set(new Uint8Array(buffer, at + 8 * n * 4, n), row * n);
}

/** The maps' histograms to or from the kernel's layout of them (frequency by frequency, 2 · HISTOGRAM_RANGE + 1 bins each). */
function copyHistograms(histograms: Int32Array[], kernel: Int32Array, into: "kernel" | "maps"): void {
  const bins = 2 * HISTOGRAM_RANGE + 1;
  histograms.forEach((h, f) => {
    if (into === "kernel") kernel.set(h, f * bins);
    else h.set(kernel.subarray(f * bins, (f + 1) * bins));
  });
}

/**
 * Luminance blocks of one MCU row (up to `rowsPerMcu` block rows), kept in JavaScript until the next
 * MCU row starts (the decoder may give other requests a turn in between, and they may use the
 * kernels' scratch area), then measured in wasm one block row per call.
 */
class CoefficientRows {
  /** Made on the first `add`: the shared pass hands whole rows in wasm memory (measureWasmRows) and needs none. */
  private coefficients: Int16Array | null = null;
  private first = 0;

  constructor(
    private readonly maps: BlockMaps,
    private readonly table: Uint16Array,
    private readonly rowsPerMcu: number,
  ) {
    ensureBlockConstants(COS, ELA_TABLE);
  }

  add(row: number, col: number, q: Int16Array): void {
    if (row >= this.first + this.rowsPerMcu) this.flush(row);
    this.buffer().set(q, ((row - this.first) * this.maps.blocksWide + col) * 64);
  }

  /** Measures the buffered rows before `until` (the next MCU row's first block row, or the end). */
  flush(until: number): void {
    const count = Math.min(until, this.first + this.rowsPerMcu) - this.first;
    if (count > 0) this.measureRows(this.first, count, this.buffer());
    this.first = until;
  }

  private buffer(): Int16Array {
    this.coefficients ??= new Int16Array(this.rowsPerMcu * this.maps.blocksWide * 64);
    return this.coefficients;
  }

  /** Whole rows from the shared pass, measured where it left them (nothing is left buffered for the next flush). */
  measureWasmRows(rows: WasmLumaRows): void {
    this.measureAt(rows.first, rows.count, rows.coefficients, rows.table, rows.reserve);
    this.first = rows.first + rows.count;
  }

  /** Measures `count` whole block rows from `first` on (blocksWide × 64 coefficients each, from the start of `coefficients`). */
  private measureRows(first: number, count: number, coefficients: Int16Array): void {
    const n = this.maps.blocksWide;
    const s = scratchRegions({ table: 128, input: count * n * 128 });
    new Uint16Array(s.buffer, s.at.table, 64).set(this.table);
    new Int16Array(s.buffer, s.at.input, count * n * 64).set(coefficients.subarray(0, count * n * 64));
    this.measureAt(first, count, s.at.input, s.at.table, s.end);
  }

  /**
   * Measures `count` block rows from `first` on whose coefficients lie in the kernels' memory at `input` (row
   * after row), dequantised with the table at `table`, in scratch regions from `after` on.
   */
  private measureAt(first: number, count: number, input: number, table: number, after: number): void {
    const n = this.maps.blocksWide;
    const histogramBytes = kernels().blockHistogramBytes();
    const s = scratchRegions({ out: kernels().blockOutputBytes(n), histograms: histogramBytes }, kernels(), after);
    // The kernel adds each row's counts to the maps' histograms, copied in and out once for all the rows.
    const counts = new Int32Array(s.buffer, s.at.histograms, histogramBytes / 4);
    const histograms = this.maps.histograms as Int32Array[];
    copyHistograms(histograms, counts, "kernel");
    for (let i = 0; i < count; i++) {
      kernels().measureCoefficientRow(n, input + i * n * 128, table, s.at.out, s.at.histograms);
      storeBlockRow(this.maps, first + i, s.buffer, s.at.out);
    }
    copyHistograms(histograms, counts, "maps");
  }
}

/**
 * Block maps from decoded pixels: a strip decoder's bands when one reads the file (non-interlaced PNG
 * at any size, streamed-image.ts), else photon's bitmap within MAX_PIXEL_DECODE.
 */
async function fromPixels(bytes: Uint8Array, reference: boolean): Promise<BlockMapsResult> {
  const size = declaredSize(bytes);
  if (!size) return { ok: false, reason: "image could not be decoded", structure: null };
  const refused = overBudget(size.width, size.height, null);
  if (refused) return refused;
  // The file's shared decode when it could build them (a streamed picture, not damaged).
  const shared = reference ? null : await decoded(bytes, pixelBlockMaps);
  if (shared) return { ok: true, maps: shared, structure: null };
  const opened = openPixels(bytes);
  if (opened === TOO_LARGE)
    return { ok: false, reason: `${TOO_LARGE} (${size.width}×${size.height})`, structure: null };
  if (typeof opened === "string") return { ok: false, reason: "image could not be decoded", structure: null };
  try {
    return { ok: true, maps: await measurePixels(opened.source, reference), structure: null };
  } catch (error) {
    if (error instanceof ImageDataError)
      return { ok: false, reason: `image data is damaged: ${error.message}`, structure: null };
    throw error;
  }
}

/** Measures every 8×8 luma block, holding one row of blocks (8 lines); edges repeat the last pixel. */
async function measurePixels(source: RgbaBandSource, reference: boolean): Promise<BlockMaps> {
  const measurer = new PixelBlockMeasurer(source.width, source.height, reference);
  const turn = cooperative(BANDS_PER_TURN);
  for (let band = source.next(); band; band = source.next()) {
    await turn();
    measurer.add(band);
  }
  return measurer.finish();
}

/** The block pass over decoded pixels, fed band by band (by measurePixels, or the shared decode of file-decode.ts). */
class PixelBlockMeasurer {
  private readonly maps: BlockMaps;
  private readonly luma: Float32Array;
  private lines = 0;
  private blockRow = 0;

  constructor(
    private readonly width: number,
    height: number,
    private readonly reference: boolean,
  ) {
    this.maps = createMaps(width, height, "pixels", false);
    this.luma = new Float32Array(width * 8);
    if (!reference) ensureBlockConstants(COS, ELA_TABLE);
  }

  add(band: RgbaBand): void {
    const { width, luma } = this;
    for (let r = 0; r < band.rows; r++) {
      luma.set(lumaFromRgba(band.rgba.subarray(r * width * 4, (r + 1) * width * 4), width, 1).data, this.lines * width);
      if (++this.lines === 8) this.measureBlockRow();
    }
  }

  finish(): BlockMaps {
    if (this.lines > 0) this.measureBlockRow();
    return this.maps;
  }

  private measureBlockRow(): void {
    const { width, luma, maps, lines } = this;
    for (let y = lines; y < 8; y++) luma.copyWithin(y * width, (lines - 1) * width, lines * width);
    if (!this.reference) this.measureBlockRowWasm();
    else
      for (let col = 0; col < maps.blocksWide; col++) {
        for (let y = 0; y < 8; y++)
          for (let x = 0; x < 8; x++)
            pixels[y * 8 + x] = Math.round(luma[y * width + Math.min(width - 1, col * 8 + x)]);
        measureBlock(maps, this.blockRow, col, pixels);
      }
    this.blockRow++;
    this.lines = 0;
  }

  /** The same row in wasm: rounded samples, the last column repeated to whole blocks. */
  private measureBlockRowWasm(): void {
    const { width, luma, maps } = this;
    const n = maps.blocksWide;
    const layout = blockPassLayout(n, n * 64);
    const s = scratch(layout.bytes);
    const samples = s.bytes.subarray(s.base + layout.input, s.base + layout.input + n * 64);
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < n * 8; x++) samples[y * n * 8 + x] = Math.round(luma[y * width + Math.min(width - 1, x)]);
    kernels().measurePixelRow(n, s.base + layout.input, s.base + layout.out);
    storeBlockRow(maps, this.blockRow, s.buffer, s.base + layout.out);
  }
}

/**
 * The pixel-path block maps as a product of the file's shared decode (file-decode.ts): for pictures the
 * coefficient path does not read (non-interlaced PNG; interlaced PNGs and WebP are not streamed and take photon).
 */
export const pixelBlockMaps: DecodeProduct<BlockMaps> = {
  id: "block-maps-pixels",
  kind: "pixels",
  cached: true,
  sink(width, height, bytes) {
    if (isJpeg(bytes) && readsCoefficients(jpegStructureOf(bytes).frame)) return null;
    if (width * height > MAX_BLOCK_MAP_PIXELS) return null;
    const measurer = new PixelBlockMeasurer(width, height, false);
    return { add: (band) => measurer.add(band), finish: () => measurer.finish() };
  },
};

const cache = new WeakMap<Uint8Array, Promise<BlockMapsResult>>();

/** What the detectors reading block maps declare (Analyzer.reads): the pixel path or the coefficient path. */
export const blockMapProducts = [pixelBlockMaps, coefficientBlockMaps];

/**
 * Block maps of an image, computed once per byte array (the detectors of one file share them).
 * Baseline or progressive JPEG → coefficient path; PNG → streamed pixel path; interlaced PNG,
 * WebP, other JPEG codings → photon's pixels up to MAX_PIXEL_DECODE.
 */
export function blockMaps(bytes: Uint8Array): Promise<BlockMapsResult> {
  let result = cache.get(bytes);
  if (!result) {
    result = computeBlockMaps(bytes);
    cache.set(bytes, result);
  }
  return result;
}

/**
 * The maps computed afresh (no cache); `{ reference: true }` measures the blocks with the JavaScript
 * reference instead of the wasm kernel (the tests compare both).
 */
export async function computeBlockMaps(
  bytes: Uint8Array,
  options: { reference?: boolean } = {},
): Promise<BlockMapsResult> {
  const reference = options.reference === true;
  if (!isJpeg(bytes)) return fromPixels(bytes, reference);
  const structure = jpegStructureOf(bytes);
  const result = readsCoefficients(structure.frame)
    ? await fromJpeg(bytes, structure, reference)
    : await fromPixels(bytes, reference);
  return result.structure ? result : { ...result, structure };
}

/**
 * One decode per file for every detector, per kind of decode: one pass to pixels (the thumbnail, both
 * models' inputs, copy-move's search picture, the block maps of a PNG) and, for a baseline or progressive
 * JPEG, one Huffman pass over its luminance coefficients (the block maps and the coefficient statistics of
 * double quantisation and ghosts). Each detector names what it reads (`Analyzer.reads`); the pipeline
 * plans them per file (`planDecode`), and the first detector asking for one product of a kind runs the
 * pass that builds every planned product of that kind (`decoded`). Without a plan (a detector run
 * alone) only the product asked for is built. Nothing full-size is kept: products are small pictures,
 * patches or per-block maps, built band by band or block by block.
 *
 * Why two passes for a large JPEG and not one: the coefficient products are the largest (≈ 35 MB for 24 MP)
 * and are read by the detectors that run after the models; built in the pixel pass, before the models,
 * they would be held through the models' inference inside the isolate's 128 MB. A baseline or progressive
 * JPEG up to ONE_PASS_PIXELS has one Huffman pass for both kinds (`jpegPass`): its products are small.
 *
 * The pixel pass reads the streamed formats (baseline and progressive JPEG, non-interlaced PNG) band by band and
 * any other format photon decodes within MAX_PIXEL_DECODE from photon's bitmap (streamed-image.ts `openPixels`).
 * For anything else, or a file whose data turns out damaged, every product is null and each detector
 * takes its own path, which decodes by itself and reports the damage as before. Products are built
 * with exactly the arithmetic of those paths (test/ml/decode-once.test.ts compares both), so no result
 * changes. A product is dropped once every detector that planned it has read it.
 */
import { cooperative } from "../../lib/cooperate";
import { decodeLumaCoefficients, lumaGridIsPicture, readsCoefficients, type WasmLumaRows } from "./jpeg-coefficients";
import { isJpeg, type JpegStructure, parseJpegStructure } from "./jpeg-markers";
import { JpegStripDecoder } from "./jpeg-strip-decoder";
import { ImageDataError, type RgbaBand, type RgbaBandSource } from "./rgba-band";
import { countedSource, openPixels } from "./streamed-image";

/** Bands fed to the products between two turns given to other requests. */
const BANDS_PER_TURN = 4;

/** Receives the picture top to bottom (pixel bands, or luminance blocks in decoding order), then gives its product. */
export interface DecodeSink<T> {
  /** Pixel products: the next band of RGBA rows. */
  add?(band: RgbaBand): void;
  /** Coefficient products: one luminance block (block row, column, quantised coefficients in natural order). */
  block?(row: number, col: number, coefficients: Int16Array): void;
  /**
   * Coefficient products that can take whole block rows instead, in the kernels' scratch area (jpeg-coefficients.ts
   * WasmLumaRows): the shared pass hands them rows, not blocks, when the decoder's block grid is the picture's.
   */
  rows?(rows: WasmLumaRows): void;
  finish(): T;
}

/** Something built from a file's one decode of `kind`. */
export interface DecodeProduct<T> {
  /** For logs and tests. */
  readonly id: string;
  readonly kind: "pixels" | "coefficients";
  /** Read once by a cache of its own (block maps, coefficient statistics), however many detectors declare it. */
  readonly cached?: true;
  /**
   * A sink for a picture of this size (`bytes` for format checks; `decodedBy`: a strip decoder's bands, or photon's
   * bitmap for the formats none streams), or null when the product does not apply.
   */
  sink(width: number, height: number, bytes: Uint8Array, decodedBy: "strips" | "photon"): DecodeSink<T> | null;
}

type AnyProduct = DecodeProduct<unknown>;

interface FileState {
  /** Products planned for this file and not built yet, with the number of detectors that will read each. */
  planned: Map<AnyProduct, number>;
  /** Built (or being built) products, with the reads still expected. */
  built: Map<AnyProduct, { value: Promise<unknown>; reads: number }>;
}

const files = new WeakMap<Uint8Array, FileState>();

/** Off only in tests: every detector then decodes by itself, the reference the shared products are compared with. */
let shared = true;

/** Tests only: turns the shared decode off (each detector's own path) or on again. */
export function useSharedDecode(on: boolean): void {
  shared = on;
}

function stateOf(bytes: Uint8Array): FileState {
  let state = files.get(bytes);
  if (!state) {
    state = { planned: new Map(), built: new Map() };
    files.set(bytes, state);
  }
  return state;
}

/** The products the detectors about to run on `bytes` will read (one entry per detector and product). */
export function planDecode(bytes: Uint8Array, products: Iterable<AnyProduct>): void {
  const state = stateOf(bytes);
  for (const product of products) {
    const built = state.built.get(product);
    if (built) built.reads = product.cached ? 1 : built.reads + 1;
    else state.planned.set(product, product.cached ? 1 : (state.planned.get(product) ?? 0) + 1);
  }
}

/** Plans the products no detector planned (one run alone): the first read then builds them all in one pass. */
export function planMissing(bytes: Uint8Array, products: Iterable<AnyProduct>): void {
  const state = stateOf(bytes);
  for (const product of products)
    if (!state.built.has(product) && !state.planned.has(product)) state.planned.set(product, 1);
}

/**
 * `product` of the file, built in one pass together with every other planned product of its kind;
 * null when that decode cannot read the file, the file is damaged or the product does not apply
 * (callers fall back to their own path).
 */
export function decoded<T>(bytes: Uint8Array, product: DecodeProduct<T>): Promise<T | null> {
  if (!shared) return Promise.resolve(null);
  const state = stateOf(bytes);
  let entry = state.built.get(product);
  if (!entry) {
    const both = oneEntropyPass(bytes, state);
    const wanted = [
      product,
      ...[...state.planned.keys()].filter((p) => p !== product && (both || p.kind === product.kind)),
    ];
    // A failing pass (a bug, not damage: that gives nulls) must not fail every detector that shares it:
    // each then takes its own path, as without the shared decode.
    const run = both ? jpegPass : product.kind === "pixels" ? pixelPass : coefficientPass;
    const pass = run(bytes, wanted).catch((error: unknown) => {
      console.error("shared decode failed", wanted.map((p) => p.id).join(","), error);
      return wanted.map(() => null);
    });
    wanted.forEach((p, i) => {
      state.built.set(p, { value: pass.then((values) => values[i]), reads: state.planned.get(p) ?? 1 });
      state.planned.delete(p);
    });
    entry = state.built.get(product) as { value: Promise<unknown>; reads: number };
  }
  // The last planned read drops the product (the detector keeps what it was given).
  if (--entry.reads <= 0) state.built.delete(product);
  return entry.value as Promise<T | null>;
}

/**
 * One decode of `bytes` to pixels feeding every product's sink (streamed, or photon's bitmap for WebP, interlaced
 * PNG and other JPEG codings within MAX_PIXEL_DECODE); all null when neither can read it.
 */
async function pixelPass(bytes: Uint8Array, products: AnyProduct[]): Promise<unknown[]> {
  const opened = openPixels(bytes);
  if (typeof opened === "string") return products.map(() => null);
  const { source, decodedBy } = opened;
  return feedBands(
    source,
    products.map((p) => p.sink(source.width, source.height, bytes, decodedBy)),
  );
}

/** Every band of `source` to the sinks, then their products; all null on damaged data. */
async function feedBands(source: RgbaBandSource, sinks: (DecodeSink<unknown> | null)[]) {
  const none = sinks.map(() => null);
  if (sinks.every((s) => s === null)) return none;
  const turn = cooperative(BANDS_PER_TURN);
  try {
    for (let band = source.next(); band; band = source.next()) {
      for (const sink of sinks) sink?.add?.(band);
      await turn();
    }
  } catch (error) {
    if (error instanceof ImageDataError) return none;
    throw error;
  }
  return sinks.map((s) => (s ? s.finish() : null));
}

const structures = new WeakMap<Uint8Array, JpegStructure>();

/** The JPEG's marker structure, parsed once per file for the pass and its products' sinks (the walk reads the whole file). */
export function jpegStructureOf(bytes: Uint8Array): JpegStructure {
  let structure = structures.get(bytes);
  if (!structure) {
    structure = parseJpegStructure(bytes);
    structures.set(bytes, structure);
  }
  return structure;
}

/** The JPEG's frame header and its luminance quantisation table (from the cached structure), or nulls. */
export function lumaFrameOf(bytes: Uint8Array) {
  const { frame, quantTables } = jpegStructureOf(bytes);
  const table = frame ? quantTables.get(frame.components[0]?.tq ?? 0) : undefined;
  return { frame: frame ?? null, table: table ?? null };
}

/**
 * Baseline JPEGs up to this size are Huffman-decoded once for both kinds of product: the luminance blocks
 * go to the coefficient products while the same pass makes the pixels. The coefficient products (≈ 1.5 MB
 * per megapixel) are then held from the first reader of either kind to the last one, the models' inference
 * included; above this size the two kinds keep a pass each (see the top of this file).
 */
export const ONE_PASS_PIXELS = 4_000_000;

/** Whether the file's next pass feeds both kinds of planned product (a small baseline or progressive JPEG with both planned). */
function oneEntropyPass(bytes: Uint8Array, state: FileState): boolean {
  if (!isJpeg(bytes)) return false;
  const kinds = new Set([...state.planned.keys()].map((p) => p.kind));
  if (kinds.size < 2) return false;
  const frame = jpegStructureOf(bytes).frame;
  return !!frame && readsCoefficients(frame) && frame.width * frame.height <= ONE_PASS_PIXELS;
}

/**
 * One pass of the strip decoder feeding the pixel products its bands and the coefficient products its
 * luminance block rows (or blocks, for sinks that take no rows) as they are Huffman-decoded; when the strip
 * decoder cannot read the file, each kind takes its own pass (the pixel products are then null, as pixelPass
 * would give them).
 */
async function jpegPass(bytes: Uint8Array, products: AnyProduct[]): Promise<unknown[]> {
  const structure = jpegStructureOf(bytes);
  const frame = structure.frame;
  const coefficients = products.filter((p) => p.kind === "coefficients");
  const fallBack = async () => {
    const values = await coefficientPass(bytes, coefficients);
    return products.map((p) => (p.kind === "coefficients" ? values[coefficients.indexOf(p)] : null));
  };
  if (!frame || !readsCoefficients(frame)) return fallBack();
  // The coefficient sinks first: the decoder is told whether any takes blocks, or rows (these read each block row
  // where the decoder gathered it in wasm memory, as in coefficientPass: no call and copy per block and sink).
  const sinks = new Map(coefficients.map((p) => [p, p.sink(frame.width, frame.height, bytes, "strips")] as const));
  const byRows = !!lumaFrameOf(bytes).table && lumaGridIsPicture(frame);
  const rowSinks = [...sinks.values()].filter((s): s is DecodeSink<unknown> => byRows && !!s?.rows);
  const blockSinks = [...sinks.values()].filter((s): s is DecodeSink<unknown> => !!s?.block && !rowSinks.includes(s));
  const decoder = JpegStripDecoder.open(bytes, structure, {
    luma: blockSinks.length
      ? (row, col, block) => {
          for (const sink of blockSinks) sink.block?.(row, col, block);
        }
      : undefined,
    lumaRows: rowSinks.length
      ? (rows) => {
          for (const sink of rowSinks) sink.rows?.(rows);
        }
      : undefined,
  });
  if (typeof decoder === "string") return fallBack();
  return feedBands(
    countedSource(bytes, decoder),
    products.map((p) =>
      p.kind === "coefficients" ? (sinks.get(p) ?? null) : p.sink(frame.width, frame.height, bytes, "strips"),
    ),
  );
}

/** One Huffman pass over a baseline or progressive JPEG's luminance blocks feeding every product's sink; all null on damage. */
async function coefficientPass(bytes: Uint8Array, products: AnyProduct[]): Promise<unknown[]> {
  const none = products.map(() => null);
  if (!isJpeg(bytes)) return none;
  const structure = jpegStructureOf(bytes);
  const frame = structure.frame;
  if (!frame || !readsCoefficients(frame)) return none;
  const sinks = products.map((p) => p.sink(frame.width, frame.height, bytes, "strips"));
  if (sinks.every((s) => s === null)) return none;
  // Sinks taking rows read each block row where the pass left it in wasm memory: no call and copy per block or sink.
  const { table } = lumaFrameOf(bytes);
  const byRows = table && lumaGridIsPicture(frame) ? sinks.filter((s) => s?.rows) : [];
  const byBlocks = sinks.filter((s) => s && !byRows.includes(s));
  const result = await decodeLumaCoefficients(
    bytes,
    structure,
    byBlocks.length
      ? (row, col, coefficients) => {
          for (const sink of byBlocks) sink?.block?.(row, col, coefficients);
        }
      : null,
    {
      rows:
        table && byRows.length
          ? {
              table,
              visit(rows) {
                for (const sink of byRows) sink?.rows?.(rows);
              },
            }
          : undefined,
    },
  );
  if (result.error) return none;
  return sinks.map((s) => (s ? s.finish() : null));
}

/** Why a coefficient product was not built: the kind (for the finding's text) and the technical reason (evidence). */
export type CoefficientFailure = {
  ok: false;
  kind: "not-jpeg" | "other-coding" | "damaged" | "too-large";
  reason: string;
  tooLarge?: { width: number; height: number; maxPixels: number };
};

/** A sink of luminance blocks. */
export type CoefficientSink<T> = Required<Pick<DecodeSink<T>, "block" | "finish">> & Pick<DecodeSink<T>, "rows">;

/** A cached product of the luminance coefficients, read with the file's luminance quantisation table. */
export interface CoefficientProduct<T> extends DecodeProduct<T> {
  /** Larger pictures are refused (`too-large`): the per-block arrays would not fit. */
  readonly maxPixels: number;
  /** Names the analysis in a refusal's reason. */
  readonly what: string;
}

/** The coefficient product `id`: `sink` gets the picture's size and luminance table, pictures over `maxPixels` get none. */
export function coefficientProductOf<T>(
  id: string,
  what: string,
  maxPixels: number,
  sink: (width: number, height: number, table: Uint16Array) => CoefficientSink<T>,
): CoefficientProduct<T> {
  return {
    id,
    what,
    maxPixels,
    kind: "coefficients",
    cached: true,
    sink(width, height, bytes) {
      const { table } = lumaFrameOf(bytes);
      return table && width * height <= maxPixels ? sink(width, height, table) : null;
    },
  };
}

/**
 * A coefficient product of one JPEG: from the file's shared pass when it was planned, else from a pass of
 * its own; or why there is none.
 */
export async function coefficientProduct<T>(
  bytes: Uint8Array,
  product: CoefficientProduct<T>,
): Promise<{ ok: true; value: T } | CoefficientFailure> {
  const { maxPixels, what } = product;
  if (!isJpeg(bytes)) return { ok: false, kind: "not-jpeg", reason: "not a JPEG" };
  const { frame, table } = lumaFrameOf(bytes);
  if (!frame || !table) return { ok: false, kind: "damaged", reason: "no frame header or quantisation table" };
  // Lossless, arithmetic-coded or hierarchical files (rare): their coefficients are not decoded.
  if (!readsCoefficients(frame))
    return {
      ok: false,
      kind: "other-coding",
      reason: "neither baseline nor Huffman progressive: coefficients not decoded",
    };
  if (frame.width * frame.height > maxPixels)
    return {
      ok: false,
      kind: "too-large",
      reason: `image too large for the ${what} (${frame.width} × ${frame.height})`,
      tooLarge: { width: frame.width, height: frame.height, maxPixels },
    };
  const shared = await decoded(bytes, product);
  if (shared) return { ok: true, value: shared };
  const sink = product.sink(frame.width, frame.height, bytes, "strips");
  if (!sink?.block) return { ok: false, kind: "damaged", reason: "no quantisation table" };
  const result = await decodeLumaCoefficients(bytes, jpegStructureOf(bytes), sink.block);
  if (result.error) return { ok: false, kind: "damaged", reason: result.error };
  return { ok: true, value: sink.finish() };
}

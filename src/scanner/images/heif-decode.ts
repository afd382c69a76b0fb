/**
 * HEIC/HEIF decoding with libheif (libheif-js: libheif + libde265 compiled to wasm, LGPL-3.0).
 * Workers refuse to compile wasm from bytes, so the module comes precompiled through `#libheif-wasm`
 * (wrangler's CompiledWasm rule; in Node read from disk) and is handed to emscripten's
 * `instantiateWasm` hook. Every decode gets its own instance, dropped afterwards: a wasm heap grows
 * to the largest picture and never shrinks.
 *
 * A phone's HEIC is a grid of 512 × 512 HEVC tiles: it is decoded tile by tile through libheif's C
 * API, one row of tiles at a time, so libheif's heap stays at its initial 16 MB and we hold one band
 * of RGBA (width × 512 × 4 bytes) whatever the picture's size. Pixels are as stored, before the
 * rotation/mirroring properties (as a JPEG's pixels before its EXIF orientation). A picture that is
 * one HEVC image is decoded whole (≈ 4 bytes a pixel inside libheif and the same outside).
 */
import libheifWasm from "#libheif-wasm";
import { cooperative } from "../../lib/cooperate";
import libheifFactory from "libheif-js/libheif-wasm/libheif.js";

type Libheif = ReturnType<typeof libheifFactory> & {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
};

/** How the primary image is stored: its size and its tile grid (1 × 1 for a single HEVC image). */
export interface HeifLayout {
  width: number;
  height: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
}

/** Receives the picture band by band, top to bottom: `rows` full rows of RGBA in `rgba`. */
export interface HeifBandSink {
  /** Called once before any band; false refuses the picture (e.g. over the pixel budget). */
  accept(layout: HeifLayout): boolean;
  band(rgba: Uint8Array, rows: number): void;
}

export type HeifOutcome = { ok: true; layout: HeifLayout } | { ok: false; refused: HeifLayout } | string;

/** A fresh libheif instance on the precompiled module. */
async function instantiate(): Promise<Libheif> {
  const factory = libheifFactory as unknown as (options: object) => Promise<Libheif>;
  return factory({
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(libheifWasm, imports);
      done(instance);
      return instance.exports;
    },
    print: () => {},
    printErr: () => {},
  });
}

/** Decodes the primary image into `sink`, or says why libheif cannot (damaged, truncated, unsupported). */
export async function decodeHeif(bytes: Uint8Array, sink: HeifBandSink): Promise<HeifOutcome> {
  const heif = await instantiate();
  const context = heif.heif_context_alloc();
  try {
    const read = heif.heif_context_read_from_memory(context, bytes) as { code: unknown; message?: string };
    if (read.code !== heif.heif_error_code.heif_error_Ok) return `libheif: ${read.message ?? "unreadable"}`;
    const handle = heif.heif_js_context_get_primary_image_handle(context) as {
      code?: unknown;
      message?: string;
      $$?: { ptr: number };
    };
    if (!handle || handle.code || !handle.$$) return `libheif: ${handle?.message ?? "no primary image"}`;
    try {
      return await decodeTiles(heif, handle.$$.ptr, sink);
    } finally {
      heif.heif_image_handle_release(handle as never);
    }
  } finally {
    heif.heif_context_free(context);
  }
}

/** Scratch memory inside libheif's heap for the C calls' out-parameters. */
const SCRATCH = { error: 0, tiling: 16, image: 80, stride: 84, bytes: 96 };

async function decodeTiles(heif: Libheif, handle: number, sink: HeifBandSink): Promise<HeifOutcome> {
  const scratch = heif._malloc(SCRATCH.bytes);
  const options = heif._heif_decoding_options_alloc();
  try {
    heif.HEAPU8.fill(0, scratch, scratch + SCRATCH.bytes);
    heif._heif_image_handle_get_image_tiling(scratch + SCRATCH.error, handle, 0, scratch + SCRATCH.tiling);
    const failed = errorOf(heif, scratch);
    if (failed) return failed;
    const t = (field: number) => heif.HEAPU32[((scratch + SCRATCH.tiling) >> 2) + field];
    const layout = { columns: t(1), rows: t(2), tileWidth: t(3), tileHeight: t(4), width: t(5), height: t(6) };
    if (!layout.width || !layout.height || !layout.tileWidth || !layout.tileHeight) return "libheif: no image size";
    if (!sink.accept(layout)) return { ok: false, refused: layout };
    heif.HEAPU8[options + 1] = 1; // heif_decoding_options.ignore_transformations: tiles as stored
    const band = new Uint8Array(layout.width * layout.tileHeight * 4);
    // A 12 MP picture is ≈ 4 s of decoding: other requests of the isolate run between tile rows.
    const turn = cooperative(1);
    for (let ty = 0; ty < layout.rows && ty * layout.tileHeight < layout.height; ty++) {
      await turn();
      const rows = Math.min(layout.tileHeight, layout.height - ty * layout.tileHeight);
      for (let tx = 0; tx < layout.columns && tx * layout.tileWidth < layout.width; tx++) {
        const problem = copyTile(heif, handle, options, scratch, layout, tx, ty, band);
        if (problem) return problem;
      }
      sink.band(band, rows);
    }
    return { ok: true, layout };
  } finally {
    heif._heif_decoding_options_free(options);
    heif._free(scratch);
  }
}

/** Decodes tile (tx, ty) as interleaved RGBA and copies its visible part into the band. */
function copyTile(
  heif: Libheif,
  handle: number,
  options: number,
  scratch: number,
  layout: HeifLayout,
  tx: number,
  ty: number,
  band: Uint8Array,
): string | null {
  const rgb = heif.heif_colorspace.heif_colorspace_RGB.value;
  const rgba = heif.heif_chroma.heif_chroma_interleaved_RGBA.value;
  const interleaved = heif.heif_channel.heif_channel_interleaved.value;
  heif._heif_image_handle_decode_image_tile(scratch, handle, scratch + SCRATCH.image, rgb, rgba, options, tx, ty);
  const failed = errorOf(heif, scratch);
  if (failed) return failed;
  const image = heif.HEAPU32[(scratch + SCRATCH.image) >> 2];
  try {
    const plane = heif._heif_image_get_plane_readonly(image, interleaved, scratch + SCRATCH.stride);
    const stride = heif.HEAP32[(scratch + SCRATCH.stride) >> 2];
    const width = heif._heif_image_get_width(image, interleaved);
    const height = heif._heif_image_get_height(image, interleaved);
    if (!plane || width <= 0 || height <= 0) return "libheif: tile without pixels";
    const x = tx * layout.tileWidth;
    const columns = Math.min(width, layout.width - x);
    const rows = Math.min(height, layout.height - ty * layout.tileHeight, layout.tileHeight);
    for (let y = 0; y < rows; y++) {
      const from = plane + y * stride;
      band.set(heif.HEAPU8.subarray(from, from + columns * 4), (y * layout.width + x) * 4);
    }
    return null;
  } finally {
    heif._heif_image_release(image);
  }
}

/** libheif's `struct heif_error` written at `at` (code, subcode, message), or null when it is Ok. */
function errorOf(heif: Libheif, at: number): string | null {
  const code = heif.HEAP32[at >> 2];
  if (code === 0) return null;
  const message = heif.HEAPU32[(at >> 2) + 2];
  return `libheif: ${message ? cString(heif.HEAPU8, message) : `error ${code}`}`;
}

/** A NUL-terminated string in libheif's heap (at most 200 bytes: messages are short). */
function cString(heap: Uint8Array, at: number): string {
  const end = heap.subarray(at, at + 200).indexOf(0);
  return new TextDecoder().decode(heap.subarray(at, end < 0 ? at + 200 : at + end));
}

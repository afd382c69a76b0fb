/**
 * HEIC/HEIF decoding with libheif (libheif-js: libheif + libde265 compiled to wasm, LGPL-3.0).
 * Workers refuse to compile wasm from bytes, so the module comes precompiled through `#libheif-wasm`
 * (wrangler's CompiledWasm rule; in Node read from disk) and is handed to emscripten's
 * `instantiateWasm` hook. Every decode gets its own instance, dropped afterwards: a wasm heap grows
 * to the largest picture and never shrinks, so a shared instance would keep ≈ 2.5× the largest
 * decoded bitmap for the isolate's lifetime. Callers check the size (heifSize) before decoding.
 */
import libheifWasm from "#libheif-wasm";
import libheifFactory from "libheif-js/libheif-wasm/libheif.js";

export interface DecodedPicture {
  width: number;
  height: number;
  /** width × height × 4 bytes, row-major. */
  rgba: Uint8Array;
}

type Libheif = ReturnType<typeof libheifFactory>;
/** libheif's error: `code` is an embind enum object, absent on a successful handle or image. */
interface HeifResult {
  code?: unknown;
  message?: string;
}
interface DecodedChannels extends HeifResult {
  image: object;
  channels: { id: unknown; width: number; height: number; stride: number; data: Uint8Array }[];
}

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

/**
 * The primary image as RGBA, handed to `use` while it still lies in libheif's memory (no copy: at the
 * pixel budget a copy would be another 24 MB), or why libheif could not read it (damaged, truncated,
 * unsupported). `picture.rgba` is valid only during `use`.
 */
export async function decodeHeif<T>(bytes: Uint8Array, use: (picture: DecodedPicture) => T): Promise<T | string> {
  const heif = await instantiate();
  const context = heif.heif_context_alloc();
  try {
    const read = heif.heif_context_read_from_memory(context, bytes) as HeifResult;
    if (read.code !== heif.heif_error_code.heif_error_Ok) return `libheif: ${read.message ?? "unreadable"}`;
    const handle = heif.heif_js_context_get_primary_image_handle(context) as HeifResult & object;
    if (!handle || (handle as HeifResult).code)
      return `libheif: ${(handle as HeifResult)?.message ?? "no primary image"}`;
    try {
      return withPicture(heif, handle, use);
    } finally {
      heif.heif_image_handle_release(handle as never);
    }
  } finally {
    heif.heif_context_free(context);
  }
}

function withPicture<T>(heif: Libheif, handle: object, use: (picture: DecodedPicture) => T): T | string {
  const decoded = heif.heif_js_decode_image2(
    handle as never,
    heif.heif_colorspace.heif_colorspace_RGB,
    heif.heif_chroma.heif_chroma_interleaved_RGBA,
  ) as DecodedChannels | null;
  if (!decoded || decoded.code) return `libheif: ${decoded?.message ?? "decoding failed"}`;
  try {
    const interleaved = heif.heif_channel.heif_channel_interleaved;
    const plane = decoded.channels.find((c) => c.id === interleaved || c.id === interleaved.value);
    if (!plane) return "libheif: no interleaved RGBA plane";
    const { width, height, stride, data } = plane;
    // `data` is a view of libheif's memory; rows are packed unless the stride says otherwise.
    if (stride === width * 4) return use({ width, height, rgba: data.subarray(0, width * height * 4) });
    const rgba = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) rgba.set(data.subarray(y * stride, y * stride + width * 4), y * width * 4);
    return use({ width, height, rgba });
  } finally {
    heif.heif_image_release(decoded.image as never);
  }
}

/**
 * Pixel access for the models without a full-size bitmap where it can be avoided: baseline JPEGs
 * and non-interlaced PNGs are decoded while they are read (streamed-source.ts, a few MB for 24 MP);
 * other images are decoded with photon (callers keep them under MAX_PIXEL_DECODE) and read in row
 * strips (crop → raw pixels → free), so there is no second full-size copy in JS. Plain RGBA
 * buffers (live capture) go through the same interface.
 */
import { countDecode } from "../images/decode-count";
import { PhotonImage, crop } from "@cf-wasm/photon";
import { declaredSize } from "../images/pixel-budget";
import { ImageDataError } from "../images/rgba-band";
import { streamedSource } from "./streamed-source";

/** RGBA pixels, row-major, 4 bytes per pixel. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Something the models can read rows from. */
export interface PixelSource {
  width: number;
  height: number;
  /** RGBA of rows y … y+count-1 (full width); valid until the next call. Throws if the data is corrupt. */
  rows(y: number, count: number): Uint8Array;
  /** What the file's one shared decode already built (images/file-decode.ts); read instead of `rows`. */
  shared?: SharedModelPixels;
}

/** The models' products of the shared decode (null = not built: read the rows). */
export interface SharedModelPixels {
  /** The picture box-downscaled to ≤ 1024 px (manipulation's input, both heatmaps' background). */
  scaled: (ScaledRgb & { factor: number }) | null;
  /** Recapture's native-resolution patches (recapture-input.ts). */
  patches: PatchCrops | null;
}

/** Box-downscaled RGB, float 0–255 per channel, row-major. */
export interface ScaledRgb {
  width: number;
  height: number;
  rgb: Float32Array;
}

/** 128 × 128 RGBA crops at the recapture grid's origins, in origin order. */
export interface PatchCrops {
  origins: Array<{ x: number; y: number }>;
  crops: Uint8Array[];
}

export function rgbaSource(image: RgbaImage): PixelSource {
  const stride = image.width * 4;
  return {
    width: image.width,
    height: image.height,
    rows: (y, count) => image.data.subarray(y * stride, (y + count) * stride),
  };
}

/**
 * JPEG/PNG/WebP bytes as a strip reader; `close()` frees what it holds. Baseline JPEGs and
 * non-interlaced PNGs stream; anything else is decoded in full by photon on first read. Corrupt data throws
 * ImageDataError from `rows` either way.
 */
export function decodeToSource(bytes: Uint8Array): PixelSource & { close(): void } {
  const streamed = streamedSource(bytes);
  return typeof streamed !== "string" ? streamed : photonSource(bytes);
}

/**
 * The whole picture decoded by photon when first read, in row strips (callers keep it under MAX_PIXEL_DECODE). Its
 * size is the header's; a reader served by the file's shared decode never reads, so nothing is decoded twice. Damage,
 * or a decoded size other than the header's, throws ImageDataError from `rows`, as a strip decoder's damage does.
 */
export function photonSource(bytes: Uint8Array): PixelSource & { close(): void } {
  const size = declaredSize(bytes);
  if (!size) throw new ImageDataError("no picture size in the header");
  const { width, height } = size;
  let image: PhotonImage | null = null;
  const decoded = (): PhotonImage => {
    if (image) return image;
    countDecode(bytes, "pixels");
    let decoding: PhotonImage;
    try {
      decoding = PhotonImage.new_from_byteslice(bytes);
    } catch {
      throw new ImageDataError("photon could not decode the picture");
    }
    if (decoding.get_width() !== width || decoding.get_height() !== height) {
      decoding.free();
      throw new ImageDataError("the decoded picture is not the size its header declares");
    }
    image = decoding;
    return image;
  };
  return {
    width,
    height,
    rows(y, count) {
      const strip = crop(decoded(), 0, y, width, y + count);
      try {
        return strip.get_raw_pixels();
      } finally {
        strip.free();
      }
    },
    close: () => image?.free(),
  };
}

/** Integer box-downscale factor that brings the longer side to at most `maxSide`. */
export function boxFactor(width: number, height: number, maxSide: number): number {
  return Math.max(1, Math.ceil(Math.max(width, height) / maxSide));
}

/**
 * Averages every factor × factor block (the right/bottom remainder is dropped), reading `factor`
 * rows at a time. Output RGB as float 0–255 per pixel, plus luma for heatmap backgrounds.
 * Training does the same with numpy (models/training/manipulation_model.py: box_downscale).
 */
export function boxDownscale(source: PixelSource, factor: number): ScaledRgb {
  const scaler = new BoxDownscaler(source.width, source.height, factor);
  const stripRows = factor * Math.max(1, Math.floor(64 / factor));
  for (let y0 = 0; y0 < scaler.height * factor; y0 += stripRows) {
    const count = Math.min(stripRows, scaler.height * factor - y0);
    const strip = source.rows(y0, count);
    for (let r = 0; r < count; r++) scaler.addRow(strip, r * source.width * 4, y0 + r);
  }
  return scaler.finish();
}

/** The same downscale fed one source row at a time, top to bottom (also by the shared decode). */
export class BoxDownscaler {
  readonly width: number;
  readonly height: number;
  private readonly rgb: Float32Array;
  private readonly sums: Float64Array;

  constructor(
    sourceWidth: number,
    sourceHeight: number,
    private readonly factor: number,
  ) {
    this.width = Math.floor(sourceWidth / factor);
    this.height = Math.floor(sourceHeight / factor);
    this.rgb = new Float32Array(this.width * this.height * 3);
    this.sums = new Float64Array(this.width * 3);
  }

  /** Source row `y` (RGBA, starting at `at` in `pixels`); rows of the dropped remainder are ignored. */
  addRow(pixels: Uint8Array, at: number, y: number): void {
    const { factor, sums, width } = this;
    if (y >= this.height * factor) return;
    // Integer sums: adding a row's `factor` pixels first is exact, the same as pixel by pixel.
    let p = at;
    for (let ox = 0, o = 0; ox < width; ox++, o += 3) {
      let red = 0;
      let green = 0;
      let blue = 0;
      for (let dx = 0; dx < factor; dx++, p += 4) {
        red += pixels[p];
        green += pixels[p + 1];
        blue += pixels[p + 2];
      }
      sums[o] += red;
      sums[o + 1] += green;
      sums[o + 2] += blue;
    }
    if ((y + 1) % factor !== 0) return;
    const area = factor * factor;
    const out = ((y + 1) / factor - 1) * width * 3;
    for (let i = 0; i < width * 3; i++) this.rgb[out + i] = sums[i] / area;
    sums.fill(0);
  }

  finish(): ScaledRgb {
    return { width: this.width, height: this.height, rgb: this.rgb };
  }
}

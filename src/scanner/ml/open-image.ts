/**
 * The gate in front of the models: only JPEG/PNG/WebP whose header dimensions are sane and within the
 * pixel budget are opened. Corrupt or unsupported bytes never reach a model; the caller gets a reason to turn
 * into a `-` finding. Every format is decoded while the model reads it (baseline JPEGs and non-interlaced PNGs
 * streamed, others by photon on first read), so damage past the header shows up as an ImageDataError from
 * `rows()`, which the analyzers report the same way (`undecodable`).
 */
import { declaredSize, MAX_PIXEL_DECODE } from "../images/pixel-budget";
import type { ScanFile } from "../types";
import { type PixelSource, photonSource } from "./raster";
import { streamedSource } from "./streamed-source";

/**
 * Largest baseline JPEG or non-interlaced PNG the models read (streamed: memory grows with the width
 * only, a few MB; the limit bounds CPU time, ≈ 1 s of decoding per 24 MP and pass). Every other image
 * is decoded in full by photon and must stay under MAX_PIXEL_DECODE (images/pixel-budget.ts). Measured memory:
 * docs/benchmarks.md, section ml-models.
 */
export const MAX_MODEL_PIXELS = 50_000_000;

export type OpenedImage =
  | { ok: true; source: PixelSource & { close(): void } }
  | {
      ok: false;
      reason: "unsupported" | "no-dimensions" | "too-large" | "undecodable";
      width?: number;
      height?: number;
    };

export function isModelInput(file: ScanFile): boolean {
  return file.kind === "jpeg" || file.kind === "png" || file.kind === "webp";
}

export function openImage(file: ScanFile): OpenedImage {
  if (!isModelInput(file)) return { ok: false, reason: "unsupported" };
  const size = declaredSize(file.bytes);
  if (!size) return { ok: false, reason: "no-dimensions" };
  const pixels = size.width * size.height;
  if (pixels > MAX_MODEL_PIXELS) return { ok: false, reason: "too-large", ...size };
  // Opened once: the strip decoder if one reads the file, else photon within its cap.
  const streamed = streamedSource(file.bytes);
  if (typeof streamed === "string" && pixels > MAX_PIXEL_DECODE) return { ok: false, reason: "too-large", ...size };
  // photon decodes on first read (raster.ts photonSource): not at all when the file's shared decode serves the model.
  const source = typeof streamed === "string" ? photonSource(file.bytes) : streamed;
  if (source.width !== size.width || source.height !== size.height) {
    source.close();
    return { ok: false, reason: "undecodable", ...size };
  }
  return { ok: true, source };
}

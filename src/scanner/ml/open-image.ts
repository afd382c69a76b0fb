/**
 * The gate in front of the models: only JPEG/PNG whose header dimensions are sane and within the
 * pixel budget are decoded, and only a successful decode is handed on. Corrupt or unsupported bytes
 * never reach a model; the caller gets a reason to turn into a `-` finding.
 */
import { parseJpegStructure } from "../images/jpeg-markers";
import { pngSize } from "../images/png-chunks";
import type { ScanFile } from "../types";
import { decodeToSource, type PixelSource } from "./raster";

/**
 * Largest image decoded for the models (24 MP photos must be analysable). Honest limit: photon decodes
 * the full bitmap (24 MP = 96 MB RGBA plus its RGB buffer), which does NOT fit a 128 MB isolate; the
 * measured peak is in docs/benchmarks.md (section ml-models). A decoder that scales while decoding would
 * remove this; everything after the decode reads row strips and stays within a few tens of MB.
 */
export const MAX_MODEL_PIXELS = 25_000_000;

export type OpenedImage =
  | { ok: true; source: PixelSource & { close(): void } }
  | { ok: false; reason: "unsupported" | "no-dimensions" | "too-large" | "undecodable"; width?: number; height?: number };

export function headerSize(file: ScanFile): { width: number; height: number } | null {
  try {
    if (file.kind === "png") return pngSize(file.bytes);
    if (file.kind === "jpeg") {
      const frame = parseJpegStructure(file.bytes).frame;
      return frame ? { width: frame.width, height: frame.height } : null;
    }
  } catch {
    return null;
  }
  return null;
}

export function isModelInput(file: ScanFile): boolean {
  return file.kind === "jpeg" || file.kind === "png";
}

export function openImage(file: ScanFile): OpenedImage {
  if (!isModelInput(file)) return { ok: false, reason: "unsupported" };
  const size = headerSize(file);
  if (!size || size.width <= 0 || size.height <= 0) return { ok: false, reason: "no-dimensions" };
  if (size.width * size.height > MAX_MODEL_PIXELS) return { ok: false, reason: "too-large", ...size };
  try {
    const source = decodeToSource(file.bytes);
    if (source.width !== size.width || source.height !== size.height) {
      source.close();
      return { ok: false, reason: "undecodable", ...size };
    }
    return { ok: true, source };
  } catch {
    return { ok: false, reason: "undecodable", ...size };
  }
}

import { PhotonImage, SamplingFilter, crop, resize } from "@cf-wasm/photon";
import type { RgbaImage } from "./types";

/** The two views the checks need from one decode. */
export interface DecodedPhoto {
  /** The whole picture scaled to at most `OVERVIEW_SIDE` (scene quality, duplicate detection). */
  overview: RgbaImage;
  /** A full-resolution centre crop (recapture cues live in the finest detail). */
  detail: RgbaImage;
  width: number;
  height: number;
}

const OVERVIEW_SIDE = 512;
const DETAIL_SIDE = 512;

/** Decodes JPEG/PNG bytes with photon; throws on undecodable input. Frees every wasm image. */
export function decodePhoto(bytes: Uint8Array): DecodedPhoto {
  const image = PhotonImage.new_from_byteslice(bytes);
  try {
    const width = image.get_width();
    const height = image.get_height();
    return { overview: scaled(image, width, height), detail: centreCrop(image, width, height), width, height };
  } finally {
    image.free();
  }
}

function scaled(image: PhotonImage, width: number, height: number): RgbaImage {
  const factor = Math.min(1, OVERVIEW_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * factor));
  const h = Math.max(1, Math.round(height * factor));
  if (factor === 1) return { data: image.get_raw_pixels(), width, height };
  const small = resize(image, w, h, SamplingFilter.Triangle);
  try {
    return { data: small.get_raw_pixels(), width: w, height: h };
  } finally {
    small.free();
  }
}

function centreCrop(image: PhotonImage, width: number, height: number): RgbaImage {
  const w = Math.min(DETAIL_SIDE, width);
  const h = Math.min(DETAIL_SIDE, height);
  const x = Math.floor((width - w) / 2);
  const y = Math.floor((height - h) / 2);
  const part = crop(image, x, y, x + w, y + h);
  try {
    return { data: part.get_raw_pixels(), width: part.get_width(), height: part.get_height() };
  } finally {
    part.free();
  }
}

/** Rec. 601 luma of every pixel, 0..255. */
export function luma(image: RgbaImage): Float32Array {
  const out = new Float32Array(image.width * image.height);
  for (let i = 0, p = 0; i < out.length; i++, p += 4) {
    out[i] = 0.299 * image.data[p] + 0.587 * image.data[p + 1] + 0.114 * image.data[p + 2];
  }
  return out;
}

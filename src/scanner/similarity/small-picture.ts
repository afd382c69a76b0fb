/** Small pictures for the match report: shrinking a decoded picture or a PNG, and side-by-side sheets. */
import { areaDownscale, singleBand } from "../images/area-downscale";
import { encodePng } from "../images/png-encode";
import { openStreamed } from "../images/streamed-image";

/** Longest edge of a stored reference picture. */
export const SMALL_EDGE = 128;

export interface Rgba {
  rgba: Uint8Array;
  width: number;
  height: number;
}

/** The picture shrunk to at most `edge` pixels on its longer side (area average). */
export function shrink(picture: Rgba, edge = SMALL_EDGE): Rgba {
  const scale = Math.min(1, edge / Math.max(picture.width, picture.height));
  const width = Math.max(1, Math.round(picture.width * scale));
  const height = Math.max(1, Math.round(picture.height * scale));
  return { rgba: areaDownscale(singleBand(picture), width, height), width, height };
}

export const smallPng = (picture: Rgba, edge = SMALL_EDGE): Uint8Array => {
  const small = shrink(picture, edge);
  return encodePng(small.rgba, small.width, small.height);
};

/** Decodes a PNG or baseline JPEG (our own thumbnails); null when it cannot. */
export function decodeSmall(bytes: Uint8Array): Rgba | null {
  const source = openStreamed(bytes);
  if (typeof source === "string") return null;
  try {
    const small = areaDownscale(source, source.width, source.height);
    return { rgba: small, width: source.width, height: source.height };
  } catch {
    return null;
  }
}

/** Pictures next to each other on a white sheet, each scaled into a `cell` × `cell` box, 8 px apart. */
export function sideBySide(pictures: Rgba[], cell = 240): Uint8Array {
  const gap = 8;
  const width = pictures.length * cell + (pictures.length + 1) * gap;
  const height = cell + 2 * gap;
  const sheet = new Uint8Array(width * height * 4).fill(255);
  pictures.forEach((picture, i) => {
    const fitted = scaleToCell(picture, cell);
    const left = gap + i * (cell + gap) + Math.floor((cell - fitted.width) / 2);
    const top = gap + Math.floor((cell - fitted.height) / 2);
    for (let y = 0; y < fitted.height; y++)
      sheet.set(fitted.rgba.subarray(y * fitted.width * 4, (y + 1) * fitted.width * 4), ((top + y) * width + left) * 4);
  });
  return encodePng(sheet, width, height);
}

/** The picture scaled to fit a `cell` box: area average down, nearest neighbour up (small stored pictures). */
function scaleToCell(picture: Rgba, cell: number): Rgba {
  if (Math.max(picture.width, picture.height) >= cell) return shrink(picture, cell);
  const scale = cell / Math.max(picture.width, picture.height);
  const width = Math.max(1, Math.round(picture.width * scale));
  const height = Math.max(1, Math.round(picture.height * scale));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(picture.height - 1, Math.floor(y / scale));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(picture.width - 1, Math.floor(x / scale));
      rgba.set(
        picture.rgba.subarray((sy * picture.width + sx) * 4, (sy * picture.width + sx) * 4 + 4),
        (y * width + x) * 4,
      );
    }
  }
  return { rgba, width, height };
}

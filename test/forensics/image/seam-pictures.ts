/** Synthetic pictures for the cut-edge tests (seams*.test.ts): photo-like shading and grain, and local tone changes. */
import type { GrayImage } from "../../../src/scanner/images/gray";

export type Box = { x: number; y: number; width: number; height: number };

/**
 * A photo-like picture: smooth shading, fine texture and deterministic grain of ± `grain` / 2 grey levels, every
 * edge soft.
 */
export function texturedPicture(width: number, height: number, grain = 3): GrayImage {
  const data = new Float32Array(width * height);
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed / 2 ** 32 - 0.5) * grain;
  };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      data[y * width + x] = 70 + 0.2 * x + 0.1 * y + 12 * Math.sin(x / 9) * Math.cos(y / 13) + noise();
  return { width, height, data };
}

/**
 * The picture with `change` (of the value and the column inside the box) applied within `r`; `feather` px of linear
 * blend at its border.
 */
export function retone(img: GrayImage, r: Box, change: (v: number, dx: number) => number, feather = 0): GrayImage {
  const data = Float32Array.from(img.data);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const inside = Math.min(x - r.x + 1, r.x + r.width - x, y - r.y + 1, r.y + r.height - y);
      const weight = feather ? Math.max(0, Math.min(1, inside / feather)) : inside > 0 ? 1 : 0;
      const v = img.data[y * img.width + x];
      data[y * img.width + x] = v + weight * (change(v, x - r.x) - v);
    }
  return { ...img, data };
}

/** The generator's brightness edit at g = 1.2, b = 10. */
export const brighter = (v: number) => v * 1.2 + 10;

/** Synthetic pictures for the blurred-rectangle tests: a sharp, detailed picture and a rectangle of it blurred. */
import type { GrayImage } from "../../../src/scanner/images/gray";

export type Box = { x: number; y: number; width: number; height: number };

/** A sharp, detailed picture: fine stripes and a checker of varying contrast over soft shading, plus grain. */
export function detailedPicture(width: number, height: number): GrayImage {
  const data = new Float32Array(width * height);
  let seed = 777;
  const grain = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return (seed / 2 ** 32 - 0.5) * 4;
  };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const fine = ((x + y) % 3 === 0 ? 14 : 0) + ((x >> 1) % 2 === (y >> 1) % 2 ? 10 : 0);
      data[y * width + x] =
        90 + 20 * Math.sin(x / 17) + 15 * Math.cos(y / 23) + fine * (0.6 + 0.4 * Math.sin(y / 11)) + grain();
    }
  return { width, height, data };
}

/** Gaussian blur (σ, separable, clamped borders) of the whole picture, copied back inside `r` only (as the generator does). */
export function blurInside(img: GrayImage, r: Box, sigma: number): GrayImage {
  const { width, height } = img;
  const radius = Math.ceil(3 * sigma);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const total = kernel.reduce((a, b) => a + b, 0);
  const pass = (src: Float32Array, dx: number, dy: number) => {
    const out = new Float32Array(src.length);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let i = -radius; i <= radius; i++) {
          const xx = Math.min(width - 1, Math.max(0, x + i * dx));
          const yy = Math.min(height - 1, Math.max(0, y + i * dy));
          sum += kernel[i + radius] * src[yy * width + xx];
        }
        out[y * width + x] = sum / total;
      }
    return out;
  };
  const blurred = pass(pass(img.data, 1, 0), 0, 1);
  const data = Float32Array.from(img.data);
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) data[y * width + x] = blurred[y * width + x];
  return { ...img, data };
}

/**
 * Pictures drawn by a computer (a rendered page, a screenshot, a diagram): large areas of exactly one value
 * beside edges one pixel sharp, and the same elements (letters, boxes, logos) repeated by design. The pixel
 * checks that read sharp edges or repeats (cut edges, blurred rectangles, copy-move) do not judge them.
 */
import { oncePer } from "../../lib/once-per";
import type { GrayImage } from "./gray";
import { copyGrayInto } from "./gray-wasm";
import { kernels } from "./wasm-kernels";

/**
 * From this share of pixels equal to their right-hand neighbour the picture was drawn by a computer.
 * Measured (docs/forensics.md, "Cut edges"): camera photos and their re-saves ≤ 0.48, rendered PDF pages ≥ 0.78.
 */
export const DRAWN_SHARE = 0.6;

/**
 * Share of pixels whose right-hand neighbour has exactly the same value: counted by the kernel of
 * wasm/assembly/drawn.ts, or with `reference` here (test/forensics/image/wasm-search-kernels.test.ts compares them).
 */
export function equalNeighbourShare(img: GrayImage, options: { reference?: boolean } = {}): number {
  const { width, height, data } = img;
  let equal = 0;
  if (options.reference)
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x + 1 < width; x++) if (data[row + x] === data[row + x + 1]) equal++;
    }
  else equal = kernels().equalNeighbourCount(copyGrayInto(img, {}).at.picture, width, height);
  return equal / Math.max(1, (width - 1) * height);
}

/** equalNeighbourShare once per picture: copy-move, seams and blur ask it of the same search picture. */
const shareOf = oncePer((img: GrayImage) => equalNeighbourShare(img));

/** The picture's equal-neighbour share when it was drawn by a computer (as evidence), else null. */
export function drawnPicture(img: GrayImage): { equalNeighbourShare: number; drawnShare: number } | null {
  const share = shareOf(img);
  return share >= DRAWN_SHARE ? { equalNeighbourShare: Number(share.toFixed(3)), drawnShare: DRAWN_SHARE } : null;
}

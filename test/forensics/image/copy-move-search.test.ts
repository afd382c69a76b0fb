/**
 * The copy-move search on pictures made here, where the truth is known exactly: a copied area is
 * found at its shift, on the copy and on its source; repeating patterns and smooth shading are not copies.
 */
import { describe, expect, it } from "vitest";
import { COPY_MOVE_MIN_BLOCKS, isStrip } from "../../../src/scanner/forensics/copy-move";
import { BLOCK, searchCopyMove } from "../../../src/scanner/images/block-matching";
import type { GrayImage } from "../../../src/scanner/images/gray";

/** A deterministic pseudo-random texture (xorshift32, smoothed 2×2 so it looks like detail, not noise). */
function texture(width: number, height: number, seed: number): GrayImage {
  let state = seed;
  const noise = Float32Array.from({ length: (width + 1) * (height + 1) }, () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 256;
  });
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = y * (width + 1) + x;
      data[y * width + x] = (noise[at] + noise[at + 1] + noise[at + width + 1] + noise[at + width + 2]) / 4;
    }
  return { width, height, data };
}

/** `img` with the w × h area at (sx, sy) copied to (tx, ty), plus ±1 grey level of noise everywhere (a re-save's jitter). */
function withCopy(img: GrayImage, sx: number, sy: number, w: number, h: number, tx: number, ty: number): GrayImage {
  const data = img.data.slice();
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) data[(ty + y) * img.width + tx + x] = img.data[(sy + y) * img.width + sx + x];
  for (let i = 0; i < data.length; i++) data[i] += ((i * 7919) % 3) - 1;
  return { ...img, data };
}

/** Bounding box of the area's blocks at its first place (moved by dx, dy for the other place). */
function box(blocks: Int32Array, dx: number, dy: number) {
  const xs = blocks.filter((_, i) => i % 2 === 0);
  const ys = blocks.filter((_, i) => i % 2 === 1);
  return {
    x: Math.min(...xs) + dx,
    y: Math.min(...ys) + dy,
    right: Math.max(...xs) + dx + BLOCK,
    bottom: Math.max(...ys) + dy + BLOCK,
  };
}

describe("copy-move search", () => {
  it("finds a 70 × 50 area copied 201 px across and 37 px up, and reports both places", () => {
    const img = withCopy(texture(400, 300, 7), 20, 200, 70, 50, 221, 163);
    const [area] = searchCopyMove(img).areas;
    // Shifts are given from the earlier place in reading order (upper first) to the later one.
    expect([area.dx, area.dy]).toEqual([-201, 37]);
    expect(area.blocks.length / 2).toBeGreaterThanOrEqual(COPY_MOVE_MIN_BLOCKS);
    // Blocks reaching a pixel or two over the edge still match (the cells there differ little): within 3 px.
    const near = (a: Record<string, number>, b: Record<string, number>) =>
      Object.keys(b).every((k) => Math.abs(a[k] - b[k]) <= 3);
    expect(near(box(area.blocks, 0, 0), { x: 221, y: 163, right: 291, bottom: 213 })).toBe(true);
    expect(near(box(area.blocks, area.dx, area.dy), { x: 20, y: 200, right: 90, bottom: 250 })).toBe(true);
  });

  it("finds nothing in the same picture without the copy", () => {
    expect(searchCopyMove(texture(400, 300, 7)).areas[0]?.blocks.length ?? 0).toBe(0);
  });

  it("a repeating pattern (a 37 × 29 tile over the whole picture) is not a copy", () => {
    const tile = texture(37, 29, 3);
    const data = new Float32Array(300 * 200);
    for (let y = 0; y < 200; y++) for (let x = 0; x < 300; x++) data[y * 300 + x] = tile.data[(y % 29) * 37 + (x % 37)];
    const areas = searchCopyMove({ width: 300, height: 200, data }).areas;
    expect(areas.length).toBeGreaterThan(0);
    expect(Math.max(...areas.map((a) => a.blocks.length / 2))).toBeLessThan(COPY_MOVE_MIN_BLOCKS);
  });

  it("smooth shading (a sky, the inside of a cup) has no detail to compare", () => {
    const data = Float32Array.from({ length: 300 * 200 }, (_, i) => 60 + ((i % 300) + Math.floor(i / 300)) / 3);
    const search = searchCopyMove({ width: 300, height: 200, data });
    expect(search.blocksCompared).toBe(0);
    expect(search.areas).toEqual([]);
  });

  it("a strip copied (a 300 × 20 line, as a text line or form row repeats on a rendered document) is found but is not an area pasted over something", () => {
    const img = withCopy(texture(400, 300, 11), 40, 30, 300, 20, 60, 200);
    const [area] = searchCopyMove(img).areas;
    expect([area.dx, area.dy]).toEqual([20, 170]);
    expect(area.blocks.length / 2).toBeGreaterThanOrEqual(COPY_MOVE_MIN_BLOCKS);
    expect(isStrip(area)).toBe(true);
    const [square] = searchCopyMove(withCopy(texture(400, 300, 11), 40, 30, 60, 60, 260, 200)).areas;
    expect(isStrip(square)).toBe(false);
  });
});

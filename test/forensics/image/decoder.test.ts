import { PhotonImage } from "@cf-wasm/photon";
import { describe, expect, it } from "vitest";
import { blockMaps } from "../../../src/scanner/images/block-analysis";
import { lumaFromRgba } from "../../../src/scanner/images/gray";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { generatedFile, sharedFile } from "./fixtures";

function photonBlockMeans(bytes: Uint8Array): { means: Float32Array; blocksWide: number } {
  const img = PhotonImage.new_from_byteslice(bytes);
  const gray = lumaFromRgba(img.get_raw_pixels(), img.get_width(), img.get_height());
  img.free();
  const blocksWide = Math.floor(gray.width / 8);
  const blocksHigh = Math.floor(gray.height / 8);
  const means = new Float32Array(blocksWide * blocksHigh);
  for (let by = 0; by < blocksHigh; by++)
    for (let bx = 0; bx < blocksWide; bx++) {
      let s = 0;
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) s += gray.data[(by * 8 + y) * gray.width + bx * 8 + x];
      means[by * blocksWide + bx] = s / 64;
    }
  return { means, blocksWide };
}

/** Mean |block mean from our coefficient decoder − block mean of photon's decoded pixels|. */
async function meanDifference(bytes: Uint8Array): Promise<number> {
  const ours = await blockMaps(bytes);
  if (!ours.ok) throw new Error(ours.reason);
  const ref = photonBlockMeans(bytes);
  let diff = 0;
  for (let i = 0; i < ref.means.length; i++) {
    const row = Math.floor(i / ref.blocksWide);
    const col = i % ref.blocksWide;
    diff += Math.abs(ours.maps.mean[row * ours.maps.blocksWide + col] - ref.means[i]);
  }
  return diff / ref.means.length;
}

describe("baseline Huffman decoder agrees with a reference decoder", () => {
  it("block means match photon's decoded luminance (4:2:0 camera photo and an OpenCV file)", async () => {
    expect(await meanDifference(await sharedFile("photos/opencv-doc/leuvenA.jpg"))).toBeLessThan(1.5);
    expect(await meanDifference(await generatedFile("splice/Dune.jpg"))).toBeLessThan(1.5);
  });

  it("restart markers are handled: same picture with and without RST gives the same blocks", async () => {
    const withRst = await generatedFile("restart-interval.jpg");
    expect(parseJpegStructure(withRst)).toMatchObject({ restartInterval: 3 });
    expect(parseJpegStructure(withRst).restartMarkers).toBeGreaterThan(10);
    const a = await blockMaps(withRst);
    const b = await blockMaps(await generatedFile("restart-none.jpg"));
    if (!a.ok || !b.ok) throw new Error("decode failed");
    expect(a.maps.mean).toEqual(b.maps.mean);
    expect(await meanDifference(withRst)).toBeLessThan(1.5);
  });
});

/**
 * Preprocessing parity for the manipulation model: the Worker's box-downscale and tiling feed
 * onnxruntime-web, and tile scores and heatmaps must match the Python export's recorded outputs
 * (models/training/record_reference.py) to 1e-4.
 */
import { describe, expect, it } from "vitest";
import { modelScale, tileAxis, tiles } from "../../src/scanner/ml/manipulation-input";
import { manipulationModel } from "../../src/scanner/ml/models";
import { runModel } from "../../src/scanner/ml/ort";
import { decodeToSource, rgbaSource } from "../../src/scanner/ml/raster";
import reference from "./fixtures/reference.json";
import { fixturePng } from "./fixtures";

const TOLERANCE = 1e-4;

describe("the embedded manipulation model is the exported one", () => {
  it("has the SHA-256 recorded in models/manifest.json", async () => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", manipulationModel.bytes));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    expect(hex).toBe(manipulationModel.fullSha256);
  });
});

describe("manipulation inference in workerd matches the Python export", () => {
  for (const [name, expected] of Object.entries(reference.manipulation)) {
    it(`${name}: same tiles, scores and heatmap cells (±${TOLERANCE})`, async () => {
      const source = decodeToSource(fixturePng(name));
      const scaled = modelScale(source);
      source.close();
      expect([scaled.factor, scaled.width, scaled.height]).toEqual([expected.factor, expected.width, expected.height]);
      const actual = [...tiles(scaled)];
      expect(actual.map((t) => [t.x, t.y, t.width, t.height])).toEqual(
        expected.tiles.map((t) => [t.x, t.y, t.width, t.height]),
      );
      for (const [i, tile] of actual.entries()) {
        const out = await runModel(
          manipulationModel,
          { name: "image", data: tile.tensor, dims: [1, 3, tile.height, tile.width] },
          ["heatmap", "score"],
        );
        expect(Math.abs(out.score.data[0] - expected.tiles[i].score)).toBeLessThan(TOLERANCE);
        const sample = expected.tiles[i].heatSample;
        sample.forEach((value, k) => expect(Math.abs(out.heatmap.data[k * 7] - value)).toBeLessThan(TOLERANCE));
      }
    });
  }

  it("cuts tiles along an axis exactly like training's tile_axis", () => {
    for (const [size, [length, starts]] of Object.entries(reference.manipulationTileAxes)) {
      expect(tileAxis(Number(size))).toEqual({ length, starts });
    }
  });

  it("downscales a large image by an integer factor the same way (box average, remainder dropped)", () => {
    // 2050 × 300 → factor 3 → 683 × 100: each output pixel is the mean of its 3 × 3 block.
    const width = 2050;
    const height = 300;
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) data.set([(i * 7) % 256, (i * 13) % 256, (i * 29) % 256, 255], i * 4);
    const scaled = modelScale(rgbaSource({ width, height, data }));
    expect([scaled.factor, scaled.width, scaled.height]).toEqual([3, 683, 100]);
    let worst = 0;
    for (let y = 0; y < scaled.height; y++) {
      for (let x = 0; x < scaled.width; x++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = 0; dy < 3; dy++)
            for (let dx = 0; dx < 3; dx++) sum += data[((y * 3 + dy) * width + x * 3 + dx) * 4 + c];
          worst = Math.max(worst, Math.abs(scaled.rgb[(y * scaled.width + x) * 3 + c] - sum / 9));
        }
      }
    }
    expect(worst).toBeLessThan(1e-4);
  });
});

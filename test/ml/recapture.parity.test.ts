/**
 * Preprocessing parity, proven: fixed PNGs go through the Worker's decode → patch sampling →
 * onnxruntime-web, and every patch probability must match what the Python export recorded
 * (models/training/record_reference.py) to 1e-4.
 */
import { describe, expect, it } from "vitest";
import { recaptureModel } from "../../src/scanner/ml/models";
import { decodeToSource } from "../../src/scanner/ml/raster";
import { detectRecaptureIn } from "../../src/scanner/ml/recapture-inference";
import reference from "./fixtures/reference.json";
import { fixturePng } from "./fixtures";

const TOLERANCE = 1e-4;

describe("the embedded recapture model is the exported one", () => {
  it("has the SHA-256 recorded in models/manifest.json", async () => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", recaptureModel.bytes));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    expect(hex).toBe(recaptureModel.fullSha256);
    expect(recaptureModel.identity.sha256).toBe(hex.slice(0, 12));
  });
});

describe("recapture inference in workerd matches the Python export", () => {
  for (const [name, expected] of Object.entries(reference.recapture)) {
    it(`${name}: same patches, same probabilities (±${TOLERANCE})`, async () => {
      const source = decodeToSource(fixturePng(name));
      try {
        const result = await detectRecaptureIn(source);
        expect(result.patches.map((p) => [p.x, p.y])).toEqual(expected.origins);
        expect(result.flat.length).toBe(expected.flat);
        expect(result.patches.length).toBeGreaterThan(0);
        result.patches.forEach((patch, i) =>
          expect(Math.abs(patch.probability - expected.probabilities[i])).toBeLessThan(TOLERANCE),
        );
        expect(Math.abs((result.probability ?? NaN) - expected.probability)).toBeLessThan(TOLERANCE);
      } finally {
        source.close();
      }
    });
  }
});

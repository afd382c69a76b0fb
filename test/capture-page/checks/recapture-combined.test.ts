import { describe, expect, it } from "vitest";
import dune from "../../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import leuven from "../../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import { decodePhoto } from "../../../src/capture/checks/pixels";
import { checkRecapture } from "../../../src/capture/checks/recapture-check";
import { bytesOf, screenPhotoJpeg } from "../support";

// Loads onnxruntime-web on first use: kept in its own file.
describe("recapture check by default: the learned model and the spectral check both look, either one flags", () => {
  it("a real photo passes, with both detectors' scores in the evidence", async () => {
    const result = await checkRecapture(decodePhoto(bytesOf(leuven)).detail);
    expect(result.status).toBe("pass");
    expect(result.evidence).toMatchObject({
      detector: "classical-spectral-v1+learned-recapture-cnn",
      classical: { recaptured: false },
      learned: { recaptured: false, model: { name: "recapture-cnn" } },
    });
  });

  it("a photographed screen fails with the reasons of both", async () => {
    const result = await checkRecapture(decodePhoto(screenPhotoJpeg(dune, 2.7)).detail);
    expect(result.status).toBe("fail");
    expect(result.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(["periodic_pattern", "model_screen"]));
  });

  it("a crop too small for the model keeps the spectral verdict and says the model could not look", async () => {
    const tiny = { width: 100, height: 100, data: new Uint8Array(100 * 100 * 4).fill(128) };
    const result = await checkRecapture(tiny);
    expect(result.status).toBe("pass");
    expect(result.evidence).toMatchObject({ learned: { unavailable: "image too small for the model" } });
  });
});

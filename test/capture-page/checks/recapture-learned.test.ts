import { describe, expect, it } from "vitest";
import dune from "../../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import leuven from "../../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import cups from "../../../../shared/data/photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg?inline";
import { decodePhoto } from "../../../src/capture/checks/pixels";
import { learnedRecapture } from "../../../src/capture/checks/recapture-learned";
import { bytesOf, screenPhotoJpeg } from "../support";

// Loads onnxruntime-web (≈ 10–15 s on first use): kept in its own file.
describe("the learned recapture model plugs into the capture check's interface", () => {
  it.each([
    ["Dune", dune],
    ["leuvenA", leuven],
    ["ColorfulCups", cups],
  ])("real photo %s: scored, not flagged", async (_n, photo) => {
    const verdict = await learnedRecapture.detect(decodePhoto(bytesOf(photo)).detail);
    expect(verdict.recaptured).toBe(false);
  });

  it.each([
    ["Dune", dune, 2.7],
    ["leuvenA", leuven, 3.1],
    ["ColorfulCups", cups, 2.9],
  ] as const)("screen photo of %s: flagged at the model's Red threshold", async (_n, photo, pitch) => {
    const verdict = await learnedRecapture.detect(decodePhoto(screenPhotoJpeg(photo, pitch)).detail);
    expect(verdict).toMatchObject({ recaptured: true, cues: [{ code: "model_screen" }] });
  });
});

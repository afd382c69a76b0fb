import { describe, expect, it } from "vitest";
import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon";
import dune from "../../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import leuven from "../../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import cups from "../../../../shared/data/photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg?inline";
import { decodePhoto } from "../../../src/capture/checks/pixels";
import { learnedRecapture } from "../../../src/capture/checks/recapture-learned";
import { photographScreen } from "../../support/screen-photo";
import { bytesOf, rgbaToJpeg } from "../support";

function screenShot(dataUrl: string, pitch: number): Uint8Array {
  const image = PhotonImage.new_from_byteslice(bytesOf(dataUrl));
  const small = resize(image, 640, Math.round((640 * image.get_height()) / image.get_width()), SamplingFilter.Triangle);
  const source = { data: small.get_raw_pixels(), width: small.get_width(), height: small.get_height() };
  image.free();
  small.free();
  return rgbaToJpeg(photographScreen(source, { outWidth: 1024, outHeight: 768, pitch, angleDeg: 1 }));
}

// Loads onnxruntime-web (≈ 10–15 s on first use): kept in its own file.
describe("the learned recapture model plugs into the capture check's interface", () => {
  it.each([["Dune", dune], ["leuvenA", leuven], ["ColorfulCups", cups]])("real photo %s: scored, not flagged", async (_n, photo) => {
    const verdict = await learnedRecapture.detect(decodePhoto(bytesOf(photo)).detail);
    expect(verdict.recaptured).toBe(false);
  });

  it.each([["Dune", dune, 2.7], ["leuvenA", leuven, 3.1], ["ColorfulCups", cups, 2.9]] as const)("screen photo of %s: flagged at the model's Red threshold", async (_n, photo, pitch) => {
    const verdict = await learnedRecapture.detect(decodePhoto(screenShot(photo, pitch)).detail);
    expect(verdict).toMatchObject({ recaptured: true, cues: [{ code: "model_screen" }] });
  });
});

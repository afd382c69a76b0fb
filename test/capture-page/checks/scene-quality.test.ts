import { describe, expect, it } from "vitest";
import { PhotonImage, inc_brightness } from "@cf-wasm/photon";
import dune from "../../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import board from "../../../../shared/data/photos/opencv-doc/board.jpg?inline";
import leuven from "../../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import defocus from "../../../../shared/data/photos/opencv-doc/text_defocus.jpg?inline";
import night from "../../../../shared/data/photos/opencv-doc/scenetext02.jpg?inline";
import darkest from "../../../../shared/data/photos/plasma-workspace-wallpapers/DarkestHour-2560x1600.jpg?inline";
import cups from "../../../../shared/data/photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg?inline";
import { decodePhoto } from "../../../src/capture/checks/pixels";
import { checkSceneQuality } from "../../../src/capture/checks/scene-quality";
import { bytesOf } from "../support";

const scene = (dataUrl: string) => checkSceneQuality(decodePhoto(bytesOf(dataUrl)).overview);
const codes = (dataUrl: string) => scene(dataUrl).reasons.map((r) => r.code);

describe("scene check: sharp, well exposed photos with content pass", () => {
  it.each([
    ["Dune", dune],
    ["leuvenA", leuven],
    ["board", board],
    ["ColorfulCups", cups],
  ])("%s passes", (_name, photo) => {
    const result = scene(photo);
    expect(result.status, JSON.stringify(result.evidence)).toBe("pass");
  });
});

describe("scene check: what fails, and says why", () => {
  it("a defocused photo is blurred", () => {
    expect(codes(defocus)).toContain("blurry");
  });

  it("a smooth gradient wallpaper has no sharp edge and too little content", () => {
    expect(codes(darkest)).toEqual(expect.arrayContaining(["blurry", "no_content"]));
  });

  it("a night shot is too dark", () => {
    expect(codes(night)).toContain("too_dark");
  });

  it("an overexposed version of a good photo is too bright", () => {
    const image = PhotonImage.new_from_byteslice(bytesOf(leuven));
    inc_brightness(image, 200);
    const bright = image.get_bytes_jpeg(90);
    image.free();
    const result = checkSceneQuality(decodePhoto(bright).overview);
    expect(result.reasons.map((r) => r.code)).toContain("too_bright");
    expect(result.reasons[0].message).toMatch(/\w+/);
  });
});

import { describe, expect, it } from "vitest";
import dune from "../../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import elephants from "../../../../shared/data/photos/mate-backgrounds/Elephants_3840x2160.jpg?inline";
import leuven from "../../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import scenetext from "../../../../shared/data/photos/opencv-doc/scenetext01.jpg?inline";
import board from "../../../../shared/data/photos/opencv-doc/board.jpg?inline";
import cups from "../../../../shared/data/photos/plasma-workspace-wallpapers/ColorfulCups-2560x1600.jpg?inline";
import path from "../../../../shared/data/photos/plasma-workspace-wallpapers/Path-2560x1600.jpg?inline";
import { decodePhoto } from "../../../src/capture/checks/pixels";
import {
  checkRecapture,
  recaptureDetectors,
  type RecaptureDetector,
} from "../../../src/capture/checks/recapture-check";
import { classicalRecapture } from "../../../src/capture/checks/recapture-classical";
import { bytesOf, screenPhotoJpeg } from "../support";

const REAL = {
  Dune: dune,
  Elephants: elephants,
  leuvenA: leuven,
  scenetext01: scenetext,
  board,
  ColorfulCups: cups,
  Path: path,
};

// The classical detector alone (the default combines it with the model: recapture-combined.test.ts).

describe("recapture check: real photos of scenes are not flagged", () => {
  it.each(Object.entries(REAL))("%s passes", async (_name, photo) => {
    const result = await checkRecapture(decodePhoto(bytesOf(photo)).detail, classicalRecapture);
    expect(result.status, JSON.stringify(result.evidence)).toBe("pass");
  });
});

describe("recapture check: photographs of a screen showing those photos are flagged", () => {
  it.each([
    ["Dune", dune, 2.7, 1.5],
    ["leuvenA", leuven, 3.1, -1],
    ["board", board, 3.6, 0.5],
    ["ColorfulCups", cups, 2.9, 2],
  ] as const)("%s on a screen fails with a reason in plain words", async (_name, photo, pitch, angle) => {
    const result = await checkRecapture(decodePhoto(screenPhotoJpeg(photo, pitch, angle)).detail, classicalRecapture);
    expect(result.status, JSON.stringify(result.evidence)).toBe("fail");
    expect(result.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(["periodic_pattern"]));
    expect(result.reasons[0].message).toMatch(/pattern|sub-pixels/);
    expect(result.evidence.detector).toBe("classical-spectral-v1");
  });
});

describe("recapture check: the detector is replaceable (the learned model plugs in here)", () => {
  it("uses the detector it is given and records its name", async () => {
    const stub: RecaptureDetector = {
      name: "always-screen",
      detect: () => ({
        recaptured: true,
        score: 0.9,
        cues: [{ code: "model", message: "The model sees a screen." }],
        evidence: {},
      }),
    };
    const result = await checkRecapture(decodePhoto(bytesOf(leuven)).detail, stub);
    expect(result).toMatchObject({ status: "fail", evidence: { detector: "always-screen", score: 0.9 } });
  });

  it("the setting CAPTURE_RECAPTURE_DETECTOR picks one by name; an unknown name names the setting", () => {
    expect(recaptureDetectors.pick("classical")).toBe(classicalRecapture);
    expect(() => recaptureDetectors.pick("fancy")).toThrow(
      /CAPTURE_RECAPTURE_DETECTOR is "fancy"; known: combined, learned, classical/,
    );
  });
});

/**
 * The learned detectors through the real endpoint: POST /v2/scanner with a ZIP. Their findings,
 * heatmaps and model identities reach the response; a corrupt image in the same ZIP does not break it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../helpers";
import { zip } from "../scanner/fixtures";
import { postScanner, scanCase } from "../scanner/http";
import { recaptureModel } from "../../src/scanner/ml/models";
import { fixturePng, sharedFile } from "./fixtures";

interface FileResult {
  suspicion_level: string;
  findings: { code: string; level: string; explanation: string }[];
  attachments: string[];
}

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createAccount({ name: "ML detectors E2E" }));
});

describe("POST /v2/scanner runs the learned detectors on images in the ZIP", () => {
  it("a photographed screen is Red with a heatmap, a real photo is not flagged, a corrupt JPEG is '-', modelVersions names the recapture model", async () => {
    const archive = zip({
      "screen.png": fixturePng("screen-tiles.png"),
      "street.png": fixturePng("real-crop.png"),
      "broken.jpg": sharedFile("exif-samples/jpg/corrupted.jpg"),
    });
    const res = await postScanner({
      apiKey,
      caseNumber: scanCase("ML"),
      zip: archive,
      headers: { accept: "application/json", language: "en" },
    });
    expect(res.status).toBe(200);
    const body = await res.json<{ Files: Record<string, FileResult>; modelVersions: Record<string, string> }>();

    const screen = body.Files["screen.png"];
    expect(screen.findings).toContainEqual(expect.objectContaining({ code: "RECAPTURE_SUSPECTED", level: "Red" }));
    expect(screen.suspicion_level).toBe("Red");
    expect(screen.attachments).toContain("heatmaps/screen.png.recapture.png");
    // The manipulation model is not in the default set (models/manipulation.md, "Decision").
    expect(screen.attachments).not.toContain("heatmaps/screen.png.manipulation.png");

    const street = body.Files["street.png"];
    expect(street.findings).toContainEqual(expect.objectContaining({ code: "RECAPTURE_NOT_FOUND", level: "Green" }));

    expect(body.Files["broken.jpg"].suspicion_level).toBe("-");

    expect(body.modelVersions["recapture-model"]).toContain(
      `recapture-cnn ${recaptureModel.identity.version} (sha256 ${recaptureModel.identity.sha256})`,
    );
    expect(body.modelVersions).not.toHaveProperty("manipulation-model");
  }, 120_000);
});

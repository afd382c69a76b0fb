import { describe, expect, it } from "vitest";
import elaModified from "../../../../shared/data/photos/opencv-doc/ela_modified.jpg?inline";
import leuven from "../../../../shared/data/photos/opencv-doc/leuvenA.jpg?inline";
import dune from "../../../../shared/data/photos/mate-backgrounds/Dune.jpg?inline";
import { runPhotoChecks, type CheckInput } from "../../../src/capture/checks";
import { readImageInfo } from "../../../src/capture/checks/image-bytes";
import { asCanvasJpeg, bytesOf, sha256Hex } from "../support";

async function input(
  bytes: Uint8Array,
  overrides: Partial<CheckInput["attestation"]> = {},
  earlier: CheckInput["earlier"] = [],
): Promise<CheckInput> {
  const info = readImageInfo(bytes)!;
  const sha256 = await sha256Hex(bytes);
  const now = Date.now();
  return {
    bytes,
    info,
    sha256,
    position: null,
    network: null,
    nonceIssuedAt: now - 5000,
    receivedAt: now,
    earlier,
    attestation: {
      cameraLabel: "camera2 0, facing back",
      trackWidth: info.width,
      trackHeight: info.height,
      capturedAt: now - 2000,
      declaredSha256: sha256,
      ...overrides,
    },
  };
}
const cameraCodes = async (i: CheckInput) => (await runPhotoChecks(i)).checks.camera.reasons.map((r) => r.code);

describe("camera integrity: a frame from the page's camera passes", () => {
  it("a bare canvas JPEG of the stream size with matching hash and time", async () => {
    const { jpeg } = asCanvasJpeg(bytesOf(leuven));
    const result = await runPhotoChecks(await input(jpeg));
    expect(result.checks.camera.status).toBe("pass");
    expect(result.verdict).toBe("ok");
  });
});

describe("camera integrity: injected, edited or virtual frames fail", () => {
  it("a file edited in GIMP carries EXIF naming the editor", async () => {
    const checks = (await runPhotoChecks(await input(bytesOf(elaModified)))).checks.camera;
    expect(checks.reasons.map((r) => r.code)).toContain("editing_traces");
    expect(checks.reasons.find((r) => r.code === "editing_traces")!.message).toMatch(/EXIF.*gimp/);
  });

  it("a real camera file (EXIF from an iPhone) did not come through the page", async () => {
    expect(await cameraCodes(await input(bytesOf(leuven)))).toContain("editing_traces");
  });

  it("a virtual camera label", async () => {
    const { jpeg } = asCanvasJpeg(bytesOf(dune));
    expect(await cameraCodes(await input(jpeg, { cameraLabel: "OBS Virtual Camera" }))).toEqual(["virtual_camera"]);
  });

  it("an image whose hash differs from the one attested at capture", async () => {
    const { jpeg } = asCanvasJpeg(bytesOf(dune));
    expect(await cameraCodes(await input(jpeg, { declaredSha256: "0".repeat(64) }))).toEqual(["hash_mismatch"]);
  });

  it("an image whose size is not the camera stream's, or implausible", async () => {
    const { jpeg } = asCanvasJpeg(bytesOf(dune), 1280);
    expect(await cameraCodes(await input(jpeg, { trackWidth: 640, trackHeight: 480 }))).toEqual([
      "resolution_mismatch",
    ]);
    const { jpeg: tiny } = asCanvasJpeg(bytesOf(dune), 160);
    expect(await cameraCodes(await input(tiny))).toContain("impossible_resolution");
  });

  it("the same file twice, and the same frame re-sent with different bytes", async () => {
    const { jpeg } = asCanvasJpeg(bytesOf(dune));
    const first = await runPhotoChecks(await input(jpeg));
    const earlier = [{ sha256: await sha256Hex(jpeg), frameDigest: first.frameDigest, position: null }];
    expect(await cameraCodes(await input(jpeg, {}, earlier))).toEqual(["duplicate_file"]);
    const padded = new Uint8Array([...jpeg, 0]); // trailing byte after EOI: new hash, same pixels
    expect(await cameraCodes(await input(padded, {}, earlier))).toEqual(["identical_frame"]);
  });

  it("a capture time before the shot was requested", async () => {
    const { jpeg } = asCanvasJpeg(bytesOf(dune));
    expect(await cameraCodes(await input(jpeg, { capturedAt: Date.now() - 3_600_000 }))).toEqual(["capture_time"]);
  });
});

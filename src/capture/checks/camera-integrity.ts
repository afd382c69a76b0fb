import type { ImageBytesInfo } from "./image-bytes";
import { fromReasons, type CheckReason, type CheckResult } from "./types";

/** Device and camera labels the page reported (attestation). */
export interface CameraAttestation {
  cameraLabel: string;
  /** The video track's settings when the frame was grabbed. */
  trackWidth: number;
  trackHeight: number;
  capturedAt: number;
  declaredSha256: string;
}

/** What the server knows independently of the page. */
export interface CameraFacts {
  info: ImageBytesInfo;
  sha256: string;
  /** SHA-256 of the 64×64 grey thumbnail: equal for identical frames, even re-encoded. */
  frameDigest: string;
  nonceIssuedAt: number;
  receivedAt: number;
  /** Earlier photos of the same session. */
  earlier: { sha256: string; frameDigest: string }[];
}

/** Virtual cameras and screen/stream injectors (lower case substrings of device labels). */
const VIRTUAL_CAMERAS = [
  "virtual",
  "obs-camera",
  "obs cam",
  "manycam",
  "xsplit",
  "snap camera",
  "vcam",
  "camtwist",
  "droidcam",
  "epoccam",
  "ndi webcam",
  "mmhmm",
  "splitcam",
  "webcamoid",
  "iriun",
  "v4l2loopback",
  "dummy",
];
const MAX_SIDE = 8192;
const MIN_SIDE = 240;
/** Clock skew tolerated between the phone and the server. */
const SKEW_MS = 30_000;

/** Camera integrity: did this frame come from a real camera through our page, unaltered? */
export function checkCameraIntegrity(att: CameraAttestation, facts: CameraFacts): CheckResult {
  const reasons: CheckReason[] = [];
  const label = att.cameraLabel.toLowerCase();
  const virtual = VIRTUAL_CAMERAS.find((name) => label.includes(name));
  if (virtual)
    reasons.push({
      code: "virtual_camera",
      message: `The camera reports itself as "${att.cameraLabel}", a virtual camera that can feed any picture.`,
    });
  if (att.declaredSha256 !== facts.sha256)
    reasons.push({
      code: "hash_mismatch",
      message:
        "The uploaded image is not the one the page photographed: its hash differs from the one recorded at capture.",
    });
  const { width, height } = facts.info;
  const matchesTrack =
    (width === att.trackWidth && height === att.trackHeight) ||
    (width === att.trackHeight && height === att.trackWidth);
  if (!matchesTrack)
    reasons.push({
      code: "resolution_mismatch",
      message: `The image is ${width}×${height} but the camera stream was ${att.trackWidth}×${att.trackHeight}.`,
    });
  if (Math.max(width, height) > MAX_SIDE || Math.min(width, height) < MIN_SIDE)
    reasons.push({
      code: "impossible_resolution",
      message: `A live camera frame of ${width}×${height} is not plausible.`,
    });
  // Browsers' canvas encoders embed their output colour profile (Chromium: ICC); nothing else.
  const foreign = facts.info.metadataSegments.filter((name) => name !== "ICC");
  if (foreign.length > 0) {
    reasons.push({
      code: "editing_traces",
      message: `The image carries ${foreign.join(", ")} data${facts.info.softwareHints.length ? ` naming ${facts.info.softwareHints.join(", ")}` : ""}; a frame taken by the page has none, so it was made or edited elsewhere.`,
    });
  }
  if (facts.earlier.some((p) => p.sha256 === facts.sha256))
    reasons.push({ code: "duplicate_file", message: "The same image file was already sent in this session." });
  else if (facts.earlier.some((p) => p.frameDigest === facts.frameDigest))
    reasons.push({
      code: "identical_frame",
      message: "This frame is pixel-identical to an earlier shot; a live camera never delivers the same frame twice.",
    });
  if (att.capturedAt < facts.nonceIssuedAt - SKEW_MS || att.capturedAt > facts.receivedAt + SKEW_MS) {
    reasons.push({
      code: "capture_time",
      message: "The recorded capture time lies outside the moment the shot was requested.",
    });
  }
  return fromReasons(reasons, {
    cameraLabel: att.cameraLabel,
    width,
    height,
    trackWidth: att.trackWidth,
    trackHeight: att.trackHeight,
    metadataSegments: facts.info.metadataSegments,
  });
}

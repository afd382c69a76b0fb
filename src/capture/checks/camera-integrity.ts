import type { ImageBytesInfo } from "./image-bytes";
import { fromReasons, type CheckReason, type CheckResult } from "./types";
import { checkReason } from "./reason-texts";

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
  if (virtual) reasons.push(checkReason("virtual_camera", { label: att.cameraLabel }));
  if (att.declaredSha256 !== facts.sha256) reasons.push(checkReason("hash_mismatch"));
  const { width, height } = facts.info;
  const matchesTrack =
    (width === att.trackWidth && height === att.trackHeight) ||
    (width === att.trackHeight && height === att.trackWidth);
  if (!matchesTrack)
    reasons.push(
      checkReason("resolution_mismatch", { width, height, trackWidth: att.trackWidth, trackHeight: att.trackHeight }),
    );
  if (Math.max(width, height) > MAX_SIDE || Math.min(width, height) < MIN_SIDE)
    reasons.push(checkReason("impossible_resolution", { width, height }));
  // Browsers' canvas encoders embed their output colour profile (Chromium: ICC); nothing else.
  const foreign = facts.info.metadataSegments.filter((name) => name !== "ICC");
  if (foreign.length > 0) {
    const software = facts.info.softwareHints.length ? ` (${facts.info.softwareHints.join(", ")})` : "";
    reasons.push(checkReason("editing_traces", { data: `${foreign.join(", ")}${software}` }));
  }
  if (facts.earlier.some((p) => p.sha256 === facts.sha256)) reasons.push(checkReason("duplicate_file"));
  else if (facts.earlier.some((p) => p.frameDigest === facts.frameDigest)) reasons.push(checkReason("identical_frame"));
  if (att.capturedAt < facts.nonceIssuedAt - SKEW_MS || att.capturedAt > facts.receivedAt + SKEW_MS) {
    reasons.push(checkReason("capture_time"));
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

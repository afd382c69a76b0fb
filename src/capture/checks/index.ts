import { sha256Hex } from "../../lib/crypto";
import { checkCameraIntegrity, type CameraAttestation } from "./camera-integrity";
import type { ImageBytesInfo } from "./image-bytes";
import { checkLocation, type NetworkLocation, type Position } from "./location";
import { decodePhoto } from "./pixels";
import { checkRecapture, type RecaptureDetector } from "./recapture-check";
import { checkSceneQuality } from "./scene-quality";
import type { CheckResult, RgbaImage } from "./types";
import { perceptualHashes, type PerceptualHashes } from "../../scanner/similarity/perceptual-hash";
import { smallPng } from "../../scanner/similarity/small-picture";

/** The four automatic checks of one photo, as stored in `capture_photos.checks`. */
export interface PhotoChecks {
  scene: CheckResult;
  camera: CheckResult;
  recapture: CheckResult;
  location: CheckResult;
}

/** What reverse search keeps of a photo (docs/reverse-search.md): its perceptual hashes and a small PNG. */
export interface PhotoSimilarity {
  hashes: PerceptualHashes;
  thumbnail: Uint8Array;
}

/** Per-photo summary: `suspicious` (screen, injected, virtual camera) outranks a failed scene. */
export type PhotoVerdict = "ok" | "scene_failed" | "scene_override" | "suspicious";

export interface CheckInput {
  bytes: Uint8Array;
  info: ImageBytesInfo;
  sha256: string;
  attestation: CameraAttestation;
  position: Position | null;
  network: NetworkLocation | null;
  nonceIssuedAt: number;
  receivedAt: number;
  earlier: { sha256: string; frameDigest: string; position: Position | null }[];
  /** The recapture detector (setting CAPTURE_RECAPTURE_DETECTOR); the combined one when absent. */
  recapture?: RecaptureDetector;
}

/** What the checks say about one photo. */
export interface PhotoCheckOutcome {
  checks: PhotoChecks;
  verdict: PhotoVerdict;
  frameDigest: string;
  similarity: PhotoSimilarity;
}

/** Runs every check on one photo. Throws only when the bytes cannot be decoded. */
export async function runPhotoChecks(input: CheckInput): Promise<PhotoCheckOutcome> {
  const decoded = decodePhoto(input.bytes);
  const frameDigest = await sha256Hex(greyThumbnail(decoded.overview));
  const checks: PhotoChecks = {
    scene: checkSceneQuality(decoded.overview),
    camera: checkCameraIntegrity(input.attestation, {
      info: input.info,
      sha256: input.sha256,
      frameDigest,
      nonceIssuedAt: input.nonceIssuedAt,
      receivedAt: input.receivedAt,
      earlier: input.earlier,
    }),
    recapture: await checkRecapture(decoded.detail, input.recapture),
    location: checkLocation(
      input.position,
      input.network,
      input.earlier.flatMap((p) => (p.position ? [p.position] : [])),
    ),
  };
  const { data, width, height } = decoded.overview;
  const similarity = {
    hashes: perceptualHashes(data, width, height),
    thumbnail: smallPng({ rgba: data, width, height }),
  };
  return { checks, verdict: verdictOf(checks), frameDigest, similarity };
}

export function verdictOf(checks: PhotoChecks): PhotoVerdict {
  if (checks.recapture.status === "fail" || checks.camera.status === "fail") return "suspicious";
  if (checks.scene.status === "fail") return "scene_failed";
  return "ok";
}

/** 64×64 grey box-average of the overview: a fingerprint of the frame's content. */
function greyThumbnail(image: RgbaImage): Uint8Array {
  const out = new Uint8Array(64 * 64);
  for (let ty = 0; ty < 64; ty++) {
    for (let tx = 0; tx < 64; tx++) {
      const x0 = Math.floor((tx * image.width) / 64),
        x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * image.width) / 64));
      const y0 = Math.floor((ty * image.height) / 64),
        y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * image.height) / 64));
      let sum = 0,
        count = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const p = (y * image.width + x) * 4;
          sum += image.data[p] * 0.299 + image.data[p + 1] * 0.587 + image.data[p + 2] * 0.114;
          count++;
        }
      }
      out[ty * 64 + tx] = Math.round(sum / count);
    }
  }
  return out;
}

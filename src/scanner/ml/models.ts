/**
 * The committed models (models/*.onnx) and their identity for `modelVersions`. models/manifest.json is
 * written by the training export; test/ml/manifest.test.ts checks its sha256 against the embedded bytes.
 */
import manifest from "../../../models/manifest.json";
import manipulationBytes from "../../../models/manipulation.onnx";
import recaptureBytes from "../../../models/recapture.onnx";

export interface ModelIdentity {
  name: string;
  version: string;
  /** First 12 hex digits of the .onnx file's SHA-256. */
  sha256: string;
}

export interface ModelFile {
  identity: ModelIdentity;
  bytes: ArrayBuffer;
  /** Full SHA-256 of the file as recorded at export. */
  fullSha256: string;
}

function model(entry: { name: string; version: string; sha256: string }, bytes: ArrayBuffer): ModelFile {
  return {
    identity: { name: entry.name, version: entry.version, sha256: entry.sha256.slice(0, 12) },
    bytes,
    fullSha256: entry.sha256,
  };
}

export const recaptureModel = model(manifest.recapture, recaptureBytes);
export const manipulationModel = model(manifest.manipulation, manipulationBytes);

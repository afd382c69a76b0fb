import type { CaseLock } from "./capture/case-lock";
import type { AnalysisGate } from "./scanner/analysis-gate";
import type { JobMessage } from "./queue/messages";

/** Bindings, vars and secrets of the Worker (wrangler.toml, .dev.vars). */
export interface Env {
  DB: D1Database;
  BUCKET: R2Bucket;
  CASE_LOCK: DurableObjectNamespace<CaseLock>;
  ANALYSIS_GATE: DurableObjectNamespace<AnalysisGate>;
  JOBS: Queue<JobMessage>;

  ANALYSIS_TIMEOUT_S: string;
  UPLOAD_URL_TTL_S: string;
  DOWNLOAD_URL_TTL_S: string;
  RETENTION_S: string;
  DIRECT_UPLOAD_MAX_BYTES: string;
  PRESIGNED_MAX_BYTES: string;
  INLINE_PAYLOAD_CAP_BYTES: string;
  PUBLIC_BASE_URL: string;

  /** Admin API bearer token; the admin API is disabled when unset. */
  ADMIN_TOKEN?: string;
  /** HMAC key for signed upload/download links. */
  SIGNING_SECRET?: string;
  /**
   * "off": the capture page ignores `request.cf` locations. For local dev and tests, where
   * wrangler supplies a placeholder `cf` (Austin, TX) instead of the real network location.
   */
  CAPTURE_NETWORK_LOCATION?: string;
}

/** Numeric limits from DESIGN §8, read once per request from the vars. */
export function limits(env: Env) {
  return {
    analysisTimeoutS: Number(env.ANALYSIS_TIMEOUT_S),
    uploadUrlTtlS: Number(env.UPLOAD_URL_TTL_S),
    downloadUrlTtlS: Number(env.DOWNLOAD_URL_TTL_S),
    retentionS: Number(env.RETENTION_S),
    directUploadMaxBytes: Number(env.DIRECT_UPLOAD_MAX_BYTES),
    presignedMaxBytes: Number(env.PRESIGNED_MAX_BYTES),
    inlinePayloadCapBytes: Number(env.INLINE_PAYLOAD_CAP_BYTES),
  };
}

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
   * Optional R2 S3 API credentials (secrets; DESIGN §11, docs/scanner-api.md). When all are unset,
   * upload URLs point at the Worker's own signed PUT; when complete, they are R2 S3 presigned PUTs
   * into R2_S3_BUCKET, which must be the bucket bound as BUCKET. Half-set: the Worker URL is used
   * and the problem is logged. R2_S3_ACCOUNT_ID gives `https://<id>.r2.cloudflarestorage.com`;
   * R2_S3_ENDPOINT (an https origin, e.g. a jurisdiction endpoint) is the alternative to it.
   */
  R2_S3_ACCOUNT_ID?: string;
  R2_S3_ENDPOINT?: string;
  R2_S3_ACCESS_KEY_ID?: string;
  R2_S3_SECRET_ACCESS_KEY?: string;
  R2_S3_BUCKET?: string;
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

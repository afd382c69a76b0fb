import { z } from "zod";
import type { JobMessage } from "./queue/messages";

/**
 * Bindings and vars of the Worker. `Cloudflare.Env` is generated from wrangler.toml by `wrangler types`
 * (worker-configuration.d.ts: `npm run types`; `npm run typecheck` fails when it is stale). Added here:
 * the queue's message type, and the secrets and optional settings that wrangler.toml does not name.
 */
export type Env = Omit<Cloudflare.Env, "JOBS"> & { JOBS: Queue<JobMessage> } & OptionalSettings;

/** Secrets (`wrangler secret put`, .dev.vars) and settings that are off or defaulted when unset. */
export interface OptionalSettings {
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
  /** The capture page's recapture detector (src/capture/checks/recapture-check.ts): combined (default), learned, classical. */
  CAPTURE_RECAPTURE_DETECTOR?: string;
  /**
   * Result push targets (src/capture/push/target.ts): `public` (https to public addresses only),
   * `any` (also http, loopback and private addresses: local receivers). Unset: `any` when
   * PUBLIC_BASE_URL is http://127.0.0.1 or localhost, else `public`.
   */
  PUSH_TARGETS?: string;
  /** Sender address of those e-mails (a domain set up for Cloudflare Email); no e-mail is sent without it. */
  MAIL_FROM?: string;
  /** The mail provider: `send-email` or `none`; unset: `send-email` when MAILER and MAIL_FROM are set. */
  MAIL_PROVIDER?: string;
  /** `on`: GET /dev/outbox lists every outbox row with its rendered e-mail (local development only). */
  DEV_OUTBOX?: string;
  /**
   * Optional board login through Cloudflare Access (docs/board.md): the team domain
   * (`<team>.cloudflareaccess.com`) and the application's AUD tag; both set = on.
   */
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
}

const seconds = z.coerce.number().int().positive();
const bytes = z.coerce.number().int().positive();

/** The numeric settings of DESIGN §8 and §19 (wrangler `[vars]`), each required and checked. */
const LimitsSchema = z.object({
  ANALYSIS_TIMEOUT_S: seconds,
  FILE_TIMEOUT_S: seconds,
  ANALYSIS_UNIT_CONCURRENCY: z.coerce.number().int().min(1).max(50),
  UPLOAD_URL_TTL_S: seconds,
  DOWNLOAD_URL_TTL_S: seconds,
  RETENTION_S: seconds,
  DIRECT_UPLOAD_MAX_BYTES: bytes,
  PRESIGNED_MAX_BYTES: bytes,
  INLINE_PAYLOAD_CAP_BYTES: bytes,
  BOARD_SESSION_IDLE_S: seconds.default(1800),
  BOARD_SESSION_MAX_S: seconds.default(43200),
  BOARD_LOGIN_LOCK_S: seconds.default(900),
});

/** A setting that is missing or not a number: the deployment is broken, and the message names the variable. */
export class SettingsError extends Error {}

/**
 * The numeric limits, parsed from the vars with zod. A missing or misspelt var (wrangler `[env.*]`
 * sections do not inherit `[vars]`) fails loudly here instead of becoming NaN, which would silently
 * disable a body limit or time every scan out at once.
 */
export function limits(env: Env) {
  const parsed = LimitsSchema.safeParse(env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => `${issue.path.join(".")} (${issue.message})`).join(", ");
    throw new SettingsError(`invalid settings: ${names}; see README "Configuration"`);
  }
  const v = parsed.data;
  return {
    analysisTimeoutS: v.ANALYSIS_TIMEOUT_S,
    fileTimeoutS: v.FILE_TIMEOUT_S,
    analysisUnitConcurrency: v.ANALYSIS_UNIT_CONCURRENCY,
    uploadUrlTtlS: v.UPLOAD_URL_TTL_S,
    downloadUrlTtlS: v.DOWNLOAD_URL_TTL_S,
    retentionS: v.RETENTION_S,
    directUploadMaxBytes: v.DIRECT_UPLOAD_MAX_BYTES,
    presignedMaxBytes: v.PRESIGNED_MAX_BYTES,
    inlinePayloadCapBytes: v.INLINE_PAYLOAD_CAP_BYTES,
    boardSessionIdleS: v.BOARD_SESSION_IDLE_S,
    boardSessionMaxS: v.BOARD_SESSION_MAX_S,
    boardLoginLockS: v.BOARD_LOGIN_LOCK_S,
  };
}

/** SMS to the policyholder (src/capture/sms/, docs/sms.md): secrets; without the credentials no SMS is offered. */
export interface OptionalSettings {
  /** The SMS provider: `twilio` or `none`; unset: `twilio` when SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set. */
  SMS_PROVIDER?: string;
  /** Base URL of the Messages API (default https://api.twilio.com). */
  SMS_API_BASE_URL?: string;
  SMS_ACCOUNT_SID?: string;
  SMS_AUTH_TOKEN?: string;
  /** Sender: an E.164 number or alphanumeric sender id, or a Messaging Service SID (MG…). */
  SMS_FROM?: string;
}

import { AwsV4Signer } from "aws4fetch";
import { limits, type Env } from "../../env";

/** R2 S3 API credentials for presigned upload URLs (DESIGN §11, optional). */
export interface R2S3Config {
  /** `https://<account>.r2.cloudflarestorage.com` or the configured endpoint, without a path. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Whether upload URLs are R2 S3 presigned PUTs: off (all unset), on, or half-configured. */
export type R2S3Setting =
  | { kind: "off" }
  | { kind: "on"; config: R2S3Config }
  | { kind: "misconfigured"; problems: string[] };

const VARIABLES = [
  "R2_S3_ACCOUNT_ID",
  "R2_S3_ENDPOINT",
  "R2_S3_ACCESS_KEY_ID",
  "R2_S3_SECRET_ACCESS_KEY",
  "R2_S3_BUCKET",
] as const;
const ACCOUNT_ID = /^[0-9a-f]{32}$/i;
// R2 bucket names: 3–63 lowercase letters, digits and hyphens, not starting or ending with a hyphen.
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
/** SigV4 query signing allows at most 7 days. */
const MAX_EXPIRES_S = 604_800;

/** Reads the R2_S3_* variables; an empty string counts as unset. Never echoes a secret. */
export function r2S3Setting(env: Env): R2S3Setting {
  const value = (name: (typeof VARIABLES)[number]) => env[name]?.trim() || undefined;
  if (VARIABLES.every((name) => value(name) === undefined)) return { kind: "off" };
  const problems: string[] = [];
  for (const name of ["R2_S3_ACCESS_KEY_ID", "R2_S3_SECRET_ACCESS_KEY", "R2_S3_BUCKET"] as const)
    if (!value(name)) problems.push(`${name} is not set`);
  const bucket = value("R2_S3_BUCKET");
  if (bucket && !BUCKET_NAME.test(bucket)) problems.push("R2_S3_BUCKET is not a valid R2 bucket name");
  const ttl = limits(env).uploadUrlTtlS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_EXPIRES_S)
    problems.push(`UPLOAD_URL_TTL_S must be 1..${MAX_EXPIRES_S} seconds for a presigned URL`);
  const endpoint = endpointFrom(value("R2_S3_ACCOUNT_ID"), value("R2_S3_ENDPOINT"), problems);
  if (problems.length > 0 || !endpoint) return { kind: "misconfigured", problems };
  return {
    kind: "on",
    config: {
      endpoint,
      bucket: bucket!,
      accessKeyId: value("R2_S3_ACCESS_KEY_ID")!,
      secretAccessKey: value("R2_S3_SECRET_ACCESS_KEY")!,
    },
  };
}

function endpointFrom(accountId: string | undefined, endpoint: string | undefined, problems: string[]): string | null {
  if (accountId && endpoint) problems.push("set either R2_S3_ACCOUNT_ID or R2_S3_ENDPOINT, not both");
  else if (accountId) {
    if (ACCOUNT_ID.test(accountId)) return `https://${accountId.toLowerCase()}.r2.cloudflarestorage.com`;
    problems.push("R2_S3_ACCOUNT_ID is not a 32-character hexadecimal account id");
  } else if (endpoint) {
    const url = parseUrl(endpoint);
    if (url && url.protocol === "https:" && url.pathname === "/" && !url.search && !url.hash && !url.username)
      return url.origin;
    problems.push("R2_S3_ENDPOINT is not an https origin (https://host, no path or query)");
  } else problems.push("R2_S3_ACCOUNT_ID or R2_S3_ENDPOINT is not set");
  return null;
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * An R2 S3 presigned PUT (path style, region `auto`) for `objectKey` in the configured bucket,
 * valid `ttlSeconds` from `now`. Content-Type is signed, so R2 accepts only `application/zip`.
 */
export async function presignR2Put(
  config: R2S3Config,
  objectKey: string,
  ttlSeconds: number,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_EXPIRES_S)
    throw new RangeError(`X-Amz-Expires must be 1..${MAX_EXPIRES_S} s`);
  const signedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const url = new URL(`${config.endpoint}/${config.bucket}/${objectKey}`);
  url.searchParams.set("X-Amz-Expires", String(ttlSeconds));
  const signer = new AwsV4Signer({
    method: "PUT",
    url: url.toString(),
    headers: { "content-type": "application/zip" },
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: "s3",
    region: "auto",
    datetime: amzDate(signedAt),
    signQuery: true,
    // aws4fetch leaves Content-Type unsigned by default; signing it makes R2 refuse other types.
    allHeaders: true,
  });
  const signed = await signer.sign();
  return { url: signed.url.toString(), expiresAt: new Date(signedAt.getTime() + ttlSeconds * 1000) };
}

/** SigV4's basic ISO 8601 timestamp, e.g. 20260501T120000Z. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[:-]|\.\d{3}/g, "");
}

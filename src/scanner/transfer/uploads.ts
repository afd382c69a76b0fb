import { getDb } from "../../db/client";
import { limits, type Env } from "../../env";
import { clock } from "../../lib/clock";
import { newToken } from "../../lib/ids";
import { ApiError, invalid, notFound } from "../../lib/problem";
import { signingSecret, signUrl, verifySignedUrl } from "../../lib/signed-url";
import {
  claimUploadForDigest,
  consumeUploadRow,
  findAccountUpload,
  findUploadBySignedKey,
  insertUpload,
  markUploadReceived,
} from "../repository";
import { presignR2Put, r2S3Setting } from "./r2-s3";
import { bodyCutShort, watchBody } from "./upload-body";

export const uploadObjectKey = (storageKey: string) => `uploads/${storageKey}`;
export const uploadPath = (storageKey: string) => `/v2/uploads/${storageKey}`;
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Spec 4.3 / DESIGN §11: a signed PUT URL bound to the account and caseNumber. */
export async function createUpload(env: Env, accountId: string, caseNumber: string) {
  const storageKey = newToken(16);
  const { url, expiresAt } = await signedUploadUrl(env, storageKey, limits(env).uploadUrlTtlS);
  await insertUpload(getDb(env.DB), { storageKey, accountId, caseNumber, expiresAt, createdAt: clock.now() });
  return { upload_url: url, storage_key: storageKey };
}

/**
 * An R2 S3 presigned PUT straight into the bucket when R2_S3_* is configured, otherwise the
 * Worker's own signed PUT. A half-set configuration must not break uploads: it is logged and
 * the Worker URL, which enforces more (size while streaming, content type, single use), is used.
 */
async function signedUploadUrl(
  env: Env,
  storageKey: string,
  ttlSeconds: number,
): Promise<{ url: string; expiresAt: Date }> {
  const s3 = r2S3Setting(env);
  if (s3.kind === "on") return presignR2Put(s3.config, uploadObjectKey(storageKey), ttlSeconds, clock.now());
  if (s3.kind === "misconfigured")
    console.error(`R2 S3 presigning is misconfigured, using Worker upload URLs: ${s3.problems.join("; ")}`);
  return signUrl({
    baseUrl: env.PUBLIC_BASE_URL,
    path: uploadPath(storageKey),
    method: "PUT",
    ttlSeconds,
    secret: signingSecret(env),
  });
}

/**
 * The PUT of a signed upload URL: the body is streamed into R2 (never buffered), at most
 * PRESIGNED_MAX_BYTES, declared as application/zip, once per storage_key.
 */
export async function receiveUpload(
  env: Env,
  url: URL,
  storageKey: string,
  contentType: string | undefined,
  contentLength: string | undefined,
  body: ReadableStream<Uint8Array> | null,
) {
  const check = await verifySignedUrl(url, "PUT", signingSecret(env));
  if (check === "invalid") throw new ApiError(403, "invalid-signature", "The upload link is not valid.");
  if (check === "expired")
    throw new ApiError(
      410,
      "upload-url-expired",
      "The upload link has expired; request a new one with POST /v2/getUploadUrl.",
    );
  const db = getDb(env.DB);
  const row = await findUploadBySignedKey(db, storageKey);
  if (!row) throw notFound("The upload");
  if (row.uploadedAt) throw new ApiError(409, "already-uploaded", "A file was already uploaded with this link.");
  if (!/^application\/(zip|x-zip-compressed)\s*(;|$)/i.test(contentType ?? ""))
    throw new ApiError(415, "unsupported-media-type", "Upload the archive with Content-Type: application/zip.");
  const size = Number(contentLength);
  if (!contentLength || !Number.isInteger(size) || size <= 0 || !body)
    throw new ApiError(411, "length-required", "Send the archive with a Content-Length header.");
  const max = limits(env).presignedMaxBytes;
  if (size > max) throw new ApiError(413, "payload-too-large", `The archive may be at most ${max} bytes.`);
  const fixed = new FixedLengthStream(size);
  // Issue 19: a body shorter than Content-Length rejected the pipe and the put, and answered a 500.
  const { stream, watch } = watchBody(body);
  const [, object] = await Promise.all([
    stream.pipeTo(fixed.writable),
    env.BUCKET.put(uploadObjectKey(storageKey), fixed.readable, { httpMetadata: { contentType: "application/zip" } }),
  ]).catch((err: unknown) => {
    if (bodyCutShort(watch, size))
      throw invalid(
        [
          {
            field: "body",
            message: `is shorter than its Content-Length (${size} bytes declared, ${watch.received} received); upload the archive again`,
          },
        ],
        "The upload ended before Content-Length bytes arrived.",
      );
    throw err;
  });
  await markUploadReceived(db, storageKey, { uploadedAt: clock.now(), size: object?.size ?? size });
}

/**
 * The uploaded archive for an analysis request; another account's key is simply not found.
 * The stored object is looked at, not only the row: an R2 S3 presigned PUT bypasses our PUT
 * route, so its arrival is recorded here and its size (which R2 cannot limit) checked here.
 */
export async function resolveUpload(env: Env, accountId: string, storageKey: string, caseNumber: string) {
  if (!STORAGE_KEY_PATTERN.test(storageKey))
    throw invalid([{ field: "storage_key", message: "is not a storage_key issued by POST /v2/getUploadUrl" }]);
  const db = getDb(env.DB);
  const row = await findAccountUpload(db, accountId, storageKey);
  if (!row) throw notFound("The storage_key");
  if (row.consumedAt) throw uploadConsumed();
  const objectKey = uploadObjectKey(storageKey);
  const stored = await env.BUCKET.head(objectKey);
  if (!row.uploadedAt && !stored)
    throw invalid([
      { field: "storage_key", message: "nothing has been uploaded to this storage_key's upload_url yet" },
    ]);
  if (row.caseNumber !== caseNumber)
    throw invalid([{ field: "caseNumber", message: "differs from the caseNumber the storage_key was issued for" }]);
  if (!stored) throw new ApiError(410, "upload-consumed", "The uploaded archive is no longer stored.");
  await refuseOversized(env, objectKey, stored.size);
  if (!row.uploadedAt) await markUploadReceived(db, storageKey, { uploadedAt: stored.uploaded, size: stored.size });
  return { objectKey, size: stored.size };
}

/** An R2 S3 upload can be any size: one over PRESIGNED_MAX_BYTES is deleted (it can never be analysed) and refused. */
async function refuseOversized(env: Env, objectKey: string, size: number): Promise<void> {
  const max = limits(env).presignedMaxBytes;
  if (size <= max) return;
  await env.BUCKET.delete(objectKey);
  throw new ApiError(
    413,
    "payload-too-large",
    `The uploaded archive has ${size} bytes; at most ${max} bytes are accepted. It was deleted: upload a smaller archive to the upload_url while it is valid, or request a new one.`,
  );
}

/**
 * Binds the upload to the request digest that first uses it, atomically: concurrent scans of one
 * storage_key with different headers cannot all run; an identical repeat (after a 504) may.
 */
export async function claimUpload(env: Env, storageKey: string, digest: string): Promise<void> {
  if (!(await claimUploadForDigest(getDb(env.DB), storageKey, digest))) {
    throw new ApiError(
      409,
      "upload-in-use",
      "This storage_key is being analysed for another request (other headers). A storage_key is used once; repeat that request, or upload again for a different one.",
    );
  }
}

/** After delivery: the upload is spent and its archive deleted (spec 4.3). False when another delivery spent it first. */
export async function consumeUpload(env: Env, storageKey: string): Promise<boolean> {
  if (!(await consumeUploadRow(getDb(env.DB), storageKey, clock.now()))) return false;
  await env.BUCKET.delete(uploadObjectKey(storageKey));
  return true;
}

export const uploadConsumed = () =>
  new ApiError(410, "upload-consumed", "This upload was already processed and deleted; a storage_key is used once.");

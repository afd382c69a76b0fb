import { and, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { uploads } from "../db/schema";
import { limits, type Env } from "../env";
import { clock } from "../lib/clock";
import { newToken } from "../lib/ids";
import { ApiError, invalid, notFound } from "../lib/problem";
import { signUrl, verifySignedUrl } from "../lib/signed-url";

export const uploadObjectKey = (storageKey: string) => `uploads/${storageKey}`;
export const uploadPath = (storageKey: string) => `/v2/uploads/${storageKey}`;
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export function signingSecret(env: Env): string {
  if (!env.SIGNING_SECRET) throw new ApiError(503, "signing-unavailable", "Signed links are not configured (SIGNING_SECRET).");
  return env.SIGNING_SECRET;
}

/** Spec 4.3 / DESIGN §11: a signed PUT URL bound to the account and caseNumber. */
export async function createUpload(env: Env, accountId: string, caseNumber: string) {
  const storageKey = newToken(16);
  const ttl = limits(env).uploadUrlTtlS;
  const { url, expiresAt } = await signUrl({ baseUrl: env.PUBLIC_BASE_URL, path: uploadPath(storageKey), method: "PUT", ttlSeconds: ttl, secret: signingSecret(env) });
  await getDb(env.DB).insert(uploads).values({ storageKey, accountId, caseNumber, expiresAt, createdAt: clock.now() });
  return { upload_url: url, storage_key: storageKey };
}

/**
 * The PUT of a signed upload URL: the body is streamed into R2 (never buffered), at most
 * PRESIGNED_MAX_BYTES, declared as application/zip, once per storage_key.
 */
export async function receiveUpload(env: Env, url: URL, storageKey: string, contentType: string | undefined, contentLength: string | undefined, body: ReadableStream<Uint8Array> | null) {
  const check = await verifySignedUrl(url, "PUT", signingSecret(env));
  if (check === "invalid") throw new ApiError(403, "invalid-signature", "The upload link is not valid.");
  if (check === "expired") throw new ApiError(410, "upload-url-expired", "The upload link has expired; request a new one with POST /v2/getUploadUrl.");
  const db = getDb(env.DB);
  const row = await db.query.uploads.findFirst({ where: eq(uploads.storageKey, storageKey) });
  if (!row) throw notFound("The upload");
  if (row.uploadedAt) throw new ApiError(409, "already-uploaded", "A file was already uploaded with this link.");
  if (!/^application\/(zip|x-zip-compressed)\s*(;|$)/i.test(contentType ?? "")) throw new ApiError(415, "unsupported-media-type", "Upload the archive with Content-Type: application/zip.");
  const size = Number(contentLength);
  if (!contentLength || !Number.isInteger(size) || size <= 0 || !body) throw new ApiError(411, "length-required", "Send the archive with a Content-Length header.");
  const max = limits(env).presignedMaxBytes;
  if (size > max) throw new ApiError(413, "payload-too-large", `The archive may be at most ${max} bytes.`);
  const fixed = new FixedLengthStream(size);
  const [, object] = await Promise.all([body.pipeTo(fixed.writable), env.BUCKET.put(uploadObjectKey(storageKey), fixed.readable, { httpMetadata: { contentType: "application/zip" } })]);
  await db.update(uploads).set({ uploadedAt: clock.now(), size: object?.size ?? size }).where(eq(uploads.storageKey, storageKey));
}

/** The uploaded archive for an analysis request; another account's key is simply not found. */
export async function resolveUpload(env: Env, accountId: string, storageKey: string, caseNumber: string) {
  if (!STORAGE_KEY_PATTERN.test(storageKey)) throw invalid([{ field: "storage_key", message: "is not a storage_key issued by POST /v2/getUploadUrl" }]);
  const row = await getDb(env.DB).query.uploads.findFirst({ where: and(eq(uploads.storageKey, storageKey), eq(uploads.accountId, accountId)) });
  if (!row) throw notFound("The storage_key");
  if (row.consumedAt) throw new ApiError(410, "upload-consumed", "This upload was already processed and deleted; a storage_key is used once.");
  if (!row.uploadedAt) throw invalid([{ field: "storage_key", message: "nothing has been uploaded to this storage_key's upload_url yet" }]);
  if (row.caseNumber !== caseNumber) throw invalid([{ field: "caseNumber", message: "differs from the caseNumber the storage_key was issued for" }]);
  return { objectKey: uploadObjectKey(storageKey), size: row.size ?? 0 };
}

/** After delivery: the upload is spent and its archive deleted (spec 4.3). */
export async function consumeUpload(env: Env, storageKey: string): Promise<void> {
  await getDb(env.DB).update(uploads).set({ consumedAt: clock.now() }).where(eq(uploads.storageKey, storageKey));
  await env.BUCKET.delete(uploadObjectKey(storageKey));
}

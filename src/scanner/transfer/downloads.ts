import { getDb } from "../../db/client";
import { limits, type Env } from "../../env";
import { clock } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { ApiError, notFound } from "../../lib/problem";
import { signingSecret, signUrl, verifySignedUrl } from "../../lib/signed-url";
import { findDownloadBySignedId, insertDownload } from "../repository";

const downloadPath = (id: string) => `/v2/downloads/${id}/attachments.zip`;

/** Stores attachments.zip and returns its signed GET link (DESIGN §12: 12 h, deleted after 24 h). */
export async function publishDownload(
  env: Env,
  accountId: string,
  analysisId: string,
  zip: Uint8Array,
): Promise<string> {
  const id = newId();
  const r2Key = `downloads/${id}/attachments.zip`;
  await env.BUCKET.put(r2Key, zip, { httpMetadata: { contentType: "application/zip" } });
  await insertDownload(getDb(env.DB), { id, accountId, analysisId, r2Key, createdAt: clock.now() });
  const { url } = await signUrl({
    baseUrl: env.PUBLIC_BASE_URL,
    path: downloadPath(id),
    method: "GET",
    ttlSeconds: limits(env).downloadUrlTtlS,
    secret: signingSecret(env),
  });
  return url;
}

/** The GET of a signed download link; no API key (the link is the secret). */
export async function openDownload(env: Env, url: URL, id: string): Promise<Response> {
  const check = await verifySignedUrl(url, "GET", signingSecret(env));
  if (check === "invalid") throw new ApiError(403, "invalid-signature", "The download link is not valid.");
  if (check === "expired") throw new ApiError(410, "download-url-expired", "The download link has expired.");
  const row = await findDownloadBySignedId(getDb(env.DB), id);
  if (!row) throw notFound("The download");
  const object = await env.BUCKET.get(row.r2Key);
  if (!object) throw new ApiError(410, "download-deleted", "The attachments were deleted after the retention period.");
  return new Response(object.body, {
    headers: {
      "content-type": "application/zip",
      "content-disposition": 'attachment; filename="attachments.zip"',
      "content-length": String(object.size),
    },
  });
}

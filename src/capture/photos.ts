import { getDb, type Db } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { newId, newToken } from "../lib/ids";
import { ApiError } from "../lib/problem";
import { readImageInfo, sniffImageType } from "./checks/image-bytes";
import type { PhotoCheckOutcome, PhotoChecks, PhotoVerdict } from "./checks";
import type { NetworkLocation, Position } from "./checks/location";
import type { PageSession } from "./page-session";
import { maxChunks, PHOTO_LIMITS } from "./photo-limits";
import { findScenes } from "./repository/cases";
import {
  consumeNonce,
  countSessionNonces,
  findSessionNonce,
  findSessionPhotoByNonce,
  findSessionPhotos,
  insertNonce,
  insertPhoto,
  type PhotoRow,
} from "./repository/photos";
import { storeHashes } from "../scanner/similarity/store";
import { lazily } from "../lib/isolate-once";

/** The photo checks (decoders, the recapture model) load with an isolate's first photo, not with every page. */
const photoChecks = lazily(async () => {
  const [checks, recapture] = await Promise.all([import("./checks"), import("./checks/recapture-check")]);
  return { runPhotoChecks: checks.runPhotoChecks, recaptureDetectors: recapture.recaptureDetectors };
});

/** What the page attests about one shot (sent with the last step of the upload). */
export interface ShotAttestation {
  sha256: string;
  chunks: number;
  scenePosition: number | null;
  capturedAt: number;
  cameraLabel: string;
  deviceLabel: string;
  trackWidth: number;
  trackHeight: number;
  position: Position | null;
}

/** What the page is told about a stored photo: only the scene check, never the fraud checks. */
export interface PhotoReceipt {
  photoId: string;
  scenePosition: number | null;
  sceneCheck: { passed: boolean; reasons: string[] };
  overridden: boolean;
}

/** Issues the one-time nonce for the next shot, within the session's rate limit. */
export async function issueNonce(env: Env, { session }: PageSession): Promise<{ nonce: string; issuedAt: number }> {
  const db = getDb(env.DB);
  const now = clock.nowMs();
  const issued = await countSessionNonces(db, session.id, new Date(now - PHOTO_LIMITS.windowMs));
  if (issued.recent >= PHOTO_LIMITS.noncesPerWindow || issued.total >= PHOTO_LIMITS.noncesPerSession) {
    const retry = issued.total >= PHOTO_LIMITS.noncesPerSession ? 86_400 : Math.ceil(PHOTO_LIMITS.windowMs / 1000);
    throw new ApiError(429, "too-many-shots", "Too many photos in a short time. Please wait a few minutes.", {
      headers: { "retry-after": String(retry) },
    });
  }
  const nonce = newToken(16);
  await insertNonce(db, { nonce, sessionId: session.id, issuedAt: new Date(now) });
  return { nonce, issuedAt: now };
}

/** Stores one chunk of a shot's upload (idempotent: a resent chunk overwrites itself). */
export async function storeChunk(
  env: Env,
  ps: PageSession,
  nonce: string,
  index: number,
  body: ArrayBuffer,
): Promise<void> {
  await usableNonce(getDb(env.DB), ps, nonce);
  if (!Number.isInteger(index) || index < 0 || index >= maxChunks())
    throw new ApiError(
      413,
      "too-large",
      `A photo may have at most ${maxChunks()} chunks (${PHOTO_LIMITS.maxBytes} bytes).`,
    );
  if (body.byteLength === 0) throw new ApiError(400, "empty-chunk", "The chunk is empty.");
  if (body.byteLength > PHOTO_LIMITS.chunkBytes)
    throw new ApiError(413, "chunk-too-large", `A chunk may be at most ${PHOTO_LIMITS.chunkBytes} bytes.`);
  const key = chunkKey(ps, nonce, index);
  // A retried chunk that already arrived whole is not written again.
  const existing = await env.BUCKET.head(key);
  if (existing && existing.size === body.byteLength) return;
  await env.BUCKET.put(key, body);
}

/** The chunk indexes already received, so an interrupted upload resumes where it stopped. */
export async function receivedChunks(env: Env, ps: PageSession, nonce: string): Promise<number[]> {
  const prefix = chunkPrefix(ps, nonce);
  const listed = await env.BUCKET.list({ prefix, limit: maxChunks() + 1 });
  return listed.objects.map((o) => Number(o.key.slice(prefix.length))).sort((a, b) => a - b);
}

/**
 * Assembles, validates, checks and stores a shot. A repeat of a completed upload (same nonce,
 * same hash: the answer got lost on the way) returns the stored receipt; anything else with a
 * used, expired or foreign nonce is refused and nothing stored is touched.
 */
export async function completeShot(
  env: Env,
  ps: PageSession,
  nonce: string,
  att: ShotAttestation,
  network: NetworkLocation | null,
): Promise<PhotoReceipt> {
  const db = getDb(env.DB);
  const row = await findSessionNonce(db, ps.session.id, nonce);
  if (row?.usedAt) {
    const stored = await findSessionPhotoByNonce(db, ps.session.id, nonce);
    if (stored && stored.sha256 === att.sha256) return receiptOf(stored);
  }
  const issued = await usableNonce(db, ps, nonce);
  await validateScene(db, ps, att.scenePosition);
  const bytes = await assemble(env, ps, nonce, att.chunks);
  const type = sniffImageType(bytes);
  if (!type) throw new ApiError(415, "not-an-image", "The upload is not a JPEG or PNG image.");
  const info = readImageInfo(bytes);
  if (!info) throw new ApiError(422, "unreadable-image", "The image header cannot be read.");
  if (info.width * info.height > PHOTO_LIMITS.maxPixels)
    throw new ApiError(413, "too-many-pixels", `The image has more than ${PHOTO_LIMITS.maxPixels} pixels.`);
  const sha256 = await sha256Hex(bytes);
  const earlier = await findSessionPhotos(db, ps.session.id);
  const receivedAt = clock.nowMs();
  const { runPhotoChecks, recaptureDetectors } = await photoChecks();
  let result: PhotoCheckOutcome;
  try {
    result = await runPhotoChecks({
      bytes,
      info,
      sha256,
      network,
      receivedAt,
      recapture: recaptureDetectors.pick(env.CAPTURE_RECAPTURE_DETECTOR ?? "combined"),
      attestation: {
        cameraLabel: att.cameraLabel,
        trackWidth: att.trackWidth,
        trackHeight: att.trackHeight,
        capturedAt: att.capturedAt,
        declaredSha256: att.sha256,
      },
      position: att.position,
      nonceIssuedAt: issued.getTime(),
      earlier: earlier.map((p) => ({
        sha256: p.sha256,
        frameDigest: String(p.checks.frameDigest ?? ""),
        position: positionOf(p),
      })),
    });
  } catch {
    throw new ApiError(422, "undecodable-image", "The image data is corrupt and cannot be decoded.");
  }
  // Consume the nonce only now: a refused upload leaves it usable for a corrected retry.
  if (!(await consumeNonce(db, nonce, new Date(receivedAt))))
    throw new ApiError(409, "nonce-replayed", "This shot was already sent. Take a new photo.");

  const photoId = newId();
  const r2Key = `capture/${ps.caseRow.id}/${ps.session.id}/${photoId}.${type === "jpeg" ? "jpg" : "png"}`;
  const attestation = {
    nonce,
    nonceIssuedAt: issued.getTime(),
    capturedAt: att.capturedAt,
    receivedAt,
    cameraLabel: att.cameraLabel,
    deviceLabel: att.deviceLabel,
    track: { width: att.trackWidth, height: att.trackHeight },
    position: att.position,
    declaredSha256: att.sha256,
    sha256,
    network,
  };
  await env.BUCKET.put(r2Key, bytes, {
    httpMetadata: { contentType: type === "jpeg" ? "image/jpeg" : "image/png" },
    customMetadata: {
      nonce,
      sha256,
      capturedAt: String(att.capturedAt),
      caseId: ps.caseRow.id,
      sessionId: ps.session.id,
    },
  });
  const photo = {
    id: photoId,
    caseId: ps.caseRow.id,
    sessionId: ps.session.id,
    scenePosition: att.scenePosition,
    attempt: ps.session.attemptCount + 1,
    r2Key,
    sha256,
    nonce,
    capturedAt: new Date(att.capturedAt),
    attestation,
    checks: { ...result.checks, frameDigest: result.frameDigest, sceneOverride: false },
    verdict: result.verdict,
    latitude: att.position?.latitude ?? null,
    longitude: att.position?.longitude ?? null,
    createdAt: new Date(receivedAt),
  };
  await insertPhoto(db, photo);
  // Kept for reverse search; compared with scanner files only where the account turns that on. The photo
  // is stored already: a failure here is logged, never the policyholder's problem.
  await storeHashes(env.DB, env.BUCKET, [
    {
      accountId: ps.caseRow.accountId,
      source: "capture",
      caseNumber: ps.caseRow.caseNumber,
      ref: photoId,
      ticketId: ps.caseRow.id,
      sha256,
      ...result.similarity,
    },
  ]).catch((err) => console.error("reverse-search hash not stored", photoId, err));
  await deleteChunks(env, ps, nonce, att.chunks);
  return receiptOf(photo);
}

/** The photos of the session's current attempt, oldest first. */
export function attemptPhotos(db: Db, ps: PageSession): Promise<PhotoRow[]> {
  return findSessionPhotos(db, ps.session.id, ps.session.attemptCount + 1);
}

export function receiptOf(photo: Pick<PhotoRow, "id" | "scenePosition" | "checks">): PhotoReceipt {
  const checks = photo.checks as unknown as PhotoChecks & { sceneOverride?: boolean };
  return {
    photoId: photo.id,
    scenePosition: photo.scenePosition,
    sceneCheck: { passed: checks.scene.status !== "fail", reasons: checks.scene.reasons.map((r) => r.code) },
    overridden: checks.sceneOverride === true,
  };
}

export function positionOf(photo: PhotoRow): Position | null {
  const p = (photo.attestation as { position?: Position | null }).position;
  return p ?? null;
}

export const verdictOfRow = (photo: PhotoRow) => photo.verdict as PhotoVerdict;

/** The nonce's issue time if it belongs to this session, is unused and fresh; else the refusal. */
async function usableNonce(db: Db, { session }: PageSession, nonce: string): Promise<Date> {
  const row = await findSessionNonce(db, session.id, nonce);
  if (!row)
    throw new ApiError(400, "unknown-nonce", "This shot was not requested by the capture page. Take a new photo.");
  if (row.usedAt) throw new ApiError(409, "nonce-replayed", "This shot was already sent. Take a new photo.");
  if (clock.nowMs() - row.issuedAt.getTime() > PHOTO_LIMITS.nonceTtlMs)
    throw new ApiError(410, "nonce-expired", "This shot is too old to be sent. Take a new photo.");
  return row.issuedAt;
}

async function validateScene(db: Db, ps: PageSession, position: number | null) {
  const scenes = await findScenes(db, ps.caseRow.id);
  if (scenes.length === 0 && position !== null)
    throw new ApiError(400, "validation-error", "This case has no scenes.", {
      errors: [{ field: "scenePosition", message: "must be null" }],
    });
  if (scenes.length === 0 && (await attemptPhotos(db, ps)).length >= PHOTO_LIMITS.freeSeriesMax) {
    throw new ApiError(
      409,
      "series-full",
      `A series holds at most ${PHOTO_LIMITS.freeSeriesMax} photos. Please send them.`,
    );
  }
  if (scenes.length > 0 && !scenes.some((s) => s.position === position))
    throw new ApiError(400, "validation-error", "Unknown scene.", {
      errors: [{ field: "scenePosition", message: "is not a scene of this case" }],
    });
}

async function assemble(env: Env, ps: PageSession, nonce: string, chunks: number): Promise<Uint8Array> {
  if (!Number.isInteger(chunks) || chunks < 1 || chunks > maxChunks())
    throw new ApiError(413, "too-large", `A photo may be at most ${PHOTO_LIMITS.maxBytes} bytes.`);
  const parts: Uint8Array[] = [];
  const missing: number[] = [];
  let size = 0;
  for (let i = 0; i < chunks; i++) {
    const object = await env.BUCKET.get(chunkKey(ps, nonce, i));
    if (!object) {
      missing.push(i);
      continue;
    }
    const part = new Uint8Array(await object.arrayBuffer());
    size += part.length;
    if (size > PHOTO_LIMITS.maxBytes)
      throw new ApiError(413, "too-large", `A photo may be at most ${PHOTO_LIMITS.maxBytes} bytes.`);
    parts.push(part);
  }
  if (missing.length > 0)
    throw new ApiError(409, "upload-incomplete", `Chunks ${missing.join(", ")} have not arrived yet.`, {
      body: { missing },
    });
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function deleteChunks(env: Env, ps: PageSession, nonce: string, chunks: number) {
  await env.BUCKET.delete(Array.from({ length: chunks }, (_, i) => chunkKey(ps, nonce, i)));
}

const chunkPrefix = (ps: PageSession, nonce: string) => `capture-parts/${ps.session.id}/${nonce}/`;
const chunkKey = (ps: PageSession, nonce: string, index: number) => `${chunkPrefix(ps, nonce)}${index}`;

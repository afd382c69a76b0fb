import { getDb } from "../db/client";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { ApiError } from "../lib/problem";
import { caseLockFor, unwrap } from "./case-lock";
import type { PhotoChecks } from "./checks";
import type { TransitionName } from "./lifecycle";
import type { PageSession } from "./page-session";
import { PHOTO_LIMITS } from "./photo-limits";
import { attemptPhotos, receiptOf, type PhotoReceipt } from "./photos";
import {
  claimSessionAttempt,
  clearCaseScenesCompleted,
  clearSceneCompleted,
  findScenes,
  markSceneCompleted,
  setSessionAttemptCount,
} from "./repository/cases";
import { setPhotoChecks, type PhotoRow } from "./repository/photos";

/** What the page shows after "send": done, try again, or handed to a person. */
export interface AttemptOutcome {
  outcome: "io" | "retry" | "manual";
  attemptsLeft: number;
}

function transition(env: Env, { caseRow }: PageSession, name: TransitionName) {
  return unwrap(
    caseLockFor(env, caseRow.accountId, caseRow.caseNumber).transition(caseRow.accountId, caseRow.id, name, {
      actor: "capture",
    }),
  );
}

/** Marks the photo's scene completed (once) and records `capture_scene_completed`. */
export async function completeSceneOf(env: Env, ps: PageSession, receipt: PhotoReceipt): Promise<void> {
  if (receipt.scenePosition === null || (!receipt.sceneCheck.passed && !receipt.overridden)) return;
  const db = getDb(env.DB);
  const marked = await markSceneCompleted(db, ps.caseRow.id, receipt.scenePosition, clock.now());
  if (!marked) return; // already completed by an earlier shot of this attempt
  try {
    await transition(env, ps, "sceneCompleted");
  } catch (err) {
    await clearSceneCompleted(db, marked.id);
    throw err;
  }
}

/** The policyholder sends a shot despite its failed scene check (→ `io_scene_override` at the end). */
export async function overrideScene(env: Env, ps: PageSession, photoId: string): Promise<PhotoReceipt> {
  const db = getDb(env.DB);
  const photo = (await attemptPhotos(db, ps)).find((p) => p.id === photoId);
  if (!photo) throw new ApiError(404, "not-found", "This photo is not part of the current attempt.");
  const checks = photo.checks as unknown as PhotoChecks & { sceneOverride?: boolean };
  if (checks.scene.status !== "fail")
    throw new ApiError(409, "scene-passed", "This photo passed the scene check; nothing to override.");
  const verdict = photo.verdict === "scene_failed" ? "scene_override" : photo.verdict;
  await setPhotoChecks(db, photo.id, { checks: { ...checks, sceneOverride: true }, verdict });
  const receipt = receiptOf({ ...photo, checks: { ...checks, sceneOverride: true } });
  await completeSceneOf(env, ps, receipt);
  return receipt;
}

/**
 * "Send": judges the attempt. Suspicious shots (screen, injected, virtual camera) fail it — the
 * third failure is final (`nicht_io` → manual); otherwise a doubtful location, then an
 * overridden scene, send it to a person; only a clean attempt closes the case as `io`.
 */
export async function finishAttempt(env: Env, ps: PageSession): Promise<AttemptOutcome> {
  const db = getDb(env.DB);
  const photos = await attemptPhotos(db, ps);
  await requireComplete(env, ps, photos);
  const attempt = ps.session.attemptCount + 1;
  // Compare-and-set on the counter: two "send" taps can never count one attempt twice.
  if (!(await claimSessionAttempt(db, ps.session.id, attempt)))
    throw new ApiError(409, "attempt-already-sent", "These photos were already sent.");
  const name = decide(photos, attempt);
  try {
    await transition(env, ps, name);
  } catch (err) {
    await setSessionAttemptCount(db, ps.session.id, attempt - 1);
    throw err;
  }
  if (name === "attemptFailed") {
    // The next attempt walks the scenes again.
    await clearCaseScenesCompleted(db, ps.caseRow.id);
  }
  const attemptsLeft = name === "attemptFailed" ? PHOTO_LIMITS.maxAttempts - attempt : 0;
  return { outcome: name === "resultIo" ? "io" : name === "attemptFailed" ? "retry" : "manual", attemptsLeft };
}

/** The lifecycle step for a finished attempt's photos (pure; exported for tests). */
export function decide(photos: Pick<PhotoRow, "verdict" | "checks">[], attempt: number): TransitionName {
  const checks = photos.map((p) => p.checks as unknown as PhotoChecks & { sceneOverride?: boolean });
  if (photos.some((p) => p.verdict === "suspicious"))
    return attempt >= PHOTO_LIMITS.maxAttempts ? "resultNichtIoFinal" : "attemptFailed";
  const located = checks.filter((c) => c.location.status !== "unknown");
  if (located.length === 0 || checks.some((c) => c.location.status === "fail")) return "resultGpsSuspicious";
  if (checks.some((c) => c.sceneOverride)) return "resultSceneOverride";
  return "resultIo";
}

async function requireComplete(env: Env, ps: PageSession, photos: PhotoRow[]) {
  const scenes = await findScenes(getDb(env.DB), ps.caseRow.id);
  if (scenes.length > 0) {
    const open = scenes.filter((s) => !s.completedAt).map((s) => s.position);
    if (open.length > 0)
      throw new ApiError(409, "scenes-incomplete", `Scenes ${open.join(", ")} still need a photo.`, {
        body: { missingScenes: open },
      });
  } else if (!photos.some((p) => p.verdict !== "scene_failed")) {
    throw new ApiError(409, "no-photos", "Take at least one usable photo first.");
  }
}

/** "Request an on-site inspection instead" / "withdraw the claim" (both → manual). */
export async function policyholderChoice(env: Env, ps: PageSession, choice: "inspection" | "withdraw"): Promise<void> {
  await transition(env, ps, choice === "inspection" ? "inspectionRequested" : "claimWithdrawn");
}

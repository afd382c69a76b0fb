import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "../db/client";
import { capturePhotos, captureScenes, captureSessions } from "../db/schema";
import type { Env } from "../env";
import { clock } from "../lib/clock";
import { ApiError } from "../lib/problem";
import { caseLockFor, unwrap } from "./case-lock";
import type { PhotoChecks } from "./checks";
import type { TransitionName } from "./lifecycle";
import type { PageSession } from "./page-session";
import { PHOTO_LIMITS } from "./photo-limits";
import { attemptPhotos, receiptOf, type PhotoReceipt, type PhotoRow } from "./photos";

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
  const marked = await db
    .update(captureScenes)
    .set({ completedAt: clock.now() })
    .where(
      and(
        eq(captureScenes.caseId, ps.caseRow.id),
        eq(captureScenes.position, receipt.scenePosition),
        isNull(captureScenes.completedAt),
      ),
    )
    .returning();
  if (marked.length === 0) return; // already completed by an earlier shot of this attempt
  try {
    await transition(env, ps, "sceneCompleted");
  } catch (err) {
    await db.update(captureScenes).set({ completedAt: null }).where(eq(captureScenes.id, marked[0].id));
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
  await db
    .update(capturePhotos)
    .set({ checks: { ...checks, sceneOverride: true }, verdict })
    .where(eq(capturePhotos.id, photo.id));
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
  const claimed = await db
    .update(captureSessions)
    .set({ attemptCount: attempt })
    .where(and(eq(captureSessions.id, ps.session.id), eq(captureSessions.attemptCount, attempt - 1)))
    .returning();
  if (claimed.length === 0) throw new ApiError(409, "attempt-already-sent", "These photos were already sent.");
  const name = decide(photos, attempt);
  try {
    await transition(env, ps, name);
  } catch (err) {
    await db
      .update(captureSessions)
      .set({ attemptCount: attempt - 1 })
      .where(eq(captureSessions.id, ps.session.id));
    throw err;
  }
  if (name === "attemptFailed") {
    // The next attempt walks the scenes again.
    await db.update(captureScenes).set({ completedAt: null }).where(eq(captureScenes.caseId, ps.caseRow.id));
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
  const scenes = await getDb(env.DB).select().from(captureScenes).where(eq(captureScenes.caseId, ps.caseRow.id));
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

import { getDb } from "../db/client";
import type { Env } from "../env";
import type { PageSession } from "./page-session";
import { PHOTO_LIMITS } from "./photo-limits";
import { attemptPhotos, receiptOf, type PhotoReceipt } from "./photos";
import { findScenes } from "./repository/cases";

/** Everything the capture page needs to start or resume (after a reload or a lost connection). */
export interface PageState {
  customNote: string | null;
  scenes: { position: number; description: string; completed: boolean }[];
  attempt: number;
  maxAttempts: number;
  photos: PhotoReceipt[];
  limits: { chunkBytes: number; maxBytes: number; freeSeriesMax: number };
}

export async function pageState(env: Env, ps: PageSession): Promise<PageState> {
  const db = getDb(env.DB);
  const [scenes, photos] = await Promise.all([findScenes(db, ps.caseRow.id), attemptPhotos(db, ps)]);
  return {
    customNote: ps.caseRow.customNote,
    scenes: scenes.map((s) => ({
      position: s.position,
      description: s.description,
      completed: s.completedAt !== null,
    })),
    attempt: ps.session.attemptCount + 1,
    maxAttempts: PHOTO_LIMITS.maxAttempts,
    photos: photos.map(receiptOf),
    limits: {
      chunkBytes: PHOTO_LIMITS.chunkBytes,
      maxBytes: PHOTO_LIMITS.maxBytes,
      freeSeriesMax: PHOTO_LIMITS.freeSeriesMax,
    },
  };
}

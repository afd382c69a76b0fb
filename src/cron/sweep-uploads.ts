import { getDb } from "../db/client";
import { limits, type Env } from "../env";
import { clock } from "../lib/clock";
import { deleteUploads, findUploadsCreatedBefore } from "../scanner/repository";
import { uploadObjectKey } from "../scanner/transfer/uploads";

/** Rows handled per run; the next run continues. */
const BATCH = 200;

/**
 * Spec 4.3: an uploaded ZIP that was never consumed is deleted after 24 h (RETENTION_S).
 * Rows go too, consumed or not, so a storage_key older than that is simply unknown (404).
 * Staged files left in R2 by a request or run that died (`staging/`) are swept as well.
 */
export async function sweepUploads(env: Env): Promise<void> {
  const cutoff = new Date(clock.nowMs() - limits(env).retentionS * 1000);
  const db = getDb(env.DB);
  const stale = await findUploadsCreatedBefore(db, cutoff, BATCH);
  if (stale.length > 0) {
    await env.BUCKET.delete(stale.map((u) => uploadObjectKey(u.storageKey)));
    await deleteUploads(
      db,
      stale.map((u) => u.storageKey),
    );
  }
  const inputs = await env.BUCKET.list({ prefix: "staging/", limit: BATCH });
  const orphaned = inputs.objects.filter((o) => o.uploaded < cutoff).map((o) => o.key);
  if (orphaned.length > 0) await env.BUCKET.delete(orphaned);
}

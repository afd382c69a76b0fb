import { getDb } from "../db/client";
import { limits, type Env } from "../env";
import { clock } from "../lib/clock";
import { deleteDownloads, findDownloadsCreatedBefore } from "../scanner/repository";

const BATCH = 200;

/** Spec 4.4: a download bundle (attachments.zip) is deleted 24 h (RETENTION_S) after it was made. */
export async function sweepDownloads(env: Env): Promise<void> {
  const cutoff = new Date(clock.nowMs() - limits(env).retentionS * 1000);
  const db = getDb(env.DB);
  const stale = await findDownloadsCreatedBefore(db, cutoff, BATCH);
  if (stale.length === 0) return;
  await env.BUCKET.delete(stale.map((d) => d.r2Key));
  await deleteDownloads(
    db,
    stale.map((d) => d.id),
  );
}

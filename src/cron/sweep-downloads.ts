import { inArray, lt } from "drizzle-orm";
import { getDb } from "../db/client";
import { downloads } from "../db/schema";
import { limits, type Env } from "../env";
import { clock } from "../lib/clock";

const BATCH = 200;

/** Spec 4.4: a download bundle (attachments.zip) is deleted 24 h (RETENTION_S) after it was made. */
export async function sweepDownloads(env: Env): Promise<void> {
  const cutoff = new Date(clock.nowMs() - limits(env).retentionS * 1000);
  const db = getDb(env.DB);
  const stale = await db
    .select({ id: downloads.id, r2Key: downloads.r2Key })
    .from(downloads)
    .where(lt(downloads.createdAt, cutoff))
    .limit(BATCH);
  if (stale.length === 0) return;
  await env.BUCKET.delete(stale.map((d) => d.r2Key));
  await db.delete(downloads).where(
    inArray(
      downloads.id,
      stale.map((d) => d.id),
    ),
  );
}

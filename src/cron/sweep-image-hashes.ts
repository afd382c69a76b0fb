import type { Env } from "../env";
import { clock } from "../lib/clock";
import { deleteImageHashes, findExpiredImageHashes } from "../scanner/repository";

/** Rows handled per run; the next run continues. */
const BATCH = 500;
const DAY_MS = 86_400_000;

/**
 * Reverse search (docs/reverse-search.md): the perceptual hashes of an account's pictures, and
 * their small PNGs in R2, are deleted `accounts.hash_retention_days` after they were stored.
 */
export async function sweepImageHashes(env: Env): Promise<void> {
  const rows = await findExpiredImageHashes(env.DB, clock.nowMs(), DAY_MS, BATCH);
  if (rows.length === 0) return;
  const keys = rows.flatMap((r) => (r.thumb_key ? [r.thumb_key] : []));
  if (keys.length > 0) await env.BUCKET.delete(keys);
  await deleteImageHashes(
    env.DB,
    rows.map((r) => r.id),
  );
}

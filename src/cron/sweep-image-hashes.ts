import type { Env } from "../env";
import { clock } from "../lib/clock";

/** Rows handled per run; the next run continues. */
const BATCH = 500;
const DAY_MS = 86_400_000;

/**
 * Reverse search (docs/reverse-search.md): the perceptual hashes of an account's pictures, and
 * their small PNGs in R2, are deleted `accounts.hash_retention_days` after they were stored.
 */
export async function sweepImageHashes(env: Env): Promise<void> {
  const stale = await env.DB.prepare(
    `SELECT h.id, h.thumb_key FROM image_hashes h JOIN accounts a ON a.id = h.account_id
     WHERE h.created_at < ?1 - a.hash_retention_days * ${DAY_MS}
     ORDER BY h.created_at LIMIT ${BATCH}`,
  )
    .bind(clock.nowMs())
    .all<{ id: number; thumb_key: string | null }>();
  const rows = stale.results ?? [];
  if (rows.length === 0) return;
  const keys = rows.flatMap((r) => (r.thumb_key ? [r.thumb_key] : []));
  if (keys.length > 0) await env.BUCKET.delete(keys);
  await env.DB.prepare(`DELETE FROM image_hashes WHERE id IN (SELECT value FROM json_each(?1))`)
    .bind(JSON.stringify(rows.map((r) => r.id)))
    .run();
}

import { eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { outbox } from "../db/schema";
import type { Env } from "../env";

/**
 * Delivers one outbox row. No e-mail or SMS provider is wired yet, so a row stays `pending`
 * (visible, re-queued by the cron) rather than being marked sent: nothing is lost or faked.
 */
export async function deliverNotification(env: Env, outboxId: string): Promise<"done" | "retry"> {
  const db = getDb(env.DB);
  const row = await db.query.outbox.findFirst({ where: eq(outbox.id, outboxId) });
  if (!row || row.status !== "pending") return "done";
  await db.update(outbox).set({ attempts: row.attempts + 1 }).where(eq(outbox.id, outboxId));
  console.warn(`no ${row.channel} provider configured; outbox ${outboxId} stays pending`);
  return "done";
}

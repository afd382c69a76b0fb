/**
 * Every query on result push deliveries (DESIGN §14). A delivery row is created in the close's
 * batch of a case the caller's account owns, and is then reached by its own id (the queue
 * message's, which is also the `webhook-id`).
 */
import { and, asc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { pushDeliveries } from "../../db/schema";

/** For the close's batch: the `pending` delivery the close owes. */
export function insertPushDeliveryStatement(db: Db, deliveryId: string, caseId: string, at: Date) {
  return db.insert(pushDeliveries).values({ id: deliveryId, caseId, status: "pending", attempts: 0, at });
}

/** A delivery by its id (from a queue message). */
export function findPushDelivery(db: Db, deliveryId: string) {
  return db.query.pushDeliveries.findFirst({ where: eq(pushDeliveries.id, deliveryId) });
}

/** Claims attempt `attempt` if the counter is still `attempt - 1` and the push still open (compare-and-set). */
export async function claimPushAttempt(db: Db, deliveryId: string, attempt: number): Promise<boolean> {
  const claimed = await db
    .update(pushDeliveries)
    .set({ attempts: attempt })
    .where(
      and(
        eq(pushDeliveries.id, deliveryId),
        eq(pushDeliveries.attempts, attempt - 1),
        inArray(pushDeliveries.status, ["pending", "retrying"]),
      ),
    )
    .returning({ id: pushDeliveries.id });
  return claimed.length > 0;
}

/** For the attempt's batch: its outcome on the delivery row. */
export function pushOutcomeStatement(
  db: Db,
  deliveryId: string,
  outcome: { status: "delivered" | "retrying" | "failed"; statusCode: number | null },
  at: Date,
) {
  return db
    .update(pushDeliveries)
    .set({ status: outcome.status, statusCode: outcome.statusCode, at })
    .where(eq(pushDeliveries.id, deliveryId));
}

/** Cron sweep across all accounts on purpose: open deliveries last touched before `before`, oldest first. */
export function findOpenPushesBefore(db: Db, before: Date, limit: number) {
  return db
    .select({
      id: pushDeliveries.id,
      status: pushDeliveries.status,
      attempts: pushDeliveries.attempts,
      at: pushDeliveries.at,
    })
    .from(pushDeliveries)
    .where(and(inArray(pushDeliveries.status, ["pending", "retrying"]), lt(pushDeliveries.at, before)))
    .orderBy(asc(pushDeliveries.at))
    .limit(limit);
}

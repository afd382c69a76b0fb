/** Every query on failed jobs (messages that reached the dead-letter queue); operator data, no account's records. */
import type { Db } from "../db/client";
import { failedJobs } from "../db/schema";

export async function insertFailedJob(db: Db, row: typeof failedJobs.$inferInsert): Promise<void> {
  await db.insert(failedJobs).values(row);
}

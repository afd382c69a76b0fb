import type { Env } from "../env";
import { retryPendingNotifications } from "./outbox-retry";
import { retryLostPushes } from "./push-retry";
import { sendReminders } from "./reminders";
import { sweepBoardLogins } from "./sweep-board-logins";
import { sweepDownloads } from "./sweep-downloads";
import { sweepImageHashes } from "./sweep-image-hashes";
import { sweepUploads } from "./sweep-uploads";

/** Cron jobs by schedule (wrangler.toml [triggers]); each job is its own file. */
const jobs: Record<string, ((env: Env) => Promise<void>)[]> = {
  "*/15 * * * *": [
    sendReminders,
    retryPendingNotifications,
    retryLostPushes,
    sweepUploads,
    sweepDownloads,
    sweepImageHashes,
    sweepBoardLogins,
  ],
};

export async function runScheduled(controller: ScheduledController, env: Env): Promise<void> {
  for (const job of jobs[controller.cron] ?? []) {
    try {
      await job(env);
    } catch (err) {
      console.error("cron job failed", controller.cron, err);
    }
  }
}

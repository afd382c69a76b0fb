import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";
import { clock } from "../../src/lib/clock";
import { type QueuedJob, recordingJobs } from "./jobs";

/**
 * One run of the quarter-hour cron at the test clock's time, as the runtime would start it. Its JOBS records what it
 * queues instead of sending it: the cron re-queues every overdue notification and result push in the database, those
 * of earlier test files included, and a real send would run them after this file ended, in a later file's runtime
 * (where work no test awaits can break vitest's channel to the pool: `Closing rpc`, README "Tests"). Work the Durable
 * Objects queue (they have their own bindings) is not recorded.
 */
export async function runCron(): Promise<QueuedJob[]> {
  const { jobs, recorded } = recordingJobs();
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ cron: "*/15 * * * *", scheduledTime: clock.now() }),
    { ...env, JOBS: jobs } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return recorded;
}

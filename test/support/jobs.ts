import { env } from "cloudflare:test";
import type { JobMessage } from "../../src/queue/messages";

/** A message queued on JOBS, with its delay if it had one. */
export interface QueuedJob {
  body: JobMessage;
  delaySeconds?: number;
}

/**
 * A JOBS that records what is queued instead of sending it; with `forward`, messages without a delay still go there.
 * The service only awaits JOBS's sends, never reads what they return.
 */
export function recordingJobs(forward?: Queue<JobMessage>): { jobs: Queue<JobMessage>; recorded: QueuedJob[] } {
  const recorded: QueuedJob[] = [];
  const queued = (body: JobMessage, delaySeconds = 0) => {
    if (forward && !delaySeconds) return false;
    recorded.push({ body, ...(delaySeconds && { delaySeconds }) });
    return true;
  };
  const jobs = {
    send: async (body: JobMessage, options?: QueueSendOptions) => {
      if (!queued(body, options?.delaySeconds)) await forward!.send(body, options);
    },
    sendBatch: async (messages: Iterable<MessageSendRequest<JobMessage>>, options?: QueueSendBatchOptions) => {
      const sent = [...messages].filter((m) => !queued(m.body, m.delaySeconds ?? options?.delaySeconds));
      if (sent.length) await forward!.sendBatch(sent, options);
    },
  };
  return { jobs: jobs as unknown as Queue<JobMessage>, recorded };
}

/**
 * While a test file runs, the JOBS consumer's messages sent with a delay (a result push's next attempt, 30 s and more
 * after a failed one) are recorded instead of sent: sent, one would run after this file has ended, in a later file's
 * runtime or as the runtime shuts down (work no test awaits there can hang the run; README "Tests"). Messages without a
 * delay go to the real queue. The consumer gets the runtime's `env`, the object tests import; Durable Objects have
 * bindings of their own and are not affected. Returns the recorded messages and a function that restores JOBS.
 */
export function holdDelayedJobs(): { held: QueuedJob[]; restore: () => void } {
  const real = env.JOBS;
  const { jobs, recorded } = recordingJobs(real as Queue<JobMessage>);
  env.JOBS = jobs as typeof real;
  return { held: recorded, restore: () => void (env.JOBS = real) };
}

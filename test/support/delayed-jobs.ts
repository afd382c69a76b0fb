import { env } from "cloudflare:test";
import type { JobMessage } from "../../src/queue/messages";

/**
 * While a test file runs, the JOBS consumer's messages sent with a delay (a result push's next attempt, 30 s and more
 * after a failed one) are recorded instead of sent: sent, one would run after this file has ended, in a later file's
 * runtime or as the runtime shuts down (work no test awaits there can hang the run; README "Tests"). Messages without a
 * delay go to the real queue. The consumer gets the runtime's `env`, the object tests import; Durable Objects have
 * bindings of their own and are not affected. Returns the recorded messages and a function that restores JOBS.
 */
export function holdDelayedJobs(): { held: { body: JobMessage; delaySeconds: number }[]; restore: () => void } {
  const real = env.JOBS;
  const held: { body: JobMessage; delaySeconds: number }[] = [];
  // The service only awaits JOBS's sends, never reads what they return.
  const holding = {
    send: async (body: JobMessage, options?: QueueSendOptions) => {
      if (options?.delaySeconds) held.push({ body, delaySeconds: options.delaySeconds });
      else await real.send(body, options);
    },
    sendBatch: async (messages: Iterable<MessageSendRequest<JobMessage>>, options?: QueueSendBatchOptions) => {
      const all = [...messages];
      const delayOf = (m: MessageSendRequest<JobMessage>) => m.delaySeconds ?? options?.delaySeconds ?? 0;
      for (const m of all) if (delayOf(m)) held.push({ body: m.body, delaySeconds: delayOf(m) });
      const now = all.filter((m) => !delayOf(m));
      if (now.length) await real.sendBatch(now, options);
    },
  };
  env.JOBS = holding as unknown as typeof real;
  return { held, restore: () => void (env.JOBS = real) };
}

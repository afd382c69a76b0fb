import type { Env } from "../env";
import { gateFor } from "./analysis-gate";
import { runAnalysis } from "./analysis-run";

/**
 * The queue side of an analysis (message `analysis`): fetch the job from its gate, run the
 * pipeline here — in a queue consumer invocation, not in the gate, so the gate stays free to
 * answer 409/202 and to time its waiter out while detectors use the CPU — and report back.
 * A message for a run the gate no longer expects (finished, superseded, given up) is dropped.
 */
export async function runQueuedAnalysis(env: Env, digest: string, analysisId: string): Promise<"done"> {
  const gate = gateFor(env, digest);
  const job = await gate.claim(analysisId);
  if (!job) return "done";
  try {
    const outcome = await runAnalysis(env, job, analysisId);
    await cleanUpInput(env, job);
    await gate.finish(analysisId, outcome);
  } catch (err) {
    console.error("analysis failed", analysisId, err);
    await cleanUpInput(env, job);
    await gate.finish(analysisId, null);
  }
  return "done";
}

async function cleanUpInput(env: Env, job: { inputKey: string; deleteInputAfterRun: boolean }) {
  if (job.deleteInputAfterRun) await env.BUCKET.delete(job.inputKey);
}

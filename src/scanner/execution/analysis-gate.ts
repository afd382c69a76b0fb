import { DurableObject } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { analyses } from "../db/schema";
import { limits, type Env } from "../env";
import { clock } from "../lib/clock";
import { newId } from "../lib/ids";
import type { AnalysisJob, AnalysisOutcome } from "./analysis-run";
import { deleteResult } from "./results";

/** What the gate answers a caller (plain data: classes do not cross RPC). */
export type GateOutcome =
  | { kind: "result"; analysisId: string; resultKey: string; tokens: number; adoptedInput: boolean }
  | { kind: "timeout"; adoptedInput: boolean }
  | { kind: "busy" }
  | { kind: "running"; retryAfterS: number }
  | { kind: "failed"; adoptedInput: boolean };

interface GateState {
  status: "running" | "done" | "failed";
  analysisId: string;
  job: AnalysisJob;
  startedAt: number;
  resultKey?: string;
  tokens?: number;
  /** A finished result goes once to the next identical request even without `resultCache` (the cut-off caller paid nothing). */
  delivered: boolean;
}

/** A run that has not finished after this long was lost (queue message dead-lettered, crash): the watchdog alarm gives it up. */
const STALE_RUN_MS = 15 * 60_000;
/** Retry-After for 202: a typical analysis finishes within this. */
const RETRY_AFTER_S = 30;

/**
 * One instance per request digest (DESIGN §9, §10). It only coordinates: the analysis itself
 * runs from the JOBS queue (src/scanner/analysis-queue.ts), not in the caller's request, so it
 * goes on after the caller is answered 504. The first caller waits here up to the timeout; an
 * identical request while it waits gets 409, while it runs with nobody waiting 202, and once done
 * the stored result. Alarms: a watchdog while running, then the clean-up after the retention period.
 */
export class AnalysisGate extends DurableObject<Env> {
  private waiters = 0;
  /** Resolvers of the runs started by this instance, called when a run ends. */
  private readonly finished = new Map<string, (state: GateState) => void>();

  async request(job: AnalysisJob, opts: { timeoutS: number; resultCache: boolean }): Promise<GateOutcome> {
    const state = await this.ctx.storage.get<GateState>("state");
    if (state?.status === "done" && (!state.delivered || opts.resultCache)) return this.deliver(state, false);
    if (state?.status === "running" && clock.nowMs() - state.startedAt < STALE_RUN_MS) {
      return this.waiters > 0 ? { kind: "busy" } : { kind: "running", retryAfterS: RETRY_AFTER_S };
    }
    // A delivered result without resultCache, a failed or a lost run: this request starts afresh.
    if (state) await deleteResult(this.env.BUCKET, state.analysisId);
    return this.start(job, opts.timeoutS);
  }

  /** Queue side: the job of a run this gate still expects, or null. */
  async claim(analysisId: string): Promise<AnalysisJob | null> {
    const state = await this.ctx.storage.get<GateState>("state");
    return state?.status === "running" && state.analysisId === analysisId ? state.job : null;
  }

  /** Queue side: the run ended (outcome null = failed). Wakes the waiting caller. */
  async finish(analysisId: string, outcome: AnalysisOutcome | null): Promise<void> {
    const state = await this.ctx.storage.get<GateState>("state");
    if (state?.status !== "running" || state.analysisId !== analysisId) return;
    await this.settle(state, outcome);
  }

  override async alarm(): Promise<void> {
    const state = await this.ctx.storage.get<GateState>("state");
    if (!state) return;
    // The watchdog: a run still going after STALE_RUN_MS is given up (its late result is ignored).
    if (state.status === "running") return this.settle(state, null);
    // The clean-up alarm: results are kept for the retention period only.
    await deleteResult(this.env.BUCKET, state.analysisId);
    await this.ctx.storage.deleteAll();
  }

  private async start(job: AnalysisJob, timeoutS: number): Promise<GateOutcome> {
    const state: GateState = { status: "running", analysisId: newId(), job, startedAt: clock.nowMs(), delivered: false };
    this.waiters++;
    try {
      const finished = this.expect(state.analysisId);
      await this.ctx.storage.put("state", state);
      // The row exists before the queued run can finish and update it.
      await getDb(this.env.DB)
        .insert(analyses)
        .values({ id: state.analysisId, accountId: job.accountId, digest: job.digest, caseNumber: job.caseNumber, status: "running", createdAt: clock.now() });
      await this.env.JOBS.send({ type: "analysis", digest: job.digest, analysisId: state.analysisId });
      await this.ctx.storage.setAlarm(Date.now() + STALE_RUN_MS);
      return await this.wait(finished, timeoutS);
    } finally {
      this.waiters--;
    }
  }

  private async wait(finished: Promise<GateState>, timeoutS: number): Promise<GateOutcome> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutS * 1000)));
    const outcome = await Promise.race([finished, timeout]);
    clearTimeout(timer);
    if (!outcome) return { kind: "timeout", adoptedInput: true };
    if (outcome.status === "failed") return { kind: "failed", adoptedInput: true };
    return this.deliver(outcome, true);
  }

  private async deliver(state: GateState, adoptedInput: boolean): Promise<GateOutcome> {
    await this.ctx.storage.put("state", { ...state, delivered: true });
    return { kind: "result", analysisId: state.analysisId, resultKey: state.resultKey!, tokens: state.tokens!, adoptedInput };
  }

  private async settle(state: GateState, outcome: AnalysisOutcome | null): Promise<void> {
    const next: GateState = outcome ? { ...state, status: "done", resultKey: outcome.resultKey, tokens: outcome.tokens } : { ...state, status: "failed" };
    await this.ctx.storage.put("state", next);
    await this.ctx.storage.setAlarm(Date.now() + limits(this.env).retentionS * 1000);
    await getDb(this.env.DB)
      .update(analyses)
      .set({ status: next.status, resultKey: next.resultKey ?? null, tokens: next.tokens ?? null, suspicionLevel: outcome?.suspicionLevel ?? null, finishedAt: clock.now() })
      .where(eq(analyses.id, state.analysisId));
    this.finished.get(state.analysisId)?.(next);
    this.finished.delete(state.analysisId);
  }

  private expect(analysisId: string): Promise<GateState> {
    return new Promise((resolve) => this.finished.set(analysisId, resolve));
  }
}

/** The gate of a request digest. */
export function gateFor(env: Env, digest: string) {
  return env.ANALYSIS_GATE.get(env.ANALYSIS_GATE.idFromName(digest));
}

import { DurableObject } from "cloudflare:workers";
import { getDb } from "../../db/client";
import { limits, type Env } from "../../env";
import { clock } from "../../lib/clock";
import { deletePrefix } from "../../lib/r2";
import { settleWithin } from "../../lib/timeout";
import { finishAnalysis, insertAnalysis } from "../repository";
import { newId } from "../../lib/ids";
import { analyzerSets, modelVersions } from "../analysis/analyzer-sets";
import { deleteResult, reportsOf, saveResult } from "./results";
import { unitFor, type UnitProgress } from "./analysis-unit";
import { gatherResult, type UnitRecord } from "./gather";
import { lazily } from "../../lib/isolate-once";
import { gatheredKey, REPORTS_UNIT, type AnalysisJob, type StagedFile, type UnitReport } from "./job";
import { logAnalysis } from "./log";

type Gathered = Awaited<ReturnType<typeof gatherResult>>;

/** Reverse search and the cross-file analyses load when a run first ends, not with every request. */
const caseWork = lazily(() => import("../response/addons"));

/** What the gate answers a caller (plain data: classes do not cross RPC). */
export type GateOutcome =
  | {
      kind: "result";
      analysisId: string;
      resultKey: string;
      tokens: number;
      adoptedInput: boolean;
      /** The result's first delivery: its sessionId is the analysisId, which the reports name (DESIGN §20). */
      firstDelivery: boolean;
    }
  | { kind: "timeout"; adoptedInput: boolean }
  | { kind: "busy" }
  | { kind: "running"; retryAfterS: number }
  | { kind: "failed"; adoptedInput: boolean };

/** Budgets of one run, taken from the requesting Worker's settings (DESIGN §8, §19). */
export interface RunBudget {
  /** How long the first caller waits (ANALYSIS_TIMEOUT_S). */
  timeoutS: number;
  /** Wall time one file may take once it runs (FILE_TIMEOUT_S). */
  fileTimeoutS: number;
  /** Files of this run analysed at once (ANALYSIS_UNIT_CONCURRENCY). */
  concurrency: number;
}

interface GateState {
  status: "running" | "done" | "failed";
  analysisId: string;
  job: AnalysisJob;
  budget: RunBudget;
  startedAt: number;
  resultKey?: string;
  tokens?: number;
  suspicionLevel?: string;
  /** A finished result goes once to the next identical request even without `resultCache` (the cut-off caller paid nothing). */
  delivered: boolean;
}

/** Attempts per file: a unit lost to a crash or restart is started afresh this often in all. */
const MAX_ATTEMPTS = 3;
/** Files extracted from extracted files are analysed too, but no deeper than this. */
const MAX_EXTRACTION_DEPTH = 2;
/** A unit that never started (its alarm lost) is given up after this many file budgets. */
const WAITING_BUDGETS = 4;
/** Retry-After for 202: a typical analysis finishes within this. */
const RETRY_AFTER_S = 30;
/** How long the gate waits for a unit to answer where it stands. */
const PROBE_MS = 5_000;

/**
 * One instance per request digest (DESIGN §9, §10, §19). It coordinates and never analyses: each
 * file is a unit of work in its own AnalysisUnit Durable Object (its own invocation, CPU budget and
 * memory), at most `concurrency` at a time. Units report back through `unitFinished`; the gate's
 * alarm is the per-file deadline while the run lasts (timeout → `-`, lost → retried, then `-`) and
 * the retention clean-up afterwards. The first caller waits up to the timeout; an identical request
 * while it waits gets 409, while it runs with nobody waiting 202, once done the stored result.
 */
export class AnalysisGate extends DurableObject<Env> {
  private waiters = 0;
  /** Resolvers of the runs started by this instance, called when a run ends. */
  private readonly finished = new Map<string, (state: GateState) => void>();
  /** Unit bookkeeping runs one step at a time: reports, deadline checks and dispatches never interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  async request(job: AnalysisJob, opts: RunBudget & { resultCache: boolean }): Promise<GateOutcome> {
    let state = await this.state();
    if (state?.status === "running" && (await this.ctx.storage.getAlarm()) === null) {
      // A run always has a deadline alarm; without one (lost), this request looks after the units itself.
      const running = state;
      await this.exclusive(() => this.checkDeadlines(running));
      state = await this.state();
    }
    if (state?.status === "done" && (!state.delivered || opts.resultCache)) return this.deliver(state, false);
    if (state?.status === "running")
      return this.waiters > 0 ? { kind: "busy" } : { kind: "running", retryAfterS: RETRY_AFTER_S };
    // A delivered result without resultCache or a failed run: this request starts afresh.
    if (state) await this.forget(state);
    return this.start(job, opts);
  }

  /** A unit's report. Late reports (a unit already timed out or superseded) are ignored. */
  unitFinished(analysisId: string, index: number, attempt: number, report: UnitReport): Promise<void> {
    return this.exclusive(() => this.recordReport(analysisId, index, attempt, report));
  }

  private async recordReport(analysisId: string, index: number, attempt: number, report: UnitReport): Promise<void> {
    const state = await this.state();
    const unit = state?.status === "running" && state.analysisId === analysisId ? await this.unit(index) : undefined;
    if (!state || !unit || unit.status !== "running" || unit.attempt !== attempt) return;
    if (report.ok) {
      await this.saveUnit({ ...unit, status: "done", outputKey: report.outputKey });
      if (unit.depth < MAX_EXTRACTION_DEPTH) await this.addExtracted(state, unit, report.extracted);
    } else {
      logAnalysis("unit-failed", { analysisId, unit: index, attempt, reason: report.reason });
      await this.retryOrGiveUp(unit);
    }
    await this.advance(state);
  }

  override async alarm(): Promise<void> {
    const state = await this.state();
    if (!state) return;
    if (state.status === "running") return this.exclusive(() => this.checkDeadlines(state));
    // The clean-up alarm: results are kept for the retention period only.
    await this.forget(state);
  }

  private async start(job: AnalysisJob, budget: RunBudget & { resultCache: boolean }): Promise<GateOutcome> {
    const state: GateState = {
      status: "running",
      analysisId: newId(),
      job,
      budget: { timeoutS: budget.timeoutS, fileTimeoutS: budget.fileTimeoutS, concurrency: budget.concurrency },
      startedAt: clock.nowMs(),
      delivered: false,
    };
    this.waiters++;
    try {
      const finished = this.expect(state.analysisId);
      await this.ctx.storage.put("state", state);
      for (const [index, item] of job.items.entries()) {
        if (item.ok)
          await this.saveUnit({ index, parent: null, depth: 0, file: item.file, status: "pending", attempt: 0 });
      }
      // The row exists before any unit can finish the run and update it.
      await insertAnalysis(getDb(this.env.DB), {
        id: state.analysisId,
        accountId: job.accountId,
        digest: job.digest,
        caseNumber: job.caseNumber,
        status: "running",
        createdAt: clock.now(),
      });
      logAnalysis("start", { analysisId: state.analysisId, files: job.items.length });
      await this.exclusive(() => this.advance(state));
      return await this.wait(finished, budget.timeoutS);
    } finally {
      this.waiters--;
    }
  }

  /** Starts pending units up to the concurrency, settles the run when every unit has ended, keeps the deadline alarm. */
  private async advance(state: GateState): Promise<void> {
    const units = await this.units();
    let running = [...units.values()].filter((u) => u.status === "running").length;
    for (const unit of units.values()) {
      if (running >= state.budget.concurrency) break;
      if (unit.status !== "pending") continue;
      await this.dispatch(state, unit);
      running++;
    }
    const open = [...units.values()].filter((u) => u.status === "pending" || u.status === "running");
    // Every file has ended: one more unit builds the reports, then the run settles (docs/reports.md).
    if (open.length === 0) return units.has(REPORTS_UNIT) ? this.settle(state, units) : this.startReports(state, units);
    const deadlines = open.flatMap((u) => (u.deadlineMs ? [u.deadlineMs] : []));
    if (deadlines.length) await this.ctx.storage.setAlarm(Math.min(...deadlines));
  }

  private async dispatch(state: GateState, unit: UnitRecord): Promise<void> {
    const attempt = unit.attempt + 1;
    const fileMs = state.budget.fileTimeoutS * 1000;
    const now = Date.now();
    const running: UnitRecord = { ...unit, status: "running", attempt, dispatchedAt: now, deadlineMs: now + fileMs };
    await this.saveUnit(running);
    const { job } = state;
    const task = {
      analysisId: state.analysisId,
      digest: job.digest,
      index: unit.index,
      attempt,
      file: unit.file,
      language: job.language,
      issueDate: job.issueDate,
      caseNumber: job.caseNumber,
      stagingPrefix: job.stagingPrefix,
      analyzers: job.analyzers,
      nowMs: state.startedAt,
      kind: unit.index === REPORTS_UNIT ? ("reports" as const) : ("file" as const),
    };
    try {
      await unitFor(this.env, state.analysisId, unit.index, attempt).start(task, fileMs);
    } catch (err) {
      // The deadline check finds it holding no task and retries it.
      logAnalysis("dispatch-failed", { analysisId: state.analysisId, unit: unit.index, attempt, error: String(err) });
    }
  }

  /** Units past their deadline: still working → timed out (`-`); waiting for a slot → more time; gone → retried. */
  private async checkDeadlines(state: GateState): Promise<void> {
    const now = Date.now();
    const fileMs = state.budget.fileTimeoutS * 1000;
    for (const unit of (await this.units()).values()) {
      if (unit.status !== "running" || (unit.deadlineMs ?? 0) > now) continue;
      const progress = await this.probe(state, unit);
      if (progress?.phase === "running") {
        if (progress.startedAt + fileMs > now)
          await this.saveUnit({ ...unit, deadlineMs: progress.startedAt + fileMs });
        else {
          logAnalysis("file-timeout", {
            analysisId: state.analysisId,
            unit: unit.index,
            attempt: unit.attempt,
            seconds: state.budget.fileTimeoutS,
          });
          await this.saveUnit({ ...unit, status: "timeout" });
        }
      } else if (progress?.phase === "waiting" && now - (unit.dispatchedAt ?? now) < WAITING_BUDGETS * fileMs) {
        await this.saveUnit({ ...unit, deadlineMs: now + fileMs });
      } else {
        logAnalysis("unit-lost", { analysisId: state.analysisId, unit: unit.index, attempt: unit.attempt });
        await this.retryOrGiveUp(unit);
      }
    }
    await this.advance(state);
  }

  private probe(state: GateState, unit: UnitRecord): Promise<UnitProgress> {
    const answer: Promise<UnitProgress> = unitFor(this.env, state.analysisId, unit.index, unit.attempt)
      .progress()
      .catch(() => null);
    return settleWithin(answer, PROBE_MS, null);
  }

  private async retryOrGiveUp(unit: UnitRecord): Promise<void> {
    await this.saveUnit({ ...unit, status: unit.attempt < MAX_ATTEMPTS ? "pending" : "failed", deadlineMs: undefined });
  }

  private async addExtracted(state: GateState, parent: UnitRecord, files: StagedFile[]): Promise<void> {
    const units = await this.units();
    let next = Math.max(state.job.items.length, ...units.keys()) + 1;
    for (const file of files)
      await this.saveUnit({
        index: next++,
        parent: parent.index,
        depth: parent.depth + 1,
        file,
        status: "pending",
        attempt: 0,
      });
  }

  /**
   * Saves the gathered result for the reports unit and queues it. The gate only gathers (reads the units'
   * JSON); the PDFs are built in the unit's own invocation. `settle` gathers again (same order, same names).
   */
  private async startReports(state: GateState, units: Map<number, UnitRecord>): Promise<void> {
    const { job } = state;
    try {
      const gathered = await gatherResult(this.env.BUCKET, job, units, state.budget.fileTimeoutS);
      // Deterministic for a run (its own case is never matched), so the reports see these findings too.
      await (await caseWork()).caseAnalyses(this.env, job, state.analysisId, gathered);
      const key = gatheredKey(job.stagingPrefix);
      const body = JSON.stringify({
        ...gathered,
        modelVersions: modelVersions(await analyzerSets.pick(job.analyzers)()),
      });
      await this.env.BUCKET.put(key, body);
      const file = {
        name: "reports",
        key,
        kind: "unknown" as const,
        mimeType: "application/json",
        sha256: "",
        size: 0,
      };
      await this.saveUnit({ index: REPORTS_UNIT, parent: null, depth: 0, file, status: "pending", attempt: 0 });
    } catch (err) {
      // The result is still delivered, without reports.
      logAnalysis("reports-failed", { analysisId: state.analysisId, error: String(err) });
      await this.saveUnit({
        index: REPORTS_UNIT,
        parent: null,
        depth: 0,
        file: { name: "reports", key: "", kind: "unknown", mimeType: "application/json", sha256: "", size: 0 },
        status: "failed",
        attempt: MAX_ATTEMPTS,
      });
    }
    await this.advance(state);
  }

  /**
   * The result the reports were made from (saved by startReports: files gathered, case analyses run),
   * so both say the same and the case step runs once; gathered afresh only when that step failed.
   */
  private async finalResult(state: GateState, units: Map<number, UnitRecord>): Promise<Gathered> {
    const saved = await this.env.BUCKET.get(gatheredKey(state.job.stagingPrefix));
    if (saved) return saved.json<Gathered>();
    const gathered = await gatherResult(this.env.BUCKET, state.job, units, state.budget.fileTimeoutS);
    await (await caseWork()).caseAnalyses(this.env, state.job, state.analysisId, gathered);
    return gathered;
  }

  private async settle(state: GateState, units: Map<number, UnitRecord>): Promise<void> {
    let next: GateState;
    try {
      const { attachments, ...result } = await this.finalResult(state, units);
      const reports = await reportsOf(this.env.BUCKET, units.get(REPORTS_UNIT)?.outputKey);
      const resultKey = await saveResult(this.env.BUCKET, {
        ...result,
        modelVersions: modelVersions(await analyzerSets.pick(state.job.analyzers)()),
        analysisId: state.analysisId,
        caseNumber: state.job.caseNumber,
        pdfReportMapping: reports.mapping,
        attachments: [...reports.attachments, ...attachments],
      });
      next = {
        ...state,
        status: "done",
        resultKey,
        tokens: result.tokensConsumed,
        suspicionLevel: result.suspicion_level,
      };
      logAnalysis("done", {
        analysisId: state.analysisId,
        files: Object.keys(result.Files).length,
        level: result.suspicion_level,
        ms: clock.nowMs() - state.startedAt,
      });
    } catch (err) {
      logAnalysis("failed", { analysisId: state.analysisId, error: String(err) });
      next = { ...state, status: "failed" };
    }
    await this.ctx.storage.put("state", next);
    await this.ctx.storage.delete([...units.keys()].map(unitKey));
    await this.ctx.storage.setAlarm(Date.now() + limits(this.env).retentionS * 1000);
    await deletePrefix(this.env.BUCKET, state.job.stagingPrefix);
    await finishAnalysis(getDb(this.env.DB), state.analysisId, {
      status: next.status,
      resultKey: next.resultKey ?? null,
      tokens: next.tokens ?? null,
      suspicionLevel: next.suspicionLevel ?? null,
      finishedAt: clock.now(),
    });
    this.finished.get(state.analysisId)?.(next);
    this.finished.delete(state.analysisId);
  }

  private async wait(finished: Promise<GateState>, timeoutS: number): Promise<GateOutcome> {
    const outcome = await settleWithin(finished, timeoutS * 1000, null);
    if (!outcome) return { kind: "timeout", adoptedInput: true };
    if (outcome.status === "failed") return { kind: "failed", adoptedInput: true };
    return this.deliver(outcome, true);
  }

  private async deliver(state: GateState, adoptedInput: boolean): Promise<GateOutcome> {
    await this.ctx.storage.put("state", { ...state, delivered: true });
    return {
      kind: "result",
      analysisId: state.analysisId,
      resultKey: state.resultKey!,
      tokens: state.tokens!,
      adoptedInput,
      firstDelivery: !state.delivered,
    };
  }

  private async forget(state: GateState): Promise<void> {
    await deleteResult(this.env.BUCKET, state.analysisId);
    await this.ctx.storage.deleteAll();
  }

  private exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step, step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private expect(analysisId: string): Promise<GateState> {
    return new Promise((resolve) => this.finished.set(analysisId, resolve));
  }

  private state(): Promise<GateState | undefined> {
    return this.ctx.storage.get<GateState>("state");
  }

  private unit(index: number): Promise<UnitRecord | undefined> {
    return this.ctx.storage.get<UnitRecord>(unitKey(index));
  }

  private async units(): Promise<Map<number, UnitRecord>> {
    // Listed in key order, and the keys are zero-padded indexes: the map is in index order.
    const stored = await this.ctx.storage.list<UnitRecord>({ prefix: "unit:" });
    return new Map([...stored.values()].map((unit) => [unit.index, unit]));
  }

  private saveUnit(unit: UnitRecord): Promise<void> {
    return this.ctx.storage.put(unitKey(unit.index), unit);
  }
}

const unitKey = (index: number) => `unit:${String(index).padStart(6, "0")}`;

/** The gate of a request digest. */
export function gateFor(env: Env, digest: string) {
  return env.ANALYSIS_GATE.get(env.ANALYSIS_GATE.idFromName(digest));
}

import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../env";
import { gateFor } from "./analysis-gate";
import { acquireSlot } from "./isolate-slots";
import type { UnitReport, UnitTask } from "./job";
import { lazily } from "../../lib/isolate-once";
import { logAnalysis } from "./log";

/** The file and report work (detectors, decoders, PDF layout) loads with a unit's first task, not with every request. */
const fileWork = lazily(() => import("./run-unit"));
const reportWork = lazily(() => import("../reports/report-unit"));

/** What a unit says when its gate asks after it (null: it holds no task — finished, never started or lost). */
export type UnitProgress = { phase: "waiting" } | { phase: "running"; startedAt: number } | null;

/**
 * One file of one analysis (DESIGN §19), one instance per analysis, file and attempt. `start`
 * only stores the task and sets an alarm, so the gate is answered at once; the alarm is the unit's
 * own invocation with its own CPU budget, and the platform re-runs it when it dies. A re-run does
 * not analyse again: it reports the interruption, and the gate decides (a fresh attempt, or `-`).
 */
export class AnalysisUnit extends DurableObject<Env> {
  private progressNow: UnitProgress = null;

  async start(task: UnitTask, leaseMs: number): Promise<void> {
    await this.ctx.storage.put({ task, leaseMs });
    await this.ctx.storage.setAlarm(Date.now());
  }

  async progress(): Promise<UnitProgress> {
    if (this.progressNow) return this.progressNow;
    return (await this.ctx.storage.get("task")) ? { phase: "waiting" } : null;
  }

  override async alarm(info?: AlarmInvocationInfo): Promise<void> {
    const task = await this.ctx.storage.get<UnitTask>("task");
    if (!task) return;
    let report = await this.ctx.storage.get<UnitReport>("report");
    if (!report) {
      report = info?.retryCount ? { ok: false, reason: "the unit's run was interrupted" } : await this.run(task);
      await this.ctx.storage.put("report", report);
    }
    await gateFor(this.env, task.digest).unitFinished(task.analysisId, task.index, task.attempt, report);
    await this.ctx.storage.deleteAll();
  }

  private async run(task: UnitTask): Promise<UnitReport> {
    this.progressNow = { phase: "waiting" };
    const release = await acquireSlot((await this.ctx.storage.get<number>("leaseMs")) ?? 60_000);
    this.progressNow = { phase: "running", startedAt: Date.now() };
    try {
      if (task.kind === "reports") return await (await reportWork()).runReportUnit(this.env, task);
      return await (await fileWork()).runUnit(this.env, task);
    } catch (err) {
      logAnalysis("unit-error", {
        analysisId: task.analysisId,
        unit: task.index,
        attempt: task.attempt,
        error: String(err),
      });
      return { ok: false, reason: String(err) };
    } finally {
      release();
      this.progressNow = null;
    }
  }
}

/** The unit of one file and attempt of an analysis. */
export function unitFor(env: Env, analysisId: string, index: number, attempt: number) {
  return env.ANALYSIS_UNIT.get(env.ANALYSIS_UNIT.idFromName(`${analysisId}/${index}/${attempt}`));
}

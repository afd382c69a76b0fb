/**
 * The reports' unit of work (DESIGN §19, §20): after every file of a run has ended, the gate saves the
 * gathered result and hands it to one more AnalysisUnit invocation, which builds both PDFs here — with
 * its own CPU budget and memory, never in the gate. Pictures are read from R2 one at a time while the
 * analysis report is laid out; each PDF goes to R2 as soon as it is saved.
 */
import type { Env } from "../../env";
import { clock } from "../../lib/clock";
import type { PipelineResult } from "../analysis/file-result";
import { attachmentKeyPrefix, type StoredAttachment } from "../execution/results";
import { unitOutputKey, type UnitReport, type UnitTask } from "../execution/job";
import { logAnalysis } from "../execution/log";
import { buildAnalysisReport } from "./analysis-report";
import { buildEnfsiReport } from "./enfsi-report";
import { workerFonts } from "./fonts";
import type { ReportInput } from "./report-input";

/** The gathered result as the gate saves it for this unit. */
export type GatheredResult = PipelineResult & { attachments: StoredAttachment[] };

/** What the reports unit leaves for the gate: the two PDFs (stored) and `pdfReportMapping`. */
export interface ReportsOutput {
  attachments: StoredAttachment[];
  mapping: Record<string, number>;
}

/** The builders the unit calls (tests replace one to see a run delivered without reports). */
export const reportBuilders = { analysis: buildAnalysisReport, enfsi: buildEnfsiReport };

export async function runReportUnit(env: Env, task: UnitTask): Promise<UnitReport> {
  const object = await env.BUCKET.get(task.file.key);
  if (!object) throw new Error(`gathered result ${task.file.key} is missing`);
  const gathered = await object.json<GatheredResult>();
  const started = Date.now();
  const keys = new Map(gathered.attachments.map((a) => [`${a.category}/${a.name}`, a.key]));
  const input: ReportInput = {
    language: task.language,
    caseNumber: task.caseNumber,
    sessionId: task.analysisId,
    createdAt: clock.now(),
    issueDate: task.issueDate,
    level: gathered.suspicion_level,
    files: gathered.Files,
    modelVersions: gathered.modelVersions,
    fonts: workerFonts,
    attachment: async (ref) => {
      const key = keys.get(ref);
      const stored = key ? await env.BUCKET.get(key) : null;
      return stored ? new Uint8Array(await stored.arrayBuffer()) : null;
    },
  };
  const prefix = attachmentKeyPrefix(task.analysisId, task.index);
  const store = async (category: StoredAttachment["category"], name: string, pdf: Uint8Array) => {
    const key = `${prefix}${category}`;
    await env.BUCKET.put(key, pdf, { httpMetadata: { contentType: "application/pdf" } });
    return { category, name, contentType: "application/pdf", size: pdf.length, key };
  };
  // Each PDF is stored as soon as it is saved; only its mapping and page count are kept (not its bytes).
  const { mapping, pages, attachment } = await reportBuilders.analysis(input).then(async ({ pdf, ...rest }) => ({
    ...rest,
    attachment: await store("analysis_report", "analysis_report.pdf", pdf),
  }));
  const attachments = [attachment, await store("enfsi_report", "enfsi_report.pdf", await reportBuilders.enfsi(input))];
  const output: ReportsOutput = { attachments, mapping };
  const outputKey = unitOutputKey(task.stagingPrefix, task.index);
  await env.BUCKET.put(outputKey, JSON.stringify(output));
  logAnalysis("reports", {
    analysisId: task.analysisId,
    files: Object.keys(gathered.Files).length,
    pages,
    bytes: attachments.reduce((n, a) => n + a.size, 0),
    ms: Date.now() - started,
  });
  return { ok: true, outputKey, extracted: [] };
}

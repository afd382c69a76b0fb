import type { Env } from "../env";
import { clock } from "../lib/clock";
import { intakeArchive, r2Source } from "./intake";
import { runPipeline } from "./pipeline";
import { attachmentCollector, saveResult } from "./results";
import type { Language } from "./types";

/** Everything needed to run one analysis later: kept by the gate, run from the queue (plain data: it crosses RPC and storage). */
export interface AnalysisJob {
  accountId: string;
  caseNumber: string;
  digest: string;
  language: Language;
  /** ISO date-time or null. */
  issueDate: string | null;
  /** R2 key of the ZIP to analyse. */
  inputKey: string;
  /** Direct uploads are copied to R2 only for the run; presigned uploads are deleted on delivery instead. */
  deleteInputAfterRun: boolean;
}

export interface AnalysisOutcome {
  resultKey: string;
  tokens: number;
  suspicionLevel: string;
}

/** Streams the archive from R2 through the pipeline; attachments go to R2 as they are made. */
export async function runAnalysis(env: Env, job: AnalysisJob, analysisId: string): Promise<AnalysisOutcome> {
  const source = await r2Source(env.BUCKET, job.inputKey);
  if (!source) throw new Error(`analysis input ${job.inputKey} is missing`);
  const ctx = { language: job.language, issueDate: job.issueDate ? new Date(job.issueDate) : null, now: clock.now(), caseNumber: job.caseNumber };
  const { sink, index } = attachmentCollector(env.BUCKET, analysisId);
  const result = await runPipeline(intakeArchive(source), ctx, sink);
  const resultKey = await saveResult(env.BUCKET, { ...result, analysisId, caseNumber: job.caseNumber, attachments: index });
  return { resultKey, tokens: result.tokensConsumed, suspicionLevel: result.suspicion_level };
}

import type { Env } from "../../env";
import type { PipelineResult } from "../analysis/file-result";
import { type CrossFileAnalyses, crossFileAnalyses } from "../cross-file/analyses";
import { agenticRecommendation, type Recommendation } from "../cross-file/recommendation";
import type { AnalysisJob } from "../execution/job";
import { logAnalysis } from "../execution/log";
import type { StoredAttachment } from "../execution/results";
import { reverseSearch } from "../similarity/reverse-search";

/** The case-level add-ons of a result (spec 2.6), computed once per run and stored with it. */
export interface CaseAnalyses {
  /** `cross_file_analyses` (add-on `crossFileAnalyses`). */
  crossFileAnalyses: CrossFileAnalyses;
  /** `agenticRecommendation` (add-on). */
  agenticRecommendation: Recommendation;
}

/**
 * What the gate does once every file has reported (docs/reverse-search.md): reverse search across
 * the account's earlier cases (findings and `downloads` on the files), then the cross-file analyses
 * and the recommendation over all findings. Deterministic for a run, so it may run again on a new
 * gathering of the same units. Never throws: a failure leaves the add-ons out, the result stands.
 */
export async function caseAnalyses(
  env: Env,
  job: AnalysisJob,
  analysisId: string,
  gathered: PipelineResult & { attachments: StoredAttachment[] },
): Promise<void> {
  await reverseSearch(env, job, analysisId, gathered);
  try {
    const cross = crossFileAnalyses(gathered.Files, { language: job.language, issueDate: job.issueDate });
    gathered.caseAnalyses = {
      crossFileAnalyses: cross,
      agenticRecommendation: agenticRecommendation(gathered.Files, cross.findings, job.language),
    };
  } catch (err) {
    logAnalysis("case-analyses-failed", { analysisId, error: String(err) });
  }
}

import { cooperative } from "../../lib/cooperate";
import { planDecode } from "../images/file-decode";
import { highestLevel } from "../finding";
import { analyzers as registeredAnalyzers } from "../forensics/registry";
import type { IntakeItem } from "../intake";
import { modelVersions } from "./analyzer-sets";
import { corroboratedRegions } from "./corroboration";
import { analyzerFailed } from "./pipeline-findings";
import { brokenResult, type FileResult, type PipelineResult, unassessedResult, uniqueName } from "./file-result";
import { priceOf } from "./pricing";
import type { Analyzer, AnalyzerResult, Attachment, ScanContext, ScanFile } from "../types";

/** Where attachments go as soon as they are made, so they never pile up in memory. Returns the stored name. */
export type AttachmentSink = (attachment: Attachment) => Promise<string>;

/** Extracted files of extracted files are analysed too, but no deeper than this. */
const MAX_EXTRACTION_DEPTH = 2;

/**
 * Runs every registered analyzer on every file, one file at a time, in registry order,
 * then on the files they extract. Analyzer failures become `-` findings, never a failed request.
 * In-process reference of what the service spreads over units (src/scanner/execution/): tests and eval.
 */
export async function runPipeline(
  items: AsyncIterable<IntakeItem>,
  ctx: ScanContext,
  sink: AttachmentSink,
  analyzers: Analyzer[] = registeredAnalyzers,
): Promise<PipelineResult> {
  const files: Record<string, FileResult> = {};
  let tokens = 0;
  for await (const item of items) {
    if (!item.ok) {
      files[item.name] = brokenResult(item, ctx.language);
      tokens += priceOf("broken", { extracted: false, assessed: false });
      continue;
    }
    const queue: { file: ScanFile; depth: number }[] = [{ file: item.file, depth: 0 }];
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { result, assessed, extracted } = await analyzeFile(next.file, ctx, sink, analyzers);
      files[uniqueName(files, next.file.name)] = result;
      tokens += priceOf(next.file.kind, { extracted: next.depth > 0, assessed });
      if (next.depth < MAX_EXTRACTION_DEPTH) queue.push(...extracted.map((file) => ({ file, depth: next!.depth + 1 })));
    }
  }
  return {
    suspicion_level: highestLevel(Object.values(files).map((f) => f.suspicion_level)),
    Files: files,
    tokensConsumed: tokens,
    modelVersions: modelVersions(analyzers),
  };
}

/** How one analyzer went on one file, for the structured logs. */
export interface AnalyzerTiming {
  analyzer: string;
  ms: number;
  outcome: "assessed" | "not-assessed" | "failed";
}

/** Every applicable analyzer on one file, in registry order: its result, whether it was assessed, the files it contains. */
export async function analyzeFile(
  file: ScanFile,
  ctx: ScanContext,
  sink: AttachmentSink,
  analyzers: Analyzer[] = registeredAnalyzers,
) {
  const result = unassessedResult(file);
  const extracted: ScanFile[] = [];
  const timings: AnalyzerTiming[] = [];
  let assessed = false;
  const turn = cooperative(1);
  // One pixel decode for every detector that reads pixels: the first one asking builds what all of them read.
  planDecode(
    file.bytes,
    analyzers.filter((a) => safeAppliesTo(a, file)).flatMap((a) => a.reads ?? []),
  );
  for (const analyzer of analyzers) {
    if (!safeAppliesTo(analyzer, file)) continue;
    await turn();
    const started = Date.now();
    const outcome = await runOne(analyzer, file, ctx);
    timings.push({
      analyzer: analyzer.id,
      ms: Date.now() - started,
      outcome: outcome.failed ? "failed" : outcome.assessed ? "assessed" : "not-assessed",
    });
    result.findings.push(...outcome.findings);
    if (outcome.metadata) result.metadata[analyzer.id] = outcome.metadata;
    for (const attachment of outcome.attachments ?? []) result.attachments.push(await sink(attachment));
    extracted.push(...(outcome.extracted ?? []));
    if (!outcome.assessed && analyzer.gate) {
      assessed = false;
      break;
    }
    assessed ||= outcome.assessed;
  }
  result.findings.push(...corroboratedRegions(result.findings, ctx.language));
  result.suspicion_level = assessed ? highestLevel(["Green", ...result.findings.map((f) => f.level)]) : "-";
  return { result, assessed, extracted, timings };
}

async function runOne(
  analyzer: Analyzer,
  file: ScanFile,
  ctx: ScanContext,
): Promise<AnalyzerResult & { failed?: true }> {
  try {
    return await analyzer.analyze(file, ctx);
  } catch (err) {
    console.error("analyzer failed", analyzer.id, file.name, err);
    return { assessed: false, findings: [analyzerFailed(ctx.language, analyzer.id)], failed: true };
  }
}

function safeAppliesTo(analyzer: Analyzer, file: ScanFile): boolean {
  try {
    return analyzer.appliesTo(file);
  } catch {
    return false;
  }
}

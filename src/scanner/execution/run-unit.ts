import type { Env } from "../../env";
import { analyzerSets } from "../analysis/analyzer-sets";
import { analyzeFile } from "../analysis/pipeline";
import { attachmentCollector, attachmentKeyPrefix } from "./results";
import type { ScanContext, ScanFile } from "../types";
import {
  extractedFileKey,
  unitOutputKey,
  type StagedFile,
  type UnitOutput,
  type UnitReport,
  type UnitTask,
} from "./job";
import { logAnalysis } from "./log";

/**
 * One unit of work: one file through every applicable analyzer. Reads the staged bytes, writes
 * attachments and the per-file result to R2, stages the files found inside for their own units.
 */
export async function runUnit(env: Env, task: UnitTask): Promise<UnitReport> {
  const object = await env.BUCKET.get(task.file.key);
  if (!object) throw new Error(`staged file ${task.file.key} is missing`);
  const { key: _key, ...meta } = task.file;
  const file: ScanFile = { ...meta, bytes: new Uint8Array(await object.arrayBuffer()) };
  const ctx: ScanContext = {
    language: task.language,
    issueDate: task.issueDate ? new Date(task.issueDate) : null,
    now: new Date(task.nowMs),
    caseNumber: task.caseNumber,
  };
  const { sink, index } = attachmentCollector(env.BUCKET, attachmentKeyPrefix(task.analysisId, task.index));
  const started = Date.now();
  const { result, assessed, extracted, timings } = await analyzeFile(
    file,
    ctx,
    sink,
    await analyzerSets.pick(task.analyzers)(),
  );
  const staged = await stageExtracted(env.BUCKET, task, extracted);
  const output: UnitOutput = { result, assessed, attachments: index, extracted: staged };
  const outputKey = unitOutputKey(task.stagingPrefix, task.index);
  await env.BUCKET.put(outputKey, JSON.stringify(output));
  const ids = { analysisId: task.analysisId, unit: task.index, attempt: task.attempt };
  for (const timing of timings) logAnalysis("analyzer", { ...ids, ...timing });
  logAnalysis("file", {
    ...ids,
    kind: file.kind,
    size: file.size,
    ms: Date.now() - started,
    level: result.suspicion_level,
    extracted: staged.length,
  });
  return { ok: true, outputKey, extracted: staged };
}

async function stageExtracted(bucket: R2Bucket, task: UnitTask, files: ScanFile[]): Promise<StagedFile[]> {
  const staged: StagedFile[] = [];
  for (const [n, { bytes, ...meta }] of files.entries()) {
    const key = extractedFileKey(task.stagingPrefix, task.index, n);
    await bucket.put(key, bytes);
    staged.push({ ...meta, key });
  }
  return staged;
}

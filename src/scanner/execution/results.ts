import { deletePrefix } from "../../lib/r2";
import type { AttachmentSink } from "../analysis/pipeline";
import type { PipelineResult } from "../analysis/file-result";
import type { ReportsOutput } from "../reports/report-unit";
import type { AttachmentCategory } from "../types";

/** An attachment kept in R2 next to its analysis result. */
export interface StoredAttachment {
  category: AttachmentCategory;
  name: string;
  contentType: string;
  size: number;
  key: string;
}

/** What an analysis leaves in R2 (`analyses.resultKey`): the pipeline result and its attachment index. */
export interface StoredResult extends PipelineResult {
  analysisId: string;
  caseNumber: string;
  attachments: StoredAttachment[];
  /** Each filename → the first page of its detail view in the analysis report; `{}` without a report. */
  pdfReportMapping?: Record<string, number>;
}

const prefix = (analysisId: string) => `results/${analysisId}/`;
export const resultKeyOf = (analysisId: string) => `${prefix(analysisId)}result.json`;

/**
 * A sink that writes each attachment to R2 at once under `keyPrefix` + a counter, named uniquely
 * within its category. Keys never contain file names: names are the caller's, unbounded in length.
 */
export function attachmentCollector(
  bucket: R2Bucket,
  keyPrefix: string,
): { sink: AttachmentSink; index: StoredAttachment[] } {
  const index: StoredAttachment[] = [];
  const taken = new Set<string>();
  const sink: AttachmentSink = async (attachment) => {
    const name = uniqueAttachmentName(taken, attachment.category, attachment.name);
    const key = `${keyPrefix}${index.length}`;
    await bucket.put(key, attachment.bytes, { httpMetadata: { contentType: attachment.contentType } });
    index.push({
      category: attachment.category,
      name,
      contentType: attachment.contentType,
      size: attachment.bytes.length,
      key,
    });
    return `${attachment.category}/${name}`;
  };
  return { sink, index };
}

/** `name` (path separators replaced), or `<n>-name` when its category already has one by that name; marks it taken. */
export function uniqueAttachmentName(taken: Set<string>, category: string, wanted: string): string {
  const base = wanted.replace(/[\\/]/g, "_");
  let name = base;
  for (let n = 2; taken.has(`${category}/${name}`); n++) name = `${n}-${base}`;
  taken.add(`${category}/${name}`);
  return name;
}

/** Where a run's attachments live: `results/<analysisId>/att/<unit>/<n>` (or a gate step's name instead of the unit). */
export const attachmentKeyPrefix = (analysisId: string, unit: number | string) => `${prefix(analysisId)}att/${unit}/`;

export async function saveResult(bucket: R2Bucket, result: StoredResult): Promise<string> {
  const key = resultKeyOf(result.analysisId);
  await bucket.put(key, JSON.stringify(result), { httpMetadata: { contentType: "application/json" } });
  return key;
}

export async function loadResult(bucket: R2Bucket, key: string): Promise<StoredResult | null> {
  const object = await bucket.get(key);
  return object ? object.json<StoredResult>() : null;
}

/** Removes the result and all its attachments (retention clean-up). */
export function deleteResult(bucket: R2Bucket, analysisId: string): Promise<void> {
  return deletePrefix(bucket, prefix(analysisId));
}

/** The reports of a run's reports unit, or none (it timed out or failed: the result goes out without them). */
export async function reportsOf(bucket: R2Bucket, outputKey: string | undefined): Promise<ReportsOutput> {
  const object = outputKey ? await bucket.get(outputKey) : null;
  return object ? object.json<ReportsOutput>() : { attachments: [], mapping: {} };
}

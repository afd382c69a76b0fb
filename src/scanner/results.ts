import type { AttachmentSink, PipelineResult } from "./pipeline";
import type { AttachmentCategory } from "./types";

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
}

const prefix = (analysisId: string) => `results/${analysisId}/`;
export const resultKeyOf = (analysisId: string) => `${prefix(analysisId)}result.json`;

/** A sink that writes each attachment to R2 at once under a name unique within its category. */
export function attachmentCollector(bucket: R2Bucket, analysisId: string): { sink: AttachmentSink; index: StoredAttachment[] } {
  const index: StoredAttachment[] = [];
  const taken = new Set<string>();
  const sink: AttachmentSink = async (attachment) => {
    let name = attachment.name.replace(/[\\/]/g, "_");
    for (let n = 2; taken.has(`${attachment.category}/${name}`); n++) name = `${n}-${attachment.name.replace(/[\\/]/g, "_")}`;
    const stored = `${attachment.category}/${name}`;
    taken.add(stored);
    const key = `${prefix(analysisId)}att/${stored}`;
    await bucket.put(key, attachment.bytes, { httpMetadata: { contentType: attachment.contentType } });
    index.push({ category: attachment.category, name, contentType: attachment.contentType, size: attachment.bytes.length, key });
    return stored;
  };
  return { sink, index };
}

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
export async function deleteResult(bucket: R2Bucket, analysisId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: prefix(analysisId), cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

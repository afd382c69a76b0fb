import { highestLevel } from "../finding";
import {
  brokenResult,
  uniqueName,
  unassessedResult,
  type FileResult,
  type PipelineResult,
} from "../analysis/file-result";
import { fileAnalysisLost, fileTimedOut } from "../analysis/pipeline-findings";
import { priceOf } from "../analysis/pricing";
import { uniqueAttachmentName, type StoredAttachment } from "./results";
import type { AnalysisJob, StagedFile, UnitOutput } from "./job";

/** The gate's record of one unit of work (one file). */
export interface UnitRecord {
  index: number;
  /** The unit whose file contained this one (PDF images), or null for a file of the archive. */
  parent: number | null;
  depth: number;
  file: StagedFile;
  status: "pending" | "running" | "done" | "timeout" | "failed";
  attempt: number;
  dispatchedAt?: number;
  deadlineMs?: number;
  outputKey?: string;
}

/**
 * The 2.6 result from the units' outputs: files in archive order, each followed by the files found
 * inside it; names and attachment names made unique across the run; timed-out and lost files `-`.
 */
export async function gatherResult(
  bucket: R2Bucket,
  job: AnalysisJob,
  units: Map<number, UnitRecord>,
  fileTimeoutS: number,
): Promise<PipelineResult & { attachments: StoredAttachment[] }> {
  const files: Record<string, FileResult> = {};
  const attachments: StoredAttachment[] = [];
  const taken = new Set<string>();
  let tokens = 0;
  const children = childrenOf(units);

  const addUnit = async (unit: UnitRecord): Promise<void> => {
    const output = await readOutput(bucket, unit);
    const result = output
      ? withUniqueAttachments(output, taken, attachments)
      : unassessedResult(unit.file, [
          unit.status === "timeout"
            ? fileTimedOut(job.language, fileTimeoutS)
            : fileAnalysisLost(job.language, unit.attempt),
        ]);
    files[uniqueName(files, unit.file.name)] = result;
    tokens += priceOf(unit.file.kind, { extracted: unit.depth > 0, assessed: output?.assessed ?? false });
    for (const child of children.get(unit.index) ?? []) await addUnit(child);
  };

  for (const [index, item] of job.items.entries()) {
    if (item.ok) await addUnit(units.get(index)!);
    else {
      files[uniqueName(files, item.name)] = brokenResult(item, job.language);
      tokens += priceOf("broken", { extracted: false, assessed: false });
    }
  }
  return {
    suspicion_level: highestLevel(Object.values(files).map((f) => f.suspicion_level)),
    Files: files,
    tokensConsumed: tokens,
    modelVersions: {},
    attachments,
  };
}

function childrenOf(units: Map<number, UnitRecord>): Map<number, UnitRecord[]> {
  const children = new Map<number, UnitRecord[]>();
  // `units` is in index order, so each parent's children are too.
  for (const unit of units.values()) {
    if (unit.parent === null) continue;
    const siblings = children.get(unit.parent) ?? [];
    siblings.push(unit);
    children.set(unit.parent, siblings);
  }
  return children;
}

async function readOutput(bucket: R2Bucket, unit: UnitRecord): Promise<UnitOutput | null> {
  if (unit.status !== "done" || !unit.outputKey) return null;
  const object = await bucket.get(unit.outputKey);
  return object ? object.json<UnitOutput>() : null;
}

/** The unit's result with its attachments renamed where another file of the run already used the name. */
function withUniqueAttachments(output: UnitOutput, taken: Set<string>, into: StoredAttachment[]): FileResult {
  const renamed = new Map<string, string>();
  for (const attachment of output.attachments) {
    const name = uniqueAttachmentName(taken, attachment.category, attachment.name);
    renamed.set(`${attachment.category}/${attachment.name}`, `${attachment.category}/${name}`);
    into.push({ ...attachment, name });
  }
  return { ...output.result, attachments: output.result.attachments.map((a) => renamed.get(a) ?? a) };
}

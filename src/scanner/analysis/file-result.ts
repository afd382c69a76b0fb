/**
 * The result shapes of DESIGN §18 and the results a file gets without its analyzers (not assessed,
 * not extractable): what the gate gathers, without loading the detectors.
 */
import type { CaseAnalyses } from "../response/addons";
import type { Finding, Language, ScanFile, SuspicionLevel } from "../types";
import { extractionFailed } from "./pipeline-findings";

/** The per-file result of DESIGN §18 (`Files[name]`). */
export interface FileResult {
  suspicion_level: SuspicionLevel;
  type: "image" | "pdf" | "other";
  mimeType: string;
  sha256: string | null;
  size: number;
  source?: { parent: string; page: number };
  findings: Finding[];
  metadata: Record<string, unknown>;
  /** `<category>/<name>` of every attachment generated for this file. */
  attachments: string[];
}

export interface PipelineResult {
  suspicion_level: SuspicionLevel;
  Files: Record<string, FileResult>;
  tokensConsumed: number;
  modelVersions: Record<string, string>;
  /** Reverse search, cross-file analyses and recommendation, set by the gate once all files reported. */
  caseAnalyses?: CaseAnalyses;
}

/** A file's result before (or without) any analyzer: level `-`, no findings. */
export function unassessedResult(file: Omit<ScanFile, "bytes">, findings: Finding[] = []): FileResult {
  return {
    suspicion_level: "-",
    type: file.kind === "pdf" ? "pdf" : file.kind === "unknown" ? "other" : "image",
    mimeType: file.mimeType,
    sha256: file.sha256,
    size: file.size,
    ...(file.source ? { source: file.source } : {}),
    findings,
    metadata: {},
    attachments: [],
  };
}

/** The result of an archive entry that could not be extracted. */
export function brokenResult(
  item: { size: number; problem: "corrupt" | "unsupported-compression" },
  language: Language,
): FileResult {
  return {
    suspicion_level: "-",
    type: "other",
    mimeType: "application/octet-stream",
    sha256: null,
    size: item.size,
    findings: [extractionFailed(language, item.problem)],
    metadata: {},
    attachments: [],
  };
}

/** Extracted names come from analyzers; never let one overwrite another file's result. */
export function uniqueName(files: Record<string, FileResult>, name: string): string {
  if (!(name in files)) return name;
  let n = 2;
  while (`${name} (${n})` in files) n++;
  return `${name} (${n})`;
}

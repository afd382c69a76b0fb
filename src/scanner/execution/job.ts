import type { FileResult } from "../analysis/file-result";
import type { StoredAttachment } from "./results";
import type { Language, ScanFile } from "../types";

/** A file of the request, its bytes staged in R2 for the unit that analyses it (plain data: crosses RPC and storage). */
export interface StagedFile extends Omit<ScanFile, "bytes"> {
  /** R2 key of the file's bytes. */
  key: string;
}

/** An archive entry: staged for analysis, or one that could not be extracted (reported as `-`). */
export type StagedItem =
  | { ok: true; file: StagedFile }
  | { ok: false; name: string; size: number; problem: "corrupt" | "unsupported-compression" };

/** Everything needed to run one analysis: kept by the gate, its files analysed by units. */
export interface AnalysisJob {
  accountId: string;
  caseNumber: string;
  digest: string;
  language: Language;
  /** ISO date-time or null. */
  issueDate: string | null;
  /** R2 prefix of the staged files; the run deletes it when it ends. */
  stagingPrefix: string;
  items: StagedItem[];
  /** The analyzer set (setting `ANALYZERS`) every unit of this run uses. */
  analyzers: string;
}

/** What one unit of work (one file) is handed. */
export interface UnitTask {
  analysisId: string;
  digest: string;
  index: number;
  attempt: number;
  file: StagedFile;
  language: Language;
  issueDate: string | null;
  caseNumber: string;
  stagingPrefix: string;
  analyzers: string;
  /** The run's clock reading, so that every file of a run judges dates against the same "now". */
  nowMs: number;
  /** `reports`: the unit after all files, building both report PDFs from the gathered result in `file.key`. */
  kind?: "file" | "reports";
}

/** A unit's per-file result as stored in R2 (`unitOutputKey`). */
export interface UnitOutput {
  result: FileResult;
  assessed: boolean;
  /** Attachments keyed by unit, named within the unit; made unique across the run when gathered. */
  attachments: StoredAttachment[];
  /** Files the analyzers found inside this one (PDF images), staged for their own units. */
  extracted: StagedFile[];
}

/** How a unit ended, as reported to its gate. */
export type UnitReport = { ok: true; outputKey: string; extracted: StagedFile[] } | { ok: false; reason: string };

export const unitOutputKey = (stagingPrefix: string, index: number) => `${stagingPrefix}out/${index}.json`;
export const extractedFileKey = (stagingPrefix: string, index: number, n: number) => `${stagingPrefix}x/${index}-${n}`;

/**
 * The unit that builds the reports once every file has ended (src/scanner/reports/report-unit.ts): an
 * index above any file's, so it sorts last and is never taken for a file of the archive.
 */
export const REPORTS_UNIT = 999_999;
/** The gathered result the reports unit reads (the 2.6 result without reports, with the attachment index). */
export const gatheredKey = (stagingPrefix: string) => `${stagingPrefix}gathered.json`;

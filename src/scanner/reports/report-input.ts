import { rgb } from "pdf-lib";
import type { FileResult } from "../analysis/file-result";
import type { Finding, Language, SuspicionLevel } from "../types";
import { formatDateTime, t } from "./i18n";
import type { FontFiles } from "./layout";

/** What both reports are made from: the gathered result of one analysis (DESIGN §18, §20). */
export interface ReportInput {
  language: Language;
  caseNumber: string;
  /** The analysis run's id: the sessionId of the response that first delivers it. */
  sessionId: string;
  createdAt: Date;
  /** The request's issueDate (ISO) or null. */
  issueDate: string | null;
  level: SuspicionLevel;
  /** Files in the order of the response: archive order, extracted images right after their parent. */
  files: Record<string, FileResult>;
  modelVersions: Record<string, string>;
  fonts: FontFiles;
  /** The bytes of an attachment by its `<category>/<name>`, read when needed (one at a time); null if gone. */
  attachment(ref: string): Promise<Uint8Array | null>;
}

export const levelColors: Record<SuspicionLevel, ReturnType<typeof rgb>> = {
  Red: rgb(0.8, 0.12, 0.12),
  Yellow: rgb(0.93, 0.7, 0.05),
  Green: rgb(0.16, 0.6, 0.25),
  "-": rgb(0.55, 0.55, 0.58),
};

const order: SuspicionLevel[] = ["Red", "Yellow", "Green", "-"];
export const byLevel = (a: { level: SuspicionLevel }, b: { level: SuspicionLevel }) =>
  order.indexOf(a.level) - order.indexOf(b.level);

/** The findings of the whole case that carry a level of Yellow or Red, strongest first. */
export function strongestFindings(
  files: Record<string, FileResult>,
  limit: number,
): { file: string; finding: Finding }[] {
  return Object.entries(files)
    .flatMap(([file, result]) => result.findings.map((finding) => ({ file, finding, level: finding.level })))
    .filter((f) => f.level === "Red" || f.level === "Yellow")
    .sort(byLevel)
    .slice(0, limit);
}

/** Evidence values as short text: numbers and strings as they are, anything else as compact JSON, cut at `max`. */
export function evidenceText(value: unknown, max = 240): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The rows both reports open with: case number, session, creation and (when given) issue date. */
export function caseRows(input: ReportInput): [string, string][] {
  const words = t(input.language);
  const rows: [string, string][] = [
    [words.caseNumber, input.caseNumber],
    [words.sessionId, input.sessionId],
    [words.createdAt, formatDateTime(input.createdAt, input.language)],
  ];
  if (input.issueDate) rows.push([words.issueDate, formatDateTime(new Date(input.issueDate), input.language)]);
  return rows;
}

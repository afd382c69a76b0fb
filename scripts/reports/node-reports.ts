// The reports built in Node (render script, bench, the poppler test): the font files come from the
// file system instead of the Worker's Data modules.
import { readFileSync } from "node:fs";
import { buildAnalysisReport } from "../../src/scanner/reports/analysis-report";
import { buildEnfsiReport } from "../../src/scanner/reports/enfsi-report";
import type { ReportInput } from "../../src/scanner/reports/report-input";
import type { Language } from "../../src/scanner/types";

const fontDir = new URL("../../src/scanner/reports/fonts/", import.meta.url);
export const nodeFonts = {
  regular: new Uint8Array(readFileSync(new URL("DejaVuSans.ttf", fontDir))),
  bold: new Uint8Array(readFileSync(new URL("DejaVuSans-Bold.ttf", fontDir))),
};

/** Both reports of a 2.6 result (as the API returns it); `read` gives an attachment's bytes by `<category>/<name>`. */
export async function buildReports(
  result: {
    Files: ReportInput["files"];
    suspicion_level: ReportInput["level"];
    caseNumber: string;
    sessionId: string;
    modelVersions: Record<string, string>;
  },
  language: Language,
  read: (ref: string) => Promise<Uint8Array | null>,
  createdAt = new Date(),
) {
  const input: ReportInput = {
    language,
    caseNumber: result.caseNumber,
    sessionId: result.sessionId,
    createdAt,
    issueDate: null,
    level: result.suspicion_level,
    files: result.Files,
    modelVersions: result.modelVersions,
    fonts: nodeFonts,
    attachment: read,
  };
  const analysis = await buildAnalysisReport(input);
  const enfsi = await buildEnfsiReport(input);
  return { analysis, enfsi };
}

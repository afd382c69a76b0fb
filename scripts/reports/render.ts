// Builds both reports in Node from a case folder written by scripts/reports/real-case.mjs (result.json and
// the attachments by category) and writes analysis_report.pdf, enfsi_report.pdf and mapping.json next to it.
//   node --import tsx scripts/reports/render.ts /tmp/report-case [de|en|pl]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildReports } from "./node-reports";

const dir = process.argv[2] ?? "/tmp/report-case";
const result = JSON.parse(readFileSync(join(dir, "result.json"), "utf8"));
const language = process.argv[3] ?? "de";
const read = async (ref: string) => (existsSync(join(dir, ref)) ? new Uint8Array(readFileSync(join(dir, ref))) : null);
const started = performance.now();
const { analysis, enfsi } = await buildReports(result, language as "de", read);
writeFileSync(join(dir, "analysis_report.pdf"), analysis.pdf);
writeFileSync(join(dir, "enfsi_report.pdf"), enfsi);
writeFileSync(join(dir, "mapping.json"), JSON.stringify(analysis.mapping, null, 2));
console.log(
  `${Object.keys(result.Files).length} files: analysis ${analysis.pdf.length} B, enfsi ${enfsi.length} B, ${(performance.now() - started).toFixed(0)} ms`,
);

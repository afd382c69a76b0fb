// `npm run eval pdf`: revision counts vs qpdf on every shared PDF, false-positive rate on untouched
// single-revision ZUGFeRD invoices, detection of generated edits, robustness on all shared PDFs.
// Prints the figures and writes the "pdf" section of docs/forensics.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { generateInvoices, signedSources, signedThenModified, type GeneratedPdf } from "../datagen/pdf/corpus";
import { ALLOWED_AFTER_SIGNING, UNCHANGED_SINCE_SIGNING, signedFormCases } from "../datagen/pdf/signed-cases";
import { writeDocSection } from "../lib/doc-section.mjs";
import { getDocumentProxy } from "unpdf";
import { crossCheck, dataRoot, knownPassword, listFiles } from "../pdf/cross-check";
import { qpdfAvailable } from "../pdf/qpdf-revisions.mjs";
import { runPdfDetectors } from "../pdf/run-detectors";
import { splitRevisions } from "../../src/scanner/pdf/revisions";

const read = (path: string) => new Uint8Array(readFileSync(join(dataRoot, path)));
const pct = (a: number, b: number) => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)} %`);
const files = listFiles();

// 1. Revision counts against qpdf.
let agree = 0;
let versionsOk = 0;
let versionsTotal = 0;
const notClean: string[] = [];
if (!qpdfAvailable()) throw new Error("qpdf is not installed (apt-get install -y qpdf)");
for (const { path, note } of files) {
  const row = crossCheck(path, note);
  if (row.agree) agree++;
  else console.log(`DISAGREE ${path}: ours ${row.ours}, qpdf ${row.qpdf}`);
  if (row.qpdfClean) {
    versionsOk += row.versionsPassingCheck;
    versionsTotal += row.versions;
  }
  if (!row.qpdfClean) notClean.push(`${path} (${row.note})`);
}
console.log(
  `revisions: ${agree}/${files.length} agree with qpdf; earlier versions passing qpdf --check: ${versionsOk}/${versionsTotal}`,
);

// 1b. Every earlier version opens in pdf.js (what viewers and our own diff use).
let pdfjsOk = 0;
let pdfjsTotal = 0;
for (const { path } of files) {
  const bytes = read(path);
  for (const r of splitRevisions(bytes).revisions.slice(0, -1)) {
    pdfjsTotal++;
    const doc = await getDocumentProxy(bytes.slice(0, r.end), {
      password: knownPassword(path, files.find((f) => f.path === path)!.note) ?? "",
    }).catch(() => null);
    if (doc && doc.numPages > 0) pdfjsOk++;
    else console.log(`pdf.js cannot open ${path} rev${r.index}`);
    await doc?.loadingTask.destroy();
  }
}
console.log(`earlier versions opening in pdf.js: ${pdfjsOk}/${pdfjsTotal}`);

// 2. False positives on untouched single-revision ZUGFeRD invoices.
const untouched = files
  .map((f) => f.path)
  .filter((p) => p.startsWith("zugferd/") && splitRevisions(read(p)).revisions.length === 1);
const fp = { Green: 0, Yellow: 0, Red: 0, "-": 0 } as Record<string, number>;
const yellowCodes = new Map<string, number>();
for (const path of untouched) {
  const run = await runPdfDetectors(path, read(path));
  fp[run.level]++;
  if (run.level === "Red") console.log(`FALSE POSITIVE ${path}: ${run.codes.join(" ")}`);
  for (const c of run.codes.filter((c) => c.startsWith("Yellow"))) yellowCodes.set(c, (yellowCodes.get(c) ?? 0) + 1);
}
console.log(
  `untouched single-revision invoices: ${untouched.length}; Green ${fp.Green}, Yellow ${fp.Yellow}, Red ${fp.Red}`,
);

// 3. Detection of generated edits.
const generated: GeneratedPdf[] = await generateInvoices(10);
for (const path of signedSources) generated.push(await signedThenModified(path.split("/")[1], read(path)));
const byKind = new Map<string, { n: number; red: number; codes: Set<string> }>();
for (const g of generated) {
  const run = await runPdfDetectors(g.name, g.bytes);
  const entry = byKind.get(g.edit) ?? { n: 0, red: 0, codes: new Set<string>() };
  entry.n++;
  if (run.level === "Red") entry.red++;
  for (const c of run.codes.filter((c) => c.startsWith("Red"))) entry.codes.add(c.slice(4));
  byKind.set(g.edit, entry);
  if ((g.edit === "none") === (run.level === "Red"))
    console.log(`MISS ${g.name} (${g.edit}): ${run.level} ${run.codes.join(" ")}`);
}

// 3b. Signed PDFs judged like pyHanko's difference analysis: the shared pyHanko files against what
// pyHanko's tests assert, and the rebuilt allowed/suspicious cases (held-out pyHanko files stay out).
const signedRows: string[] = [];
let pyhankoOk = 0;
const pyhankoFiles = [
  ...ALLOWED_AFTER_SIGNING.map(([name, test]) => [name, `allowed changes (test_${test})`]),
  ...UNCHANGED_SINCE_SIGNING.map(([name, test]) => [name, `intact (${test.split(":")[0]})`]),
];
for (const [name, asserted] of pyhankoFiles) {
  const run = await runPdfDetectors(name, read(`pyhanko/${name}`));
  const sig = run.results["pdf-signatures"]?.findings ?? [];
  const ok = sig.length > 0 && sig.every((f) => f.level === "Green");
  if (ok && run.level !== "Red") pyhankoOk++;
  else console.log(`PYHANKO MISMATCH ${name}: ${sig.map((f) => `${f.level}:${f.code}`).join(" ")} (file ${run.level})`);
  signedRows.push(
    `| \`pyhanko/${name}\` | ${asserted} | ${sig.map((f) => `${f.level} ${f.code}`).join(", ")} | ${run.level} |`,
  );
}
const cases = signedFormCases();
let casesOk = 0;
for (const c of cases) {
  const run = await runPdfDetectors(`${c.name}.pdf`, c.bytes);
  const sig = run.results["pdf-signatures"]?.findings ?? [];
  const red = sig.some((f) => f.level === "Red");
  const ok = c.expected === "suspicious" ? red : !red && sig.every((f) => f.level === "Green");
  if (ok) casesOk++;
  else
    console.log(
      `SIGNED CASE MISS ${c.name}: expected ${c.expected}, ${sig.map((f) => `${f.level}:${f.code}`).join(" ")}`,
    );
  signedRows.push(
    `| ${c.name} (${c.pyhanko}) | ${c.expected} | ${sig.map((f) => `${f.level} ${f.code}`).join(", ")} | ${run.level} |`,
  );
}
console.log(
  `signed PDFs: pyHanko files ${pyhankoOk}/${pyhankoFiles.length} as asserted, rebuilt cases ${casesOk}/${cases.length}`,
);

// 4. Robustness: every shared PDF through every PDF detector.
let errors = 0;
let slowest = { path: "", ms: 0 };
const times: number[] = [];
for (const { path } of files) {
  const run = await runPdfDetectors(path, read(path));
  if (run.error) {
    errors++;
    console.log(`ERROR ${path}: ${run.error}`);
  }
  times.push(run.ms);
  if (run.ms > slowest.ms) slowest = { path, ms: run.ms };
}
times.sort((a, b) => a - b);
console.log(
  `robustness: ${files.length} files, ${errors} detector errors, median ${times[times.length >> 1].toFixed(0)} ms, slowest ${slowest.ms.toFixed(0)} ms (${slowest.path})`,
);

const editRows = [...byKind].map(
  ([kind, e]) =>
    `| ${kind} | ${e.n} | ${e.red} | ${kind === "none" ? `${pct(e.n - e.red, e.n)} Green/Yellow` : pct(e.red, e.n)} | ${[...e.codes].join(", ") || "–"} |`,
);
writeDocSection(
  "docs/forensics.md",
  "pdf",
  `## PDF forensics (generated by \`npm run eval pdf\`, ${new Date().toISOString().slice(0, 10)})

**Revision counts vs qpdf** — all ${files.length} files of \`../shared/data/pdf\`: ${agree}/${files.length} agree
(qpdf's count = prefixes ending at a \`%%EOF\` that \`qpdf --check\` opens without rebuilding the xref).
Earlier versions we cut out that pass \`qpdf --check\` (files qpdf opens cleanly): ${versionsOk}/${versionsTotal}; that open in pdf.js (all files): ${pdfjsOk}/${pdfjsTotal}.
Files qpdf itself must repair or cannot decrypt (compared by range, see docs/pdf-forensics.md): ${notClean.length}.

**False positives** — untouched single-revision ZUGFeRD/Factur-X invoices (${untouched.length}):
Green ${fp.Green}, explained Yellow ${fp.Yellow}, Red ${fp.Red} → **FP rate (Red) ${pct(fp.Red, untouched.length)}**.
Yellow reasons: ${[...yellowCodes].map(([c, n]) => `${c.slice(7)} ×${n}`).join(", ") || "none"}.

**Detection of generated edits** (scripts/datagen/pdf; level Red = detected):

| edit | files | Red | rate | Red findings |
|---|---|---|---|---|
${editRows.join("\n")}

**Signed PDFs** (difference analysis, docs/pdf-forensics.md) — the ${pyhankoFiles.length} signed files of \`../shared/data/pdf/pyhanko\`
whose pyHanko tests assert allowed changes or an intact signature: ${pyhankoOk}/${pyhankoFiles.length} with only Green signature findings and no Red;
the pyHanko cases rebuilt on a hand-written form (scripts/datagen/pdf/signed-cases.ts, the suspicious pyHanko files are held out):
${casesOk}/${cases.length} as pyHanko asserts (allowed: signature findings Green; suspicious: Red).

| file or case | pyHanko asserts | pdf-signatures | file level |
|---|---|---|---|
${signedRows.join("\n")}

**Robustness** — every shared PDF through all five PDF detectors: ${errors} errors, median ${times[times.length >> 1].toFixed(0)} ms,
slowest ${slowest.ms.toFixed(0)} ms (\`${slowest.path}\`).`,
  "# Forensics evaluation",
);
process.exit(
  errors > 0 || agree !== files.length || pyhankoOk !== pyhankoFiles.length || casesOk !== cases.length ? 1 : 0,
);

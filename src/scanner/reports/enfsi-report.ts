/**
 * `enfsi_report` (spec 2.6): the examination laid out along the ENFSI Best Practice Manual for
 * Forensic Image Analysis — request and questions, items received (SHA-256, size), methods and tools
 * with versions, examinations and results per item, the limitations of each method (from the
 * documented known limits, docs/forensics.md and docs/pdf-forensics.md), and a conclusion per item
 * on a stated verbal scale that is explained. Text only: the pictures are in the analysis report.
 */
import type { SuspicionLevel } from "../types";
import { formatNumber, formatSize, t } from "./i18n";
import { drawFinding } from "./finding-block";
import { colors, openReport } from "./layout";
import { byLevel, caseRows, levelColors, type ReportInput } from "./report-input";

const SCALE: SuspicionLevel[] = ["Red", "Yellow", "Green", "-"];

export async function buildEnfsiReport(input: ReportInput): Promise<Uint8Array> {
  const words = t(input.language);
  const { doc, flow } = await openReport(`${words.enfsiTitle} ${input.caseNumber}`, input.createdAt, input.fonts);
  const items = Object.entries(input.files);
  const itemLabel = (i: number) => `${words.item} ${i + 1}`;

  flow.text(words.enfsiTitle, { size: 17, bold: true, after: 8 });
  flow.rows(caseRows(input));
  flow.gap(4);
  flow.text(words.enfsiIntro, { size: 9, color: colors.muted, after: 6 });

  flow.heading(`1. ${words.request}`);
  flow.text(words.requestText(items.length));
  flow.heading(`2. ${words.questions}`);
  words.questionList.forEach((q, i) => flow.text(`${i + 1}. ${q}`, { indent: 6, after: 2 }));

  flow.heading(`3. ${words.itemsReceived}`);
  items.forEach(([name, file], i) => {
    flow.text(`${itemLabel(i)}: ${name}`, { bold: true, size: 9.5, after: 1 });
    flow.rows(
      [
        [words.sha256, file.sha256 ?? "–"],
        [words.size, formatSize(file.size, input.language)],
        [words.type, `${words.fileTypes[file.type]} (${file.mimeType})`],
        ...(file.source
          ? [[words.extractedFrom, words.source(file.source.parent, file.source.page)] as [string, string]]
          : []),
      ],
      110,
      8.5,
    );
    flow.gap(3);
  });

  const methods = Object.entries(input.modelVersions);
  flow.heading(`4. ${words.methods}`);
  flow.text(words.methodsIntro);
  flow.rows(
    methods.map(([id, version]) => [`${words.methodNames[id] ?? id}`, `${id} ${version}`]),
    230,
    8.5,
  );

  flow.heading(`5. ${words.examinations}`);
  items.forEach(([name, file], i) => {
    flow.ensure(60);
    flow.text(`${itemLabel(i)}: ${name}`, { bold: true, size: 10, after: 2 });
    if (file.findings.length === 0) flow.text(words.noFindings, { indent: 10 });
    for (const finding of [...file.findings].sort(byLevel))
      drawFinding(flow, input.language, finding, { size: 9, entries: 8, valueChars: 120 });
    flow.gap(4);
  });

  flow.heading(`6. ${words.limitations}`);
  flow.rows(
    methods.map(([id]) => [words.methodNames[id] ?? id, words.limitationTexts[id] ?? words.limitationsDocumented]),
    190,
    8.5,
  );

  flow.heading(`7. ${words.conclusions}`);
  flow.text(`${words.scale}`, { bold: true, size: 10, after: 2 });
  flow.text(words.scaleIntro, { size: 9, after: 4 });
  for (const level of SCALE) {
    flow.badge(levelColors[level], words.levels[level].name, `(${words.levels[level].meaning})`, 9);
    flow.text(words.conclusionTexts[level], { size: 8.5, indent: 14, after: 3 });
  }
  flow.gap(6);
  items.forEach(([name, file], i) => {
    flow.ensure(40);
    flow.text(`${itemLabel(i)}: ${name}`, { bold: true, size: 9.5, after: 1 });
    flow.badge(levelColors[file.suspicion_level], `${words.conclusion}:`, words.levels[file.suspicion_level].name, 9);
    flow.text(words.conclusionTexts[file.suspicion_level], { size: 8.5, indent: 14, after: 4 });
  });
  flow.gap(8);
  flow.text(`${words.files}: ${formatNumber(items.length, input.language)} · ${words.signatureNote}`, {
    size: 8.5,
    color: colors.muted,
  });

  flow.footers((page, pages) => `ENFSI · ${words.footer(input.caseNumber, page, pages)}`);
  return doc.save({ useObjectStreams: true });
}

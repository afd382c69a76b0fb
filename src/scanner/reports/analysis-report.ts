/**
 * `analysis_report` (spec 2.6, DESIGN §20): a cover page (case, session, date, overall level, the
 * strongest findings in one paragraph, contents), then one detail section per file, each on its own
 * page: thumbnail, heatmaps with their legend, every finding with level, title, explanation and
 * evidence, key metadata, SHA-256, size, type; PDFs with their revisions and change views; extracted
 * images listed under their parent. Returns the PDF and `pdfReportMapping` (file → first page).
 */
import { rgb } from "pdf-lib";
import type { FileResult } from "../analysis/file-result";
import { ramp } from "../images/heatmap";
import type { Language } from "../types";
import { formatNumber, formatSize, HEATMAP_KINDS, type HeatmapKind, quote, t } from "./i18n";
import { drawFinding } from "./finding-block";
import { drawReportImage, embedPngScaled } from "./images";
import { CONTENT_WIDTH, colors, MARGIN, openReport, type PageFlow } from "./layout";
import { byLevel, caseRows, evidenceText, levelColors, type ReportInput, strongestFindings } from "./report-input";

/** Longest side of a picture in the report: ≈ 105 dpi for a thumbnail (≤ 220 pt), ≈ 145 dpi for a heatmap (≈ 158 pt). */
const THUMBNAIL_PX = 320;
const HEATMAP_PX = 320;
const EVIDENCE_ENTRIES = 12;
const METADATA_ENTRIES = 18;

export interface AnalysisReport {
  pdf: Uint8Array;
  /** Each filename of `Files` → the 1-based page where its detail view starts. */
  mapping: Record<string, number>;
  pages: number;
}

export async function buildAnalysisReport(input: ReportInput): Promise<AnalysisReport> {
  const words = t(input.language);
  const { doc, flow } = await openReport(`${words.analysisTitle} ${input.caseNumber}`, input.createdAt, input.fonts);

  const contentsSlots = cover(flow, input);
  const mapping: Record<string, number> = {};
  const names = Object.keys(input.files);
  for (const [i, name] of names.entries()) {
    flow.newPage();
    mapping[name] = flow.pageNumber;
    await fileSection(flow, input, name, i + 1, names.length);
  }
  // The contents' page numbers are known only now.
  for (const slot of contentsSlots) {
    const text = String(mapping[slot.name]);
    const width = flow.widthOf(text, 9);
    slot.page.drawText(text, { x: MARGIN.left + CONTENT_WIDTH - width, y: slot.y, size: 9, font: flow.regular });
  }
  flow.footers((page, pages) => `${words.analysisTitle} · ${words.footer(input.caseNumber, page, pages)}`);
  return { pdf: await doc.save({ useObjectStreams: true }), mapping, pages: flow.pages.length };
}

type ContentsSlot = { name: string; page: PageFlow["page"]; y: number };

function cover(flow: PageFlow, input: ReportInput): ContentsSlot[] {
  const words = t(input.language);
  const files = Object.values(input.files);
  flow.text(words.analysisTitle, { size: 22, bold: true, after: 10 });
  flow.rows([...caseRows(input), [words.files, formatNumber(files.length, input.language)]]);
  flow.gap(10);
  const level = words.levels[input.level];
  flow.badge(levelColors[input.level], `${words.overallLevel}: ${level.name}`, `(${level.meaning})`, 13);
  flow.gap(6);
  flow.heading(words.summary, 12);
  flow.text(summaryParagraph(input), { size: 10, after: 6 });
  flow.text(words.disclaimer, { size: 8.5, color: colors.muted, after: 8 });

  flow.heading(words.contents, 12);
  const slots: ContentsSlot[] = [];
  const size = 9;
  for (const [name, file] of Object.entries(input.files)) {
    const indent = file.source ? 14 : 0;
    const lines = flow.wrap(name, CONTENT_WIDTH - indent - 110, size);
    flow.ensure(lines.length * size * 1.4);
    lines.forEach((line, i) => {
      flow.y -= size * 1.4;
      flow.page.drawText(line, { x: MARGIN.left + 12 + indent, y: flow.y + 2.5, size, font: flow.regular });
      if (i === 0) {
        flow.page.drawRectangle({
          x: MARGIN.left + indent,
          y: flow.y + 2,
          width: 7,
          height: 7,
          color: levelColors[file.suspicion_level],
        });
        const levelName = words.levels[file.suspicion_level].name;
        flow.page.drawText(flow.printable(levelName), {
          x: MARGIN.left + CONTENT_WIDTH - 90,
          y: flow.y + 2.5,
          size,
          font: flow.regular,
          color: colors.muted,
        });
        slots.push({ name, page: flow.page, y: flow.y + 2.5 });
      }
    });
  }
  return slots;
}

/** One paragraph: the overall level, the count per level, and the strongest findings by name. */
function summaryParagraph(input: ReportInput): string {
  const words = t(input.language);
  const files = Object.values(input.files);
  const counts = (["Red", "Yellow", "Green", "-"] as const)
    .map((level) => [level, files.filter((f) => f.suspicion_level === level).length] as const)
    .filter(([, n]) => n > 0)
    .map(
      ([level, n]) =>
        `${level === "-" ? words.notAssessed : words.levels[level].name}: ${formatNumber(n, input.language)}`,
    );
  const parts = [`${words.overallLevel}: ${words.levels[input.level].name} (${counts.join(", ")}).`];
  const strongest = strongestFindings(input.files, 6);
  if (strongest.length === 0) parts.push(words.summaryNone);
  else
    parts.push(
      `${words.strongest}: ${strongest
        .map(
          ({ file, finding }) =>
            `${quote(file, input.language)}: ${finding.title} (${words.levels[finding.level].name})`,
        )
        .join("; ")}.`,
    );
  const notAssessed = files.filter((f) => f.suspicion_level === "-").length;
  if (notAssessed > 0) parts.push(words.summaryNotAssessed(notAssessed));
  return parts.join(" ");
}

async function fileSection(flow: PageFlow, input: ReportInput, name: string, n: number, total: number) {
  const words = t(input.language);
  const file = input.files[name];
  const level = words.levels[file.suspicion_level];
  flow.text(`${words.fileDetail} ${n}/${total}`, { size: 9, color: colors.muted, after: 0 });
  flow.text(name, { size: 14, bold: true, after: 6 });
  flow.badge(levelColors[file.suspicion_level], `${words.level}: ${level.name}`, `(${level.meaning})`, 11);
  flow.gap(4);
  const rows: [string, string][] = [
    [words.type, `${words.fileTypes[file.type]} (${file.mimeType})`],
    [words.size, formatSize(file.size, input.language)],
    [words.sha256, file.sha256 ?? "–"],
  ];
  if (file.source) rows.push([words.extractedFrom, words.source(file.source.parent, file.source.page)]);
  const children = Object.entries(input.files).filter(([, f]) => f.source?.parent === name);
  if (children.length > 0) rows.push([words.extractedItems, children.map(([child]) => child).join("\n")]);
  flow.rows(rows, 130);

  await thumbnail(flow, input, file);
  findings(flow, input.language, file);
  if (file.type === "pdf") revisions(flow, input.language, file);
  await heatmaps(flow, input, file);
  metadata(flow, input.language, file);
}

async function thumbnail(flow: PageFlow, input: ReportInput, file: FileResult) {
  const ref = file.attachments.find((a) => a.startsWith("thumbnails/"));
  const bytes = ref ? await input.attachment(ref) : null;
  const image = bytes ? embedPngScaled(flow.doc, bytes, THUMBNAIL_PX) : null;
  if (!image) return;
  const scale = Math.min(220 / image.width, 165 / image.height);
  const box = { width: image.width * scale, height: image.height * scale };
  flow.heading(t(input.language).thumbnail, 11);
  flow.ensure(box.height + 6);
  flow.y -= box.height;
  drawReportImage(flow.page, image, { x: MARGIN.left, y: flow.y, ...box });
  flow.gap(8);
}

function findings(flow: PageFlow, language: Language, file: FileResult) {
  const words = t(language);
  flow.heading(words.findings, 11);
  if (file.findings.length === 0) flow.text(words.noFindings);
  for (const finding of [...file.findings].sort(byLevel))
    drawFinding(flow, language, finding, { size: 9.5, entries: EVIDENCE_ENTRIES, valueChars: 160 });
}

function revisions(flow: PageFlow, language: Language, file: FileResult) {
  const words = t(language);
  const revisionMeta = file.metadata["pdf-revisions"] as { revisions?: unknown } | undefined;
  const count = typeof revisionMeta?.revisions === "number" ? revisionMeta.revisions : null;
  const versions = file.attachments.filter((a) => a.startsWith("pdf_versions/"));
  const diffs = file.attachments.filter((a) => a.startsWith("pdf_diffs/"));
  if (count === null && versions.length === 0 && diffs.length === 0) return;
  flow.heading(words.revisions, 11);
  if (count !== null) flow.text(words.revisionsCount(count));
  for (const finding of file.findings.filter((f) => f.code.startsWith("PDF_") && f.level !== "Green")) {
    flow.text(`• ${finding.title}`, { size: 9, indent: 6, after: 1 });
    for (const change of beforeAfter(finding.evidence).slice(0, 20)) {
      const [before, after] = [quote(change.before, language), quote(change.after, language)];
      flow.text(`${words.page} ${change.page}: ${before} → ${after}`, { size: 8.5, indent: 18, after: 1 });
    }
  }
  const rows: [string, string][] = [];
  if (versions.length) rows.push([words.revisionFiles, versions.map((v) => v.slice(v.indexOf("/") + 1)).join("\n")]);
  if (diffs.length) rows.push([words.diffFile, diffs.map((d) => d.slice(d.indexOf("/") + 1)).join("\n")]);
  if (rows.length) flow.rows(rows, 200, 8.5);
}

/** `before`/`after` pairs a PDF finding's evidence lists (text changed or covered between revisions). */
function beforeAfter(evidence: Record<string, unknown>): { page: string; before: string; after: string }[] {
  const lists = Object.values(evidence ?? {}).filter(Array.isArray) as unknown[][];
  return lists.flat().flatMap((item) => {
    if (!item || typeof item !== "object") return [];
    const change = item as Record<string, unknown>;
    const before = change.before ?? change.hidden;
    const after = change.after ?? change.writtenOver;
    if (typeof before !== "string" && typeof after !== "string") return [];
    return [{ page: String(change.page ?? "?"), before: String(before ?? "–"), after: String(after ?? "–") }];
  });
}

async function heatmaps(flow: PageFlow, input: ReportInput, file: FileResult) {
  const words = t(input.language);
  const refs = file.attachments.filter((a) => a.startsWith("heatmaps/"));
  if (refs.length === 0) return;
  flow.heading(words.heatmaps, 11);
  const columns = 3;
  const gutter = 10;
  const cell = (CONTENT_WIDTH - gutter * (columns - 1)) / columns;
  let column = 0;
  let rowHeight = 0;
  for (const ref of refs) {
    // One heatmap in memory at a time: read, downscaled into the document, dropped.
    const bytes = await input.attachment(ref);
    const image = bytes ? embedPngScaled(flow.doc, bytes, HEATMAP_PX) : null;
    if (!image) continue;
    const scale = Math.min(cell / image.width, 150 / image.height);
    const box = { width: image.width * scale, height: image.height * scale };
    if (column === 0) {
      flow.ensure(150 + 24);
      rowHeight = 0;
    }
    const x = MARGIN.left + column * (cell + gutter);
    const top = flow.y;
    const caption = heatmapCaption(ref, words.heatmapNames);
    flow.page.drawText(flow.wrap(caption, cell, 7.5, true)[0], {
      x,
      y: top - 10,
      size: 7.5,
      font: flow.bold,
      color: colors.text,
    });
    drawReportImage(flow.page, image, { x, y: top - 14 - box.height, ...box });
    rowHeight = Math.max(rowHeight, box.height + 20);
    column = (column + 1) % columns;
    if (column === 0) flow.y -= rowHeight;
  }
  if (column > 0) flow.y -= rowHeight;
  legend(flow, input.language);
}

/** The detector a heatmap comes from (its name is `<file>.<detector>.png`) in the report's words, else the name. */
export function heatmapCaption(ref: string, names: Record<HeatmapKind, string>): string {
  const name = ref.slice(ref.indexOf("/") + 1);
  const detector = HEATMAP_KINDS.find((d) => name.endsWith(`.${d}.png`));
  return detector ? names[detector] : name;
}

/** What a colour means: the ramp of images/heatmap.ts, the hatching, the copy-move lines. */
function legend(flow: PageFlow, language: Language) {
  const words = t(language);
  flow.ensure(70);
  flow.text(words.legendTitle, { size: 9, bold: true, after: 2 });
  const barWidth = 200;
  const steps = 40;
  flow.y -= 12;
  for (let i = 0; i < steps; i++) {
    const [r, g, b] = ramp(i / (steps - 1));
    flow.page.drawRectangle({
      x: MARGIN.left + (i * barWidth) / steps,
      y: flow.y,
      width: barWidth / steps + 0.3,
      height: 10,
      color: rgb(r / 255, g / 255, b / 255),
    });
  }
  flow.y -= 11;
  const low = `0 = ${flow.printable(words.legendLow)}`;
  const high = `1 = ${flow.printable(words.legendHigh)}`;
  flow.page.drawText(low, { x: MARGIN.left, y: flow.y + 2, size: 8, font: flow.regular });
  const highX = Math.max(MARGIN.left + flow.widthOf(low, 8) + 12, MARGIN.left + barWidth - flow.widthOf(high, 8));
  flow.page.drawText(high, { x: highX, y: flow.y + 2, size: 8, font: flow.regular });
  flow.gap(4);
  flow.text(words.legendHatched, { size: 8, color: colors.muted, after: 1 });
  flow.text(words.legendLines, { size: 8, color: colors.muted, after: 4 });
}

/** What the file's header rows already show. */
const SHOWN_ABOVE = new Set(["file-type · kind", "file-type · mimeType", "file-type · sha256", "file-type · size"]);

/** Scalar metadata of each analyzer (`analyzer · key: value`), the camera/document metadata first. */
function metadata(flow: PageFlow, language: Language, file: FileResult) {
  const rows: [string, string][] = [];
  const analyzers = Object.entries(file.metadata).sort(
    ([a], [b]) => Number(b === "metadata") - Number(a === "metadata"),
  );
  for (const [analyzer, values] of analyzers) {
    if (!values || typeof values !== "object") continue;
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (value === null || value === undefined || value === "" || SHOWN_ABOVE.has(`${analyzer} · ${key}`)) continue;
      if (Array.isArray(value) && value.length === 0) continue;
      if (typeof value === "object" && JSON.stringify(value).length > 120) continue;
      const text =
        typeof value === "number" && !Number.isInteger(value)
          ? formatNumber(value, language, 3)
          : typeof value === "number"
            ? String(value)
            : evidenceText(value, 200);
      rows.push([`${analyzer} · ${key}`, text]);
    }
  }
  if (rows.length === 0) return;
  const shown = rows.slice(0, METADATA_ENTRIES);
  // The block stays together (a heading and one stray row on the next page read badly).
  flow.ensure(Math.min(30 + flow.rowsHeight(shown, 190, 8), 400));
  flow.heading(t(language).metadata, 11);
  flow.rows(shown, 190, 8);
}

import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import type { AnnotationChange, RevisionDiff, TextChange } from "./diff";
import type { Box } from "./page-model";
import { openPdfLib } from "./pdflib";
import { pageModels } from "./pages";

const MARGIN = 240;
const RED = rgb(0.85, 0.1, 0.1);
const AMBER = rgb(1, 0.75, 0);
const INK = rgb(0.1, 0.1, 0.1);

/** Labels of the diff PDF; the claims handler reads them, so they follow the request language. */
export interface DiffLabels {
  title: (from: number, to: number) => string;
  was: string;
  now: string;
  added: string;
  removed: string;
  annotation: string;
  pages: (before: number, after: number) => string;
  addedPage: string;
  objects: string;
}

/**
 * One PDF for a whole file: for every revision step with visible changes, each changed page of
 * the later version with the changed regions highlighted and numbered, and beside the page
 * (right margin) what each region said before and says now.
 */
export async function renderDiffPdf(
  fileName: string,
  versions: Uint8Array[],
  diffs: RevisionDiff[],
  labels: DiffLabels,
): Promise<Uint8Array | null> {
  const out = await PDFDocument.create();
  out.setTitle(`${fileName}: changes between versions`);
  out.setProducer("capture-verify PDF forensics");
  const font = await out.embedFont(StandardFonts.Helvetica);
  const bold = await out.embedFont(StandardFonts.HelveticaBold);
  let pagesWritten = 0;
  for (const diff of diffs) {
    const later = versions[diff.to - 1];
    const models = await pageModels(later);
    const addedPages = Array.from(
      { length: Math.max(0, Math.min(diff.pagesAfter, models.length) - diff.pagesBefore) },
      (_, i) => diff.pagesBefore + 1 + i,
    ).slice(0, 5);
    const pagesWithChanges = [
      ...new Set([...diff.text.map((t) => t.page), ...diff.annotations.map((a) => a.page), ...addedPages]),
    ].sort((a, b) => a - b);
    if (pagesWithChanges.length === 0 && diff.pagesBefore === diff.pagesAfter) continue;
    const source = await openPdfLib(later);
    for (const pageNo of pagesWithChanges.length > 0 ? pagesWithChanges : [1]) {
      const view = models[pageNo - 1]?.view;
      if (!view) continue;
      const [embedded] = await out.embedPages(
        [source.getPage(pageNo - 1)],
        [{ left: view.x0, bottom: view.y0, right: view.x1, top: view.y1 }],
      );
      const width = view.x1 - view.x0;
      const height = view.y1 - view.y0;
      const page = out.addPage([width + MARGIN, Math.max(height, 400)]);
      page.drawPage(embedded, { x: 0, y: 0, width, height });
      const toPage = (b: Box): Box => ({
        x0: b.x0 - view.x0,
        y0: b.y0 - view.y0,
        x1: b.x1 - view.x0,
        y1: b.y1 - view.y0,
      });
      let y = page.getHeight() - 24;
      const note = (text: string, f: PDFFont = font, size = 9, color = INK) => {
        for (const line of wrap(safe(text, f), f, size, MARGIN - 20)) {
          page.drawText(line, { x: width + 10, y, size, font: f, color });
          y -= size + 3;
        }
      };
      page.drawRectangle({ x: width, y: 0, width: MARGIN, height: page.getHeight(), color: rgb(0.96, 0.96, 0.96) });
      note(labels.title(diff.from, diff.to), bold, 11);
      if (diff.pagesBefore !== diff.pagesAfter) note(labels.pages(diff.pagesBefore, diff.pagesAfter), bold, 9, RED);
      if (pageNo > diff.pagesBefore) note(labels.addedPage, bold, 9, RED);
      y -= 4;
      let n = 0;
      for (const change of diff.text.filter((t) => t.page === pageNo)) {
        n++;
        highlight(page, toPage(change.box), n, bold);
        if (change.before) besideRegion(page, toPage(change.box), `${labels.was}: ${change.before}`, bold, width);
        describeText(change, n, labels, note, bold);
        y -= 4;
      }
      for (const change of diff.annotations.filter((a) => a.page === pageNo)) {
        n++;
        if (change.box) highlight(page, toPage(change.box), n, bold);
        // Annotation appearances are not part of the embedded page: write the value beside it.
        if (change.box && change.after)
          besideRegion(page, toPage(change.box), `${labels.now}: ${change.after}`, bold, width);
        describeAnnotation(change, n, labels, note, bold);
        y -= 4;
      }
      const redefined = diff.objects.filter((o) => !o.allowed);
      if (redefined.length > 0) {
        note(labels.objects, bold, 8);
        for (const o of redefined.slice(0, 8)) note(`${o.ref}: ${o.detail}`, font, 7);
      }
      pagesWritten++;
    }
  }
  return pagesWritten > 0 ? out.save() : null;
}

function highlight(page: PDFPage, b: Box, n: number, bold: PDFFont): void {
  const pad = 2;
  page.drawRectangle({
    x: b.x0 - pad,
    y: b.y0 - pad,
    width: b.x1 - b.x0 + 2 * pad,
    height: b.y1 - b.y0 + 2 * pad,
    color: AMBER,
    opacity: 0.35,
    borderColor: RED,
    borderWidth: 1.2,
  });
  page.drawCircle({ x: b.x0 - pad - 7, y: b.y1 + 2, size: 6, color: RED });
  page.drawText(String(n), {
    x: b.x0 - pad - 7 - bold.widthOfTextAtSize(String(n), 7) / 2,
    y: b.y1 - 0.5,
    size: 7,
    font: bold,
    color: rgb(1, 1, 1),
  });
}

/** The earlier value written right next to the region (above it when the line is full). */
function besideRegion(page: PDFPage, b: Box, text: string, bold: PDFFont, pageWidth: number): void {
  const size = 7;
  const label = safe(text, bold);
  const w = bold.widthOfTextAtSize(label, size);
  const right = b.x1 + 6 + w < pageWidth + MARGIN - 4;
  const x = right ? b.x1 + 6 : Math.max(2, b.x0);
  const y = right ? b.y0 + 1 : b.y1 + 4;
  page.drawRectangle({
    x: x - 2,
    y: y - 2,
    width: w + 4,
    height: size + 4,
    color: rgb(1, 1, 1),
    borderColor: RED,
    borderWidth: 0.6,
  });
  page.drawText(label, { x, y, size, font: bold, color: RED });
}

type Note = (text: string, f?: PDFFont, size?: number, color?: ReturnType<typeof rgb>) => void;

function describeText(c: TextChange, n: number, l: DiffLabels, note: Note, bold: PDFFont): void {
  if (c.kind === "changed") {
    note(`(${n}) ${l.was}: ${c.before}`, bold, 9, RED);
    note(`     ${l.now}: ${c.after}`);
  } else if (c.kind === "added") note(`(${n}) ${l.added}: ${c.after}`, bold, 9, RED);
  else note(`(${n}) ${l.removed}: ${c.before}`, bold, 9, RED);
}

function describeAnnotation(c: AnnotationChange, n: number, l: DiffLabels, note: Note, bold: PDFFont): void {
  note(`(${n}) ${l.annotation} ${c.subtype} (${c.kind})`, bold, 9, RED);
  if (c.before) note(`     ${l.was}: ${c.before}`);
  if (c.after) note(`     ${l.now}: ${c.after}`);
}

/** Replaces characters the standard font cannot encode (it covers WinAnsi: German yes, Polish partly). */
function safe(text: string, font: PDFFont): string {
  const supported = new Set(font.getCharacterSet());
  return [...text.replace(/\s+/g, " ")]
    .map((ch) => (supported.has(ch.codePointAt(0) ?? 0) ? ch : fold(ch, supported)))
    .join("");
}

function fold(ch: string, supported: Set<number>): string {
  const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  const mapped = ({ ł: "l", Ł: "L" } as Record<string, string>)[ch] ?? base;
  return [...mapped].every((c) => supported.has(c.codePointAt(0) ?? 0)) ? mapped : "?";
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.slice(0, 12);
}

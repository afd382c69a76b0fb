import { changesInRevision, type ObjectChange } from "./changes";
import { pdfLimits } from "./limits";
import type { Box, PageModel, TextRun } from "./page-model";
import { pageModels } from "./pages";
import { openPdfJs } from "./pdfjs";
import type { Revision } from "./revisions";
import { revisionBytes } from "./versions";

/** One visible text change on a page: where (in the later version) and what it said before. */
export interface TextChange {
  kind: "changed" | "added" | "removed";
  page: number;
  box: Box;
  before: string;
  after: string;
}

export interface AnnotationChange {
  page: number;
  kind: "added" | "removed" | "changed";
  subtype: string;
  box: Box | null;
  before: string;
  after: string;
}

/** Everything that differs between revision `from` and revision `to = from + 1`. */
export interface RevisionDiff {
  from: number;
  to: number;
  pagesBefore: number;
  pagesAfter: number;
  text: TextChange[];
  annotations: AnnotationChange[];
  objects: ObjectChange[];
}

export async function diffRevisions(bytes: Uint8Array, revisions: Revision[], to: number): Promise<RevisionDiff> {
  const before = revisionBytes(bytes, revisions, to - 1);
  const after = revisionBytes(bytes, revisions, to);
  const [oldPages, newPages] = await Promise.all([pageModels(before), pageModels(after)]);
  const [oldDoc, newDoc] = await Promise.all([openPdfJs(before), openPdfJs(after)]);
  const text: TextChange[] = [];
  const annotations: AnnotationChange[] = [];
  for (let i = 0; i < Math.min(oldPages.length, newPages.length); i++) {
    text.push(...diffPageText(oldPages[i], newPages[i]));
    if (i < pdfLimits.maxPages)
      annotations.push(
        ...diffAnnotations(i + 1, await annotationsOf(oldDoc, i + 1), await annotationsOf(newDoc, i + 1)),
      );
  }
  const objects = await changesInRevision(bytes, revisions, to).catch(() => [] as ObjectChange[]);
  return {
    from: to - 1,
    to,
    pagesBefore: oldDoc.numPages,
    pagesAfter: newDoc.numPages,
    text: text.slice(0, 200),
    annotations: annotations.slice(0, 100),
    objects,
  };
}

const visible = (r: TextRun) => !r.inAnnotation && r.renderMode !== 3 && r.renderMode !== 7 && r.text.trim() !== "";
const keyOf = (r: TextRun) => `${r.text.trim()}@${Math.round(r.box.x0)},${Math.round(r.baseline)}`;

/**
 * Text runs present in only one version. A new run is paired with what the earlier version
 * showed in the same place — removed there, or still there but now covered — so the diff says
 * "was X, now Y" for a changed amount as well as for a pasted-over one.
 */
export function diffPageText(oldPage: PageModel, newPage: PageModel): TextChange[] {
  const oldRuns = oldPage.runs.filter(visible).slice(0, pdfLimits.maxTextItemsPerPage);
  const newRuns = newPage.runs.filter(visible).slice(0, pdfLimits.maxTextItemsPerPage);
  const oldCount = countKeys(oldRuns);
  const newCount = countKeys(newRuns);
  const added = newRuns.filter((r) => take(oldCount, keyOf(r)) === false);
  const removed = oldRuns.filter((r) => take(newCount, keyOf(r)) === false);
  const changes: TextChange[] = [];
  const usedRemoved = new Set<TextRun>();
  for (const run of groupLines(added)) {
    const under = oldRuns.filter((o) => near(o.box, run.box) && o.text.trim() !== run.text.trim());
    for (const o of under) if (removed.includes(o)) usedRemoved.add(o);
    const before = under.map((o) => o.text.trim()).join(" ");
    changes.push({
      kind: before ? "changed" : "added",
      page: newPage.page,
      box: run.box,
      before,
      after: run.text.trim(),
    });
  }
  for (const run of groupLines(removed.filter((r) => !usedRemoved.has(r))))
    changes.push({ kind: "removed", page: newPage.page, box: run.box, before: run.text.trim(), after: "" });
  return changes;
}

function countKeys(runs: TextRun[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of runs) m.set(keyOf(r), (m.get(keyOf(r)) ?? 0) + 1);
  return m;
}

/** Consumes one occurrence of `key`; false when there is none left. */
function take(counts: Map<string, number>, key: string): boolean {
  const n = counts.get(key) ?? 0;
  if (n === 0) return false;
  counts.set(key, n - 1);
  return true;
}

/** Same baseline and overlapping (or touching) horizontally. */
function near(a: Box, b: Box): boolean {
  const sameLine = Math.abs((a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2) < Math.max(2, (b.y1 - b.y0) / 2);
  return sameLine && a.x0 < b.x1 + 2 && b.x0 < a.x1 + 2;
}

/** Adjacent runs on one line are merged so a changed amount is one region, not one per glyph run. */
function groupLines(runs: TextRun[]): TextRun[] {
  const sorted = [...runs].sort((a, b) => b.baseline - a.baseline || a.box.x0 - b.box.x0);
  const out: TextRun[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && Math.abs(last.baseline - r.baseline) < 1 && r.box.x0 - last.box.x1 < r.size * 1.5) {
      out[out.length - 1] = {
        ...last,
        text: `${last.text}${r.box.x0 - last.box.x1 > r.size * 0.2 ? " " : ""}${r.text}`,
        box: {
          x0: last.box.x0,
          y0: Math.min(last.box.y0, r.box.y0),
          x1: Math.max(last.box.x1, r.box.x1),
          y1: Math.max(last.box.y1, r.box.y1),
        },
      };
    } else out.push(r);
  }
  return out;
}

interface AnnotationSummary {
  subtype: string;
  box: Box | null;
  text: string;
  id: string;
}

async function annotationsOf(doc: Awaited<ReturnType<typeof openPdfJs>>, page: number): Promise<AnnotationSummary[]> {
  if (page > doc.numPages) return [];
  const list = (await (await doc.getPage(page)).getAnnotations().catch(() => [])) as Record<string, unknown>[];
  // Popups are the windows in which viewers show a note's text, not content of the page.
  return list
    .filter((a) => a.subtype !== "Popup")
    .slice(0, 500)
    .map((a) => {
      const rect = Array.isArray(a.rect) ? (a.rect as number[]) : null;
      const value = a.fieldValue ?? a.contentsObj ?? a.contents ?? "";
      const text =
        typeof value === "object" && value !== null && "str" in value
          ? String((value as { str: unknown }).str)
          : Array.isArray(value)
            ? value.join(", ")
            : String(value ?? "");
      return {
        subtype: String(a.subtype ?? "?"),
        box: rect ? { x0: rect[0], y0: rect[1], x1: rect[2], y1: rect[3] } : null,
        text: text.slice(0, 200),
        id: String(a.fieldName ?? a.id ?? ""),
      };
    });
}

function diffAnnotations(page: number, before: AnnotationSummary[], after: AnnotationSummary[]): AnnotationChange[] {
  const key = (a: AnnotationSummary) =>
    `${a.subtype}|${a.id}|${a.box ? [a.box.x0, a.box.y0].map(Math.round).join(",") : ""}`;
  const oldByKey = new Map(before.map((a) => [key(a), a]));
  const newKeys = new Set(after.map(key));
  const out: AnnotationChange[] = [];
  for (const a of after) {
    const was = oldByKey.get(key(a));
    if (!was) out.push({ page, kind: "added", subtype: a.subtype, box: a.box, before: "", after: a.text });
    else if (was.text !== a.text)
      out.push({ page, kind: "changed", subtype: a.subtype, box: a.box, before: was.text, after: a.text });
  }
  for (const a of before)
    if (!newKeys.has(key(a)))
      out.push({ page, kind: "removed", subtype: a.subtype, box: a.box, before: a.text, after: "" });
  return out;
}

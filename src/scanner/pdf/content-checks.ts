import { area, isWhite, overlapArea, type PageModel, type TextRun } from "./page-model";

/** A page drawn as one image covering (nearly) all of it: a scan or a photo of a document. */
export function isScanPage(page: PageModel): boolean {
  const pageArea = area(page.view);
  return (
    pageArea > 0 && page.images.some((img) => !img.inAnnotation && overlapArea(img.box, page.view) >= 0.85 * pageArea)
  );
}

/** White box drawn after text it covers: the hidden text and what was written on top of it. */
export interface CoveredText {
  page: number;
  box: PageModel["fills"][number]["box"];
  hidden: string;
  writtenOver: string;
}

/** A white fill smaller than a quarter of the page, drawn over text that was drawn before it. */
export function whiteBoxesOverText(page: PageModel): CoveredText[] {
  const pageArea = area(page.view);
  const out: CoveredText[] = [];
  for (const fill of page.fills) {
    if (!isWhite(fill.fill) || area(fill.box) > 0.25 * pageArea || area(fill.box) < 4) continue;
    const covers = (r: TextRun) => overlapArea(r.box, fill.box) >= 0.5 * area(r.box) && area(r.box) > 0;
    const hidden = page.runs.filter(
      (r) => r.order < fill.order && r.renderMode !== 3 && covers(r) && r.text.trim() !== "",
    );
    if (hidden.length === 0) continue;
    const over = page.runs.filter((r) => r.order > fill.order && covers(r));
    out.push({ page: page.page, box: fill.box, hidden: joinRuns(hidden), writtenOver: joinRuns(over) });
    if (out.length >= 20) break;
  }
  return out;
}

/** White boxes drawn on top of a page's scan image: they hide part of what was scanned. */
export function whiteBoxesOverScan(page: PageModel): { page: number; box: PageModel["fills"][number]["box"] }[] {
  if (!isScanPage(page)) return [];
  const scanOrder = Math.min(...page.images.map((i) => i.order));
  const pageArea = area(page.view);
  return page.fills
    .filter(
      (f) =>
        f.order > scanOrder && !f.inAnnotation && isWhite(f.fill) && area(f.box) >= 4 && area(f.box) <= 0.25 * pageArea,
    )
    .slice(0, 20)
    .map((f) => ({ page: page.page, box: f.box }));
}

/** Invisible text (render mode 3/7 or under 1 pt) outside scanned pages, where OCR layers are normal. */
export function invisibleText(page: PageModel): string[] {
  if (isScanPage(page)) return [];
  return page.runs
    .filter((r) => (r.renderMode === 3 || r.renderMode === 7 || r.size < 1) && !r.inAnnotation && r.text.trim() !== "")
    .map((r) => r.text);
}

/** Visible text drawn on top of a full-page scan image: added after scanning. */
export function visibleTextOnScan(page: PageModel): string[] {
  if (!isScanPage(page)) return [];
  const scanOrder = Math.min(...page.images.map((i) => i.order));
  return page.runs
    .filter(
      (r) =>
        r.order > scanOrder &&
        r.renderMode !== 3 &&
        r.renderMode !== 7 &&
        r.size >= 1 &&
        !r.inAnnotation &&
        r.text.trim() !== "",
    )
    .map((r) => r.text);
}

/** A run with digits whose font/size appears in no other run of the page, on a line with other runs. */
export interface OddFontRun {
  page: number;
  text: string;
  font: string;
  size: number;
  lineFonts: string[];
}

export function oddFontsInLines(page: PageModel): OddFontRun[] {
  const key = (r: TextRun) => `${r.font}@${r.size.toFixed(1)}`;
  const visible = page.runs.filter(
    (r) => r.renderMode !== 3 && r.renderMode !== 7 && !r.inAnnotation && r.text.trim() !== "",
  );
  const uses = new Map<string, number>();
  for (const r of visible) uses.set(key(r), (uses.get(key(r)) ?? 0) + 1);
  const out: OddFontRun[] = [];
  for (const r of visible) {
    if (uses.get(key(r)) !== 1 || !/\d/.test(r.text)) continue;
    const line = visible.filter((o) => o !== r && Math.abs(o.baseline - r.baseline) < 1);
    if (line.length < 2) continue;
    const others = new Set(line.map(key));
    if (others.size === 1 && !others.has(key(r)))
      out.push({
        page: page.page,
        text: r.text,
        font: r.font,
        size: Number(r.size.toFixed(1)),
        lineFonts: [...others],
      });
  }
  return out.slice(0, 20);
}

/** One base font embedded under several subset prefixes (ABCDEF+Arial, GHIJKL+Arial). */
export function repeatedSubsets(fonts: string[]): { base: string; prefixes: string[] }[] {
  const byBase = new Map<string, Set<string>>();
  for (const f of fonts) {
    const m = /^([A-Z]{6})\+(.+)$/.exec(f);
    if (!m) continue;
    const set = byBase.get(m[2]) ?? new Set<string>();
    set.add(m[1]);
    byBase.set(m[2], set);
  }
  return [...byBase].filter(([, p]) => p.size > 1).map(([base, p]) => ({ base, prefixes: [...p] }));
}

function joinRuns(runs: TextRun[]): string {
  return runs
    .map((r) => r.text)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

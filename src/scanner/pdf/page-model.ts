import { pdfLimits } from "./limits";
import { pdfJsOps, type PdfJsPage } from "./pdfjs";

/** Axis-aligned box in PDF user space (points, y up). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One `Tj`/`TJ`: text as drawn, where, in which font and how. */
export interface TextRun {
  text: string;
  box: Box;
  /** Baseline y. */
  baseline: number;
  font: string;
  size: number;
  /** Text rendering mode (3 = invisible). */
  renderMode: number;
  fill: string;
  /** Position in the page's drawing order. */
  order: number;
  inAnnotation: boolean;
}

export interface FilledShape {
  box: Box;
  fill: string;
  order: number;
  inAnnotation: boolean;
}

export interface PlacedImage {
  box: Box;
  order: number;
  inAnnotation: boolean;
}

/** What a page draws, in order; built from pdf.js's operator list. */
export interface PageModel {
  page: number;
  view: Box;
  runs: TextRun[];
  fills: FilledShape[];
  images: PlacedImage[];
  /** True when the operator cap stopped the walk early. */
  truncated: boolean;
}

type Matrix = [number, number, number, number, number, number];
interface State {
  ctm: Matrix;
  fill: string;
  font: string;
  size: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  renderMode: number;
}
interface Glyph {
  unicode?: string;
  width?: number;
  isSpace?: boolean;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

/** Box of the rectangle (x0,y0)-(x1,y1) after matrix m. */
export function transformBox(m: Matrix, x0: number, y0: number, x1: number, y1: number): Box {
  const pts = [apply(m, x0, y0), apply(m, x1, y0), apply(m, x0, y1), apply(m, x1, y1)];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** Interprets a page's operators (text positions from glyph widths, fills, images) with its CTM. */
export async function buildPageModel(page: PdfJsPage, pageNumber: number): Promise<PageModel> {
  const OPS = await pdfJsOps();
  const list = await page.getOperatorList();
  const [vx0, vy0, vx1, vy1] = page.view;
  const model: PageModel = {
    page: pageNumber,
    view: { x0: vx0, y0: vy0, x1: vx1, y1: vy1 },
    runs: [],
    fills: [],
    images: [],
    truncated: false,
  };
  let st: State = {
    ctm: IDENTITY,
    fill: "#000000",
    font: "",
    size: 0,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
    renderMode: 0,
  };
  const stack: State[] = [];
  let tm: Matrix = IDENTITY;
  let lm: Matrix = IDENTITY;
  let annotationDepth = 0;
  const count = Math.min(list.fnArray.length, pdfLimits.maxOperators);
  model.truncated = list.fnArray.length > count;

  const moveLine = (tx: number, ty: number) => {
    lm = multiply([1, 0, 0, 1, tx, ty], lm);
    tm = lm;
  };
  const show = (items: (Glyph | number)[], order: number) => {
    const start = multiply(multiply([st.size * st.hScale, 0, 0, st.size, 0, st.rise], tm), st.ctm);
    let advance = 0;
    let text = "";
    for (const item of items) {
      if (typeof item === "number") {
        advance -= (item / 1000) * st.size * st.hScale;
        continue;
      }
      if (!item) continue;
      text += item.unicode ?? "";
      advance +=
        (((item.width ?? 0) / 1000) * st.size + st.charSpacing + (item.isSpace ? st.wordSpacing : 0)) * st.hScale;
    }
    const unit = st.size * st.hScale || 1;
    const box = transformBox(start, 0, -0.2, advance / unit, 0.8);
    const baseline = apply(start, 0, 0)[1];
    const size = Math.hypot(start[2], start[3]);
    if (text.length > 0)
      model.runs.push({
        text,
        box,
        baseline,
        font: st.font,
        size,
        renderMode: st.renderMode,
        fill: st.fill,
        order,
        inAnnotation: annotationDepth > 0,
      });
    tm = multiply([1, 0, 0, 1, advance, 0], tm);
  };

  for (let i = 0; i < count; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
        stack.push({ ...st });
        break;
      case OPS.restore:
        st = stack.pop() ?? st;
        break;
      case OPS.transform:
        st.ctm = multiply(toMatrix(args), st.ctm);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push({ ...st });
        if (isMatrixLike(args?.[0])) st.ctm = multiply(toMatrix([args?.[0]]), st.ctm);
        break;
      case OPS.paintFormXObjectEnd:
        st = stack.pop() ?? st;
        break;
      case OPS.beginAnnotation:
        annotationDepth++;
        stack.push({ ...st });
        if (isMatrixLike(args?.[2])) st.ctm = multiply(toMatrix([args?.[2]]), st.ctm);
        break;
      case OPS.endAnnotation:
        annotationDepth = Math.max(0, annotationDepth - 1);
        st = stack.pop() ?? st;
        break;
      case OPS.beginText:
        tm = lm = IDENTITY;
        break;
      case OPS.setFont:
        st.font = String(args?.[0] ?? "");
        st.size = Number(args?.[1] ?? 0);
        break;
      case OPS.setTextMatrix:
        tm = lm = toMatrix(args);
        break;
      case OPS.moveText:
        moveLine(Number(args?.[0]), Number(args?.[1]));
        break;
      case OPS.setLeadingMoveText:
        st.leading = -Number(args?.[1]);
        moveLine(Number(args?.[0]), Number(args?.[1]));
        break;
      case OPS.nextLine:
        moveLine(0, -st.leading);
        break;
      case OPS.setLeading:
        st.leading = Number(args?.[0]);
        break;
      case OPS.setCharSpacing:
        st.charSpacing = Number(args?.[0]);
        break;
      case OPS.setWordSpacing:
        st.wordSpacing = Number(args?.[0]);
        break;
      case OPS.setHScale:
        st.hScale = Number(args?.[0]) / 100;
        break;
      case OPS.setTextRise:
        st.rise = Number(args?.[0]);
        break;
      case OPS.setTextRenderingMode:
        st.renderMode = Number(args?.[0]);
        break;
      case OPS.showText:
      case OPS.showSpacedText:
        show((args?.[0] ?? []) as (Glyph | number)[], i);
        break;
      case OPS.nextLineShowText:
        moveLine(0, -st.leading);
        show((args?.[0] ?? []) as (Glyph | number)[], i);
        break;
      case OPS.nextLineSetSpacingShowText:
        st.wordSpacing = Number(args?.[0]);
        st.charSpacing = Number(args?.[1]);
        moveLine(0, -st.leading);
        show((args?.[2] ?? []) as (Glyph | number)[], i);
        break;
      case OPS.setFillRGBColor:
        st.fill = typeof args?.[0] === "string" ? (args[0] as string) : rgbHex(args as number[]);
        break;
      case OPS.setFillGray:
        st.fill = rgbHex([Number(args?.[0]) * 255, Number(args?.[0]) * 255, Number(args?.[0]) * 255]);
        break;
      case OPS.setFillTransparent:
        st.fill = "transparent";
        break;
      case OPS.constructPath:
        recordPath(model, st, args, i, OPS, annotationDepth > 0);
        break;
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
      case OPS.paintImageMaskXObject:
        model.images.push({ box: transformBox(st.ctm, 0, 0, 1, 1), order: i, inAnnotation: annotationDepth > 0 });
        break;
    }
  }
  return model;
}

/** A filled path (constructPath followed by a fill) becomes a FilledShape with its bounding box. */
function recordPath(
  model: PageModel,
  st: State,
  args: unknown[] | null,
  order: number,
  OPS: Record<string, number>,
  inAnnotation: boolean,
): void {
  const paint = Number(args?.[0]);
  const fills = [OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke];
  if (!fills.includes(paint) || st.fill === "transparent") return;
  const mm = args?.[2] as ArrayLike<number> | undefined;
  if (!mm || mm.length < 4) return;
  model.fills.push({ box: transformBox(st.ctm, mm[0], mm[1], mm[2], mm[3]), fill: st.fill, order, inAnnotation });
}

function isMatrixLike(v: unknown): v is ArrayLike<number> {
  return typeof v === "object" && v !== null && (v as ArrayLike<number>).length === 6;
}

/** pdf.js passes matrices either as the args themselves or wrapped (typed arrays in v5). */
function toMatrix(args: unknown[] | null): Matrix {
  const m = isMatrixLike(args?.[0]) ? args[0] : args;
  if (!isMatrixLike(m)) return IDENTITY;
  const out = Array.from(m, Number) as Matrix;
  return out.every(Number.isFinite) ? out : IDENTITY;
}

function rgbHex(c: number[]): string {
  return `#${c
    .slice(0, 3)
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(Number(v) || 0)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** Area of the intersection of two boxes. */
export function overlapArea(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

export function area(b: Box): number {
  return Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
}

/** Near-white fill (every channel ≥ 0xF0). */
export function isWhite(fill: string): boolean {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
  return !!m && [m[1], m[2], m[3]].every((h) => parseInt(h, 16) >= 0xf0);
}

/**
 * A small flowing page layout on pdf-lib for the reports: A4 pages, text wrapped to the margins
 * (words longer than a line — hashes, file names — are broken by character), blocks that move to a
 * new page when they do not fit, and a footer drawn on every page once the page count is known.
 * Nothing is ever drawn outside the page box (tested with pdftotext -bbox).
 */
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, type RGB, rgb } from "pdf-lib";

/** The TrueType files of the report font (regular and bold). */
export interface FontFiles {
  regular: ArrayBuffer | Uint8Array;
  bold: ArrayBuffer | Uint8Array;
}

export const PAGE = { width: 595.28, height: 841.89 } as const;
export const MARGIN = { left: 50, right: 50, top: 56, bottom: 60 } as const;
export const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;

export const colors = {
  text: rgb(0.1, 0.1, 0.12),
  muted: rgb(0.38, 0.38, 0.42),
  rule: rgb(0.78, 0.78, 0.8),
  band: rgb(0.94, 0.95, 0.97),
};

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: RGB;
  /** Extra left indent in points. */
  indent?: number;
  /** Space after the block in points. */
  after?: number;
}

/** Pages that fill top to bottom; `y` is the top of the free space on the current page. */
export class PageFlow {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = 0;
  private readonly glyphs: Set<number>;

  private constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.glyphs = new Set([...regular.getCharacterSet(), ...bold.getCharacterSet()]);
  }

  /**
   * Embeds the font and opens the first page. The font files are already cut to the scripts the reports
   * use (≈ 24 KB each), so they are embedded whole: pdf-lib's own subsetting goes through fontkit's
   * encode stream, whose ticks run from a queue shared by the isolate — in workerd another Durable
   * Object's unit then resumed in this one's turn ("Cannot perform I/O on behalf of a different Durable
   * Object"), and concurrent scans stalled on retried alarms.
   */
  static async open(doc: PDFDocument, files: FontFiles): Promise<PageFlow> {
    doc.registerFontkit(fontkit);
    const regular = await doc.embedFont(files.regular, { subset: false });
    const bold = await doc.embedFont(files.bold, { subset: false });
    const flow = new PageFlow(doc, regular, bold);
    flow.newPage();
    return flow;
  }

  newPage(): PDFPage {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = PAGE.height - MARGIN.top;
    return this.page;
  }

  /** 1-based number of the current page. */
  get pageNumber(): number {
    return this.pages.length;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y - height < MARGIN.bottom) this.newPage();
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** Text the font can draw: characters outside it become "?", odd spaces a plain no-break space. */
  printable(text: string): string {
    let out = "";
    for (const ch of text.replace(/[\u2000-\u200a\u202f\u205f]/g, "\u00a0").replace(/\r\n?/g, "\n")) {
      const code = ch.codePointAt(0)!;
      out += ch === "\n" || this.glyphs.has(code) ? ch : code < 0x20 ? " " : "?";
    }
    return out;
  }

  font(bold?: boolean): PDFFont {
    return bold ? this.bold : this.regular;
  }

  private readonly advances = new Map<string, number>();

  /**
   * Width of `text` at `size`: the sum of the glyphs' advances, each asked of fontkit once. The embedded
   * font has no kerning or ligature tables, so this equals fontkit's layout, at a fraction of its cost.
   */
  widthOf(text: string, size: number, bold?: boolean): number {
    const font = this.font(bold);
    let width = 0;
    for (const ch of text) {
      const key = `${bold ? "b" : "r"}${ch}`;
      let advance = this.advances.get(key);
      if (advance === undefined) {
        advance = font.widthOfTextAtSize(ch, 1);
        this.advances.set(key, advance);
      }
      width += advance;
    }
    return width * size;
  }

  /** Lines of at most `width` points. */
  wrap(text: string, width: number, size: number, bold?: boolean): string[] {
    const measure = (s: string) => this.widthOf(s, size, bold);
    const lines: string[] = [];
    for (const paragraph of this.printable(text).split("\n")) {
      let line = "";
      for (const word of paragraph.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (measure(candidate) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        const pieces = this.breakWord(word, width, size, bold);
        lines.push(...pieces.slice(0, -1));
        line = pieces[pieces.length - 1];
      }
      lines.push(line);
    }
    return lines;
  }

  /**
   * A word wider than the line (a hash, a file name of thousands of characters) in pieces that fit,
   * cut by character in one pass (measuring every prefix again took seconds for a long name).
   */
  private breakWord(word: string, width: number, size: number, bold?: boolean): string[] {
    const pieces: string[] = [];
    let piece = "";
    let pieceWidth = 0;
    for (const ch of word) {
      const advance = this.widthOf(ch, size, bold);
      if (piece && pieceWidth + advance > width) {
        pieces.push(piece);
        piece = "";
        pieceWidth = 0;
      }
      piece += ch;
      pieceWidth += advance;
    }
    return [...pieces, piece];
  }

  /** The height `text` takes with `style`, to keep short blocks on one page. */
  textHeight(text: string, style: TextStyle = {}): number {
    const size = style.size ?? 9.5;
    return (
      this.wrap(text, CONTENT_WIDTH - (style.indent ?? 0), size, style.bold).length * size * 1.35 + (style.after ?? 3)
    );
  }

  /** A wrapped paragraph; continues on the next page where it does not fit. */
  text(text: string, style: TextStyle = {}): void {
    const size = style.size ?? 9.5;
    const indent = style.indent ?? 0;
    const leading = size * 1.35;
    for (const line of this.wrap(text, CONTENT_WIDTH - indent, size, style.bold)) {
      this.ensure(leading);
      this.y -= leading;
      this.page.drawText(line, {
        x: MARGIN.left + indent,
        y: this.y + size * 0.28,
        size,
        font: this.font(style.bold),
        color: style.color ?? colors.text,
      });
    }
    this.y -= style.after ?? 3;
  }

  heading(text: string, size = 13): void {
    this.ensure(size * 3.2);
    this.gap(size * 0.5);
    this.text(text, { size, bold: true, after: size * 0.45 });
  }

  /** The height `rows` take (see `rows`). */
  rowsHeight(rows: [string, string][], labelWidth = 150, size = 9): number {
    return rows.reduce((sum, [label, value]) => {
      const lines = Math.max(
        this.wrap(label, labelWidth - 8, size, true).length,
        this.wrap(value, CONTENT_WIDTH - labelWidth, size).length,
      );
      return sum + lines * size * 1.35 + 2;
    }, 0);
  }

  /** Label/value rows: labels in a fixed column, values wrapped beside them. */
  rows(rows: [string, string][], labelWidth = 150, size = 9): void {
    const leading = size * 1.35;
    for (const [label, value] of rows) {
      const labels = this.wrap(label, labelWidth - 8, size, true);
      const values = this.wrap(value, CONTENT_WIDTH - labelWidth, size);
      const height = Math.max(labels.length, values.length) * leading + 2;
      // Short rows stay together; a very long value may span pages line by line.
      if (height < 200) this.ensure(height);
      const count = Math.max(labels.length, values.length);
      for (let i = 0; i < count; i++) {
        this.ensure(leading);
        this.y -= leading;
        const baseline = this.y + size * 0.28;
        if (labels[i])
          this.page.drawText(labels[i], { x: MARGIN.left, y: baseline, size, font: this.bold, color: colors.muted });
        if (values[i])
          this.page.drawText(values[i], {
            x: MARGIN.left + labelWidth,
            y: baseline,
            size,
            font: this.regular,
            color: colors.text,
          });
      }
      this.y -= 2;
    }
  }

  rule(): void {
    this.ensure(8);
    this.y -= 4;
    this.page.drawLine({
      start: { x: MARGIN.left, y: this.y },
      end: { x: PAGE.width - MARGIN.right, y: this.y },
      thickness: 0.6,
      color: colors.rule,
    });
    this.y -= 4;
  }

  /** A coloured square and a bold label (a level), then the rest of the line in regular text. */
  badge(color: RGB, label: string, rest: string, size = 10): void {
    const box = size * 0.9;
    const labelWidth = this.widthOf(this.printable(label), size, true);
    const lines = this.wrap(rest, CONTENT_WIDTH - box - 6 - labelWidth - 8, size, true);
    this.ensure(size * 1.4 * lines.length + 4);
    this.y -= size * 1.4;
    const baseline = this.y + size * 0.28;
    this.page.drawRectangle({ x: MARGIN.left, y: baseline - 1, width: box, height: box, color });
    this.page.drawText(this.printable(label), { x: MARGIN.left + box + 6, y: baseline, size, font: this.bold });
    lines.forEach((line, i) => {
      if (i > 0) this.y -= size * 1.4;
      this.page.drawText(line, {
        x: MARGIN.left + box + 6 + labelWidth + 8,
        y: this.y + size * 0.28,
        size,
        font: this.bold,
        color: colors.text,
      });
    });
    this.y -= 2;
  }

  /** The footer of every page (page numbers and case number), once all pages exist. */
  footers(footer: (page: number, pages: number) => string): void {
    const size = 8;
    this.pages.forEach((page, i) => {
      page.drawLine({
        start: { x: MARGIN.left, y: MARGIN.bottom - 18 },
        end: { x: PAGE.width - MARGIN.right, y: MARGIN.bottom - 18 },
        thickness: 0.5,
        color: colors.rule,
      });
      const lines = this.wrap(footer(i + 1, this.pages.length), CONTENT_WIDTH, size).slice(0, 2);
      lines.forEach((line, n) =>
        page.drawText(line, {
          x: MARGIN.left,
          y: MARGIN.bottom - 30 - n * size * 1.3,
          size,
          font: this.regular,
          color: colors.muted,
        }),
      );
    });
  }
}

/** A new report document with its metadata (title, creator, dates) and the page flow on its first page. */
export async function openReport(title: string, createdAt: Date, fonts: FontFiles) {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator("capture-verify");
  doc.setProducer("capture-verify (pdf-lib)");
  doc.setCreationDate(createdAt);
  doc.setModificationDate(createdAt);
  return { doc, flow: await PageFlow.open(doc, fonts) };
}

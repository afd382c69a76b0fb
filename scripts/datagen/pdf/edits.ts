// Edited invoices for tests and evaluation, made with pdf-lib plus a hand-written incremental
// update (pdf-lib itself can only rewrite whole files). No Node APIs: the workerd tests import it.
import { asNumber, dictGet } from "../../../src/scanner/pdf/objects";
import { splitRevisions } from "../../../src/scanner/pdf/revisions";
import { PDFDocument, PDFName, PDFRawStream, PDFRef, StandardFonts, decodePDFRawStream, rgb, PDFArray } from "pdf-lib";

export interface Invoice {
  number: string;
  date: string;
  lines: [string, string][];
  total: string;
}

export const sampleInvoice: Invoice = {
  number: "RE-2026-0815",
  date: "02.11.2026",
  lines: [
    ["Dachreparatur nach Sturmschaden", "980,00 EUR"],
    ["Material (Ziegel, Folie)", "254,56 EUR"],
  ],
  total: "1.234,56 EUR",
};

/** A one-page invoice saved in one go (one revision), like an invoicing system would. */
export async function makeInvoice(inv: Invoice = sampleInvoice): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer("Muster Faktura 4.2");
  doc.setCreator("Muster Faktura");
  doc.setCreationDate(new Date("2026-11-02T09:00:00Z"));
  doc.setModificationDate(new Date("2026-11-02T09:00:00Z"));
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText("Dachdeckerei Muster GmbH", { x: 50, y: 780, size: 16, font: bold });
  page.drawText(`Rechnung ${inv.number} vom ${inv.date}`, { x: 50, y: 740, size: 12, font });
  let y = 690;
  for (const [label, amount] of inv.lines) {
    page.drawText(label, { x: 50, y, size: 11, font });
    page.drawText(amount, { x: 420, y, size: 11, font });
    y -= 22;
  }
  page.drawText("Gesamtbetrag", { x: 50, y: y - 10, size: 12, font: bold });
  page.drawText(inv.total, { x: 420, y: y - 10, size: 12, font: bold });
  return doc.save({ useObjectStreams: false });
}

const hex = (s: string) => [...s].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()).join("");

/**
 * Incremental update that redefines the page's content stream with one amount replaced (same
 * object number, appended after the original %%EOF), as an editor saving "in place" does.
 */
export async function editAmountIncrementally(original: Uint8Array, from: string, to: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const page = doc.getPage(0);
  const contents = page.node.get(PDFName.of("Contents"));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  for (const ref of refs) {
    if (!(ref instanceof PDFRef)) continue;
    const stream = doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const text = new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
    const target = `<${hex(from)}>`;
    if (!text.includes(target)) continue;
    const changed = text.replace(target, `<${hex(to)}>`);
    return appendUpdate(original, [{ ref, body: streamObject(changed) }], trailerOf(doc, original));
  }
  throw new Error(`amount ${from} not found in the page content`);
}

/**
 * Incremental update that adds a second content stream to the page: a white box over `from`
 * and `to` written on top — the classic "paste over" forgery.
 */
export async function whiteBoxIncrementally(
  original: Uint8Array,
  box: { x: number; y: number; w: number; h: number },
  to: string,
  size = 12,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const page = doc.getPage(0);
  const fontKey = page.node.Resources()?.lookup(PDFName.of("Font"));
  // A page without fonts (a scan) gets the box only drawn with an unresolved font name: the text is not shown.
  const firstFont =
    (fontKey && "keys" in fontKey ? (fontKey as unknown as { keys(): PDFName[] }).keys()[0] : undefined) ??
    PDFName.of("F1");
  const overlay = `q 1 1 1 rg ${box.x} ${box.y} ${box.w} ${box.h} re f Q\nBT ${firstFont.toString()} ${size} Tf 0 0 0 rg ${box.x + 1} ${box.y + 3} Td <${hex(to)}> Tj ET\n`;
  const trailer = trailerOf(doc, original);
  const overlayRef = PDFRef.of(trailer.size);
  const pageRef = doc.getPage(0).ref;
  const contents = page.node.get(PDFName.of("Contents"));
  const existing = contents instanceof PDFArray ? contents.asArray().map(String) : [String(contents)];
  const pageDict = page.node
    .toString()
    .replace(/\/Contents\s+(\[[^\]]*\]|\d+ \d+ R)/, `/Contents [${existing.join(" ")} ${overlayRef.toString()}]`);
  return appendUpdate(
    original,
    [
      { ref: overlayRef, body: streamObject(overlay) },
      { ref: pageRef, body: pageDict },
    ],
    trailer,
  );
}

/** The same white box and new text, but saved by pdf-lib as a whole new file (one revision). */
export async function whiteBoxRewritten(
  original: Uint8Array,
  box: { x: number; y: number; w: number; h: number },
  to: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const page = doc.getPage(0);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawRectangle({ x: box.x, y: box.y, width: box.w, height: box.h, color: rgb(1, 1, 1) });
  page.drawText(to, { x: box.x + 1, y: box.y + 3, size: 12, font });
  doc.setProducer("pdf-lib (https://github.com/Hopding/pdf-lib)");
  return doc.save({ useObjectStreams: false });
}

export interface TrailerRefs {
  root: string;
  info?: string;
  size: number;
}

/**
 * Root, Info and /Size for the trailer of an update appended to `bytes`. /Size comes from the file's
 * own last trailer too: pdf-lib does not count object and xref streams it did not load as objects.
 */
export function trailerOf(doc: PDFDocument, bytes?: Uint8Array): TrailerRefs {
  const { Root, Info } = doc.context.trailerInfo;
  const last = bytes ? splitRevisions(bytes).revisions.at(-1)?.sections[0]?.trailer : undefined;
  const declared = last ? (asNumber(dictGet(last, "Size")) ?? 0) : 0;
  return {
    root: String(Root),
    info: Info ? String(Info) : undefined,
    size: Math.max(doc.context.largestObjectNumber + 1, declared),
  };
}

/**
 * Appends a classic incremental update (objects, xref table, trailer with /Prev) to a PDF; the
 * original may end in an xref table or an xref stream.
 */
export function appendUpdate(
  original: Uint8Array,
  objects: { ref: PDFRef; body: string }[],
  trailer: TrailerRefs,
): Uint8Array {
  const tail = new TextDecoder("latin1").decode(original.subarray(Math.max(0, original.length - 1024)));
  const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail)?.[1]);
  if (!Number.isFinite(prev)) throw new Error("original does not end with startxref/%%EOF");
  const { root, info } = trailer;
  const size = Math.max(trailer.size, ...objects.map((o) => o.ref.objectNumber + 1));
  const enc = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
  let text = original[original.length - 1] === 0x0a ? "" : "\n";
  const offsets: [number, number][] = [];
  for (const o of objects) {
    offsets.push([o.ref.objectNumber, original.length + text.length]);
    text += `${o.ref.objectNumber} 0 obj\n${o.body}\nendobj\n`;
  }
  const xrefAt = original.length + text.length;
  text += "xref\n0 1\n0000000000 65535 f \n";
  for (const [num, off] of offsets.sort((a, b) => a[0] - b[0]))
    text += `${num} 1\n${String(off).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${size} /Root ${root}${info ? ` /Info ${info}` : ""} /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  const out = new Uint8Array(original.length + text.length);
  out.set(original);
  out.set(enc(text), original.length);
  return out;
}

function streamObject(content: string): string {
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
}

/** Incremental update that appends a page with one line of text (e.g. a forged second page). */
export async function appendPageIncrementally(original: Uint8Array, line: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const pages = doc.catalog.Pages();
  const pagesRef = doc.catalog.get(PDFName.of("Pages")) as PDFRef;
  const first = doc.getPage(0);
  const fonts = first.node.Resources()?.lookup(PDFName.of("Font"));
  const next = trailerOf(doc, original).size;
  const contentRef = PDFRef.of(next);
  const pageRef = PDFRef.of(next + 1);
  const kids = pages.Kids().asArray().map(String);
  const fontKey = fonts && "keys" in fonts ? (fonts as unknown as { keys(): PDFName[] }).keys()[0].toString() : "/F1";
  const content = `BT ${fontKey} 12 Tf 50 780 Td <${hex(line)}> Tj ET`;
  const pagesBody = pages
    .toString()
    .replace(/\/Kids\s*\[[^\]]*\]/, `/Kids [${[...kids, pageRef.toString()].join(" ")}]`)
    .replace(/\/Count\s+\d+/, `/Count ${kids.length + 1}`);
  const pageBody = `<< /Type /Page /Parent ${pagesRef.toString()} /MediaBox [0 0 595 842] /Resources << /Font ${fonts ? fonts.toString() : "<< >>"} >> /Contents ${contentRef.toString()} >>`;
  return appendUpdate(
    original,
    [
      { ref: contentRef, body: streamObject(content) },
      { ref: pageRef, body: pageBody },
      { ref: pagesRef, body: pagesBody },
    ],
    { ...trailerOf(doc, original), size: next + 2 },
  );
}

/**
 * Tools whose purpose is changing existing PDFs (online editors, desktop editors, libraries used
 * to patch files) and online conversion services (PDF to Word and back). Producing a PDF from scratch with a word processor or an invoicing system is
 * not on this list; seeing one of these in Producer/Creator/XMP history means someone opened the
 * document in an editor after it was made.
 */
const editors: { pattern: RegExp; name: string; online: boolean }[] = [
  { pattern: /ilovepdf/i, name: "iLovePDF", online: true },
  { pattern: /smallpdf/i, name: "Smallpdf", online: true },
  { pattern: /sejda/i, name: "Sejda", online: true },
  { pattern: /pdfescape/i, name: "PDFescape", online: true },
  { pattern: /pdf\s*filler/i, name: "pdfFiller", online: true },
  { pattern: /dochub/i, name: "DocHub", online: true },
  { pattern: /pdf\s*candy/i, name: "PDF Candy", online: true },
  { pattern: /pdf2go/i, name: "PDF2Go", online: true },
  { pattern: /soda\s*pdf/i, name: "Soda PDF", online: true },
  { pattern: /pdf24/i, name: "PDF24", online: true },
  { pattern: /pdf-?xchange/i, name: "PDF-XChange Editor", online: false },
  { pattern: /foxit\s*(phantom|pdf\s*editor)/i, name: "Foxit PDF Editor", online: false },
  { pattern: /nitro\s*pro|nitro\s*pdf/i, name: "Nitro PDF", online: false },
  { pattern: /pdfelement|wondershare/i, name: "Wondershare PDFelement", online: false },
  { pattern: /master\s*pdf\s*editor/i, name: "Master PDF Editor", online: false },
  { pattern: /pdf\s*expert/i, name: "PDF Expert", online: false },
  { pattern: /infix/i, name: "Infix PDF Editor", online: false },
  { pattern: /inkscape/i, name: "Inkscape", online: false },
  { pattern: /^draw$|libreoffice.*draw/i, name: "LibreOffice Draw", online: false },
  { pattern: /pdf-lib/i, name: "pdf-lib", online: false },
  // Conversion services: a document that went PDF -> Word -> PDF can have been edited in between.
  { pattern: /convertio/i, name: "Convertio", online: true },
  { pattern: /zamzar/i, name: "Zamzar", online: true },
  { pattern: /cloudconvert/i, name: "CloudConvert", online: true },
  { pattern: /online2pdf/i, name: "online2pdf", online: true },
  { pattern: /pdf\s*converter|freepdfconvert/i, name: "PDF Converter", online: true },
];

export interface EditorHit {
  name: string;
  online: boolean;
  value: string;
}

/** Editors named in any of the given producer/creator/agent strings. */
export function editorsIn(values: (string | undefined | null)[]): EditorHit[] {
  const hits: EditorHit[] = [];
  for (const value of values) {
    if (!value) continue;
    for (const e of editors)
      if (e.pattern.test(value) && !hits.some((h) => h.name === e.name))
        hits.push({ name: e.name, online: e.online, value });
  }
  return hits;
}

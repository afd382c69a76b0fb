/**
 * The reports' words in the request's language (spec 4.4 `language`: de, en, pl) and its formats for
 * dates and numbers (Intl). Findings arrive already translated from the detectors.
 */
import type { Language, SuspicionLevel } from "../types";

const locales: Record<Language, string> = { de: "de-DE", en: "en-GB", pl: "pl-PL" };

/** "24.11.2026, 20:45:07 UTC+00:00": always UTC, with the offset written out. */
export function formatDateTime(date: Date, language: Language): string {
  const text = new Intl.DateTimeFormat(locales[language], {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
  }).format(date);
  return `${text} UTC+00:00`;
}

export function formatNumber(value: number, language: Language, fractionDigits = 0): string {
  return new Intl.NumberFormat(locales[language], {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** "2,4 MB (2.512.345 Bytes)". */
export function formatSize(bytes: number, language: Language): string {
  const unit = t(language).bytes;
  const exact = `${formatNumber(bytes, language)} ${unit}`;
  if (bytes < 1024) return exact;
  const [value, suffix] = bytes < 1048576 ? [bytes / 1024, "KB"] : [bytes / 1048576, "MB"];
  return `${formatNumber(value, language, 1)} ${suffix} (${exact})`;
}

const quotes: Record<Language, [string, string]> = { de: ["„", "“"], en: ["“", "”"], pl: ["„", "”"] };

/** Text in the language's quotation marks. */
export function quote(text: string, language: Language): string {
  const [open, close] = quotes[language];
  return `${open}${text}${close}`;
}

/** The `<detector>` of the heatmaps' names `<file>.<detector>.png` (images/heatmap.ts' callers), each captioned in a report. */
export const HEATMAP_KINDS = [
  "ela",
  "noise",
  "copy-move",
  "seams",
  "blur",
  "manipulation",
  "recapture",
  "dq",
  "ghost",
  "grid",
  "region-fusion",
] as const;
export type HeatmapKind = (typeof HEATMAP_KINDS)[number];

interface ReportTexts {
  bytes: string;
  levels: Record<SuspicionLevel, { name: string; meaning: string }>;
  analysisTitle: string;
  enfsiTitle: string;
  caseNumber: string;
  sessionId: string;
  createdAt: string;
  issueDate: string;
  overallLevel: string;
  files: string;
  summary: string;
  summaryNone: string;
  summaryNotAssessed: (count: number) => string;
  /** Level `-` in a count ("not assessed: 1"). */
  notAssessed: string;
  strongest: string;
  contents: string;
  page: string;
  footer: (caseNumber: string, page: number, pages: number) => string;
  fileDetail: string;
  type: string;
  /** `Files[name].type` in words. */
  fileTypes: Record<"image" | "pdf" | "other", string>;
  size: string;
  sha256: string;
  source: (parent: string, page: number) => string;
  extractedFrom: string;
  extractedItems: string;
  level: string;
  findings: string;
  noFindings: string;
  evidence: string;
  metadata: string;
  thumbnail: string;
  heatmaps: string;
  legendTitle: string;
  legendLow: string;
  legendHigh: string;
  legendHatched: string;
  legendLines: string;
  heatmapNames: Record<HeatmapKind, string>;
  revisions: string;
  revisionsCount: (n: number) => string;
  revisionFiles: string;
  diffFile: string;
  attachmentsNote: string;
  disclaimer: string;
  notAnalysed: string;
  // ENFSI report
  enfsiIntro: string;
  request: string;
  requestText: (files: number) => string;
  questions: string;
  questionList: string[];
  itemsReceived: string;
  item: string;
  methods: string;
  methodsIntro: string;
  tool: string;
  version: string;
  examinations: string;
  results: string;
  limitations: string;
  conclusions: string;
  conclusion: string;
  scale: string;
  scaleIntro: string;
  conclusionTexts: Record<SuspicionLevel, string>;
  signatureNote: string;
  methodNames: Record<string, string>;
  limitationTexts: Record<string, string>;
  /** For a method without its own text (a detector added later). */
  limitationsDocumented: string;
}

const de: ReportTexts = {
  bytes: "Bytes",
  levels: {
    Red: { name: "Rot", meaning: "starke Auffälligkeiten" },
    Yellow: { name: "Gelb", meaning: "Auffälligkeiten, die einen Blick verdienen" },
    Green: { name: "Grün", meaning: "keine Auffälligkeiten" },
    "-": { name: "–", meaning: "keine Aussage möglich, nicht beurteilt" },
  },
  analysisTitle: "Analysebericht",
  enfsiTitle: "Untersuchungsbericht nach ENFSI-Leitfaden (forensische Bildanalyse)",
  caseNumber: "Fallnummer",
  sessionId: "Sitzungs-ID",
  createdAt: "Erstellt am",
  issueDate: "Bezugsdatum (issueDate)",
  overallLevel: "Gesamtbewertung",
  files: "Dateien",
  summary: "Zusammenfassung",
  summaryNone: "Keine der geprüften Dateien zeigt Auffälligkeiten.",
  summaryNotAssessed: (n) => `${n} Datei(en) konnten nicht beurteilt werden.`,
  notAssessed: "nicht beurteilt",
  strongest: "Stärkste Befunde",
  contents: "Inhalt",
  page: "Seite",
  footer: (c, p, n) => `Fallnummer ${c} · Seite ${p} von ${n}`,
  fileDetail: "Datei",
  type: "Typ",
  fileTypes: { image: "Bild", pdf: "PDF-Dokument", other: "sonstige Datei" },
  size: "Größe",
  sha256: "SHA-256",
  source: (parent, page) => `aus „${parent}“, Seite ${page}`,
  extractedFrom: "Herkunft",
  extractedItems: "Aus dieser Datei entnommene Bilder",
  level: "Bewertung",
  findings: "Befunde",
  noFindings: "Keine Befunde.",
  evidence: "Belege",
  metadata: "Wichtige Metadaten",
  thumbnail: "Vorschau",
  heatmaps: "Heatmaps",
  legendTitle: "Farben der Heatmaps",
  legendLow: "unauffällig",
  legendHigh: "am stärksten auffällig",
  legendHatched:
    "grau schraffiert: Bereich kann vom Verfahren nicht beurteilt werden (flach, überbelichtet, zu klein) – nicht „unauffällig“",
  legendLines: "türkise Linien (Kopieren-Verschieben): verbinden Bereiche mit übereinstimmendem Inhalt",
  heatmapNames: {
    ela: "Fehlerniveau-Analyse (ELA)",
    noise: "Rauschanalyse",
    "copy-move": "Kopieren-Verschieben",
    seams: "Schnittkanten",
    blur: "Weichgezeichnete Bereiche",
    manipulation: "Manipulationsmodell",
    recapture: "Abfotografiert-Modell",
    dq: "Doppelte Quantisierung",
    ghost: "JPEG-Geister",
    grid: "Frühere JPEG-Raster",
    "region-fusion": "Kombinierte Prüfung",
  },
  revisions: "Versionen und Änderungen",
  revisionsCount: (n) => `Die Datei wurde ${n}-mal gespeichert (${n} Revisionen).`,
  revisionFiles: "Frühere Versionen (Anhang pdf_versions)",
  diffFile: "Änderungsansicht (Anhang pdf_diffs)",
  attachmentsNote: "Anhänge",
  disclaimer:
    "Die Bewertung beruht auf automatischen Verfahren. Befunde sind Hinweise, keine Beweise; ihre Bedeutung ist im Einzelfall zu prüfen. „Grün“ bedeutet, dass die angewandten Verfahren nichts gefunden haben, nicht, dass eine Datei echt ist.",
  notAnalysed: "Die Datei konnte nicht analysiert werden.",
  enfsiIntro:
    "Aufbau nach dem ENFSI Best Practice Manual for Forensic Image Analysis: Auftrag und Fragestellung, erhaltene Asservate, Methoden und Werkzeuge, Untersuchungen und Ergebnisse je Asservat, Grenzen der Methoden, Schlussfolgerung je Asservat auf einer erläuterten Skala. Die Untersuchung wurde automatisch durchgeführt.",
  request: "Auftrag",
  requestText: (n) =>
    `Prüfung von ${n} übermittelten Datei(en) auf Hinweise auf Bearbeitung, Erzeugung oder nachträgliche Änderung im Rahmen eines Versicherungsfalls.`,
  questions: "Fragestellung",
  questionList: [
    "Gibt es Hinweise, dass eine Datei nach der Aufnahme oder Erstellung bearbeitet wurde?",
    "Gibt es Hinweise auf künstliche Erzeugung, Abfotografieren eines Bildschirms oder Ausdrucks?",
    "Wurden PDF-Dokumente nach ihrer ersten Speicherung oder nach einer Signatur geändert, und was wurde geändert?",
  ],
  itemsReceived: "Erhaltene Asservate",
  item: "Asservat",
  methods: "Methoden und Werkzeuge",
  methodsIntro: "Angewandte Verfahren mit Versionen (modelVersions der Antwort):",
  tool: "Verfahren",
  version: "Version",
  examinations: "Untersuchungen und Ergebnisse",
  results: "Ergebnisse",
  limitations: "Grenzen der Methoden",
  conclusions: "Schlussfolgerungen",
  conclusion: "Schlussfolgerung",
  scale: "Verbale Skala",
  scaleIntro:
    "Die Schlussfolgerung je Asservat folgt dieser Skala. Sie beschreibt, wie stark die Befunde der angewandten Verfahren auf eine Bearbeitung hinweisen; sie ist keine Wahrscheinlichkeit und ersetzt keine Begutachtung durch Sachverständige.",
  conclusionTexts: {
    Red: "Die Befunde weisen stark auf eine Bearbeitung oder nachträgliche Änderung hin. Eine sachverständige Prüfung vor einer Entscheidung wird empfohlen.",
    Yellow:
      "Es gibt Befunde, die auf eine Bearbeitung hinweisen können, aber auch harmlose Erklärungen haben. Eine manuelle Prüfung wird empfohlen.",
    Green:
      "Die angewandten Verfahren fanden keine Hinweise auf eine Bearbeitung. Das belegt nicht die Echtheit; nicht erkannte Bearbeitungen sind möglich.",
    "-": "Keine Aussage möglich: Das Asservat konnte mit den angewandten Verfahren nicht beurteilt werden (Grund in den Befunden).",
  },
  signatureNote: "Automatisch erstellt; nicht unterschrieben.",
  methodNames: {
    "file-type": "Dateityp und Struktur (Magic Bytes, Struktur bis Dateiende, SHA-256)",
    thumbnail: "Vorschaubild",
    "recapture-model": "Lernendes Modell: abfotografierter Bildschirm/Ausdruck",
    "manipulation-model": "Lernendes Modell: Bildmanipulation",
    "pdf-revisions": "PDF: inkrementelle Speicherungen (Revisionen)",
    "pdf-structure": "PDF: Metadaten, Editoren, Daten, aktive Inhalte, Seiteninhalt",
    "pdf-signatures": "PDF: Signaturbereiche und Änderungen nach Signatur",
    "pdf-images": "PDF: eingebettete Bilder und Scans",
    "pdf-diffs": "PDF: Unterschiede zwischen Revisionen",
    "pdf-fields": "PDF: Textfelder für den Dateivergleich (Daten, Beträge, IBAN, Nummern)",
    metadata: "Metadaten (EXIF, XMP, IPTC, ICC, PNG-Text)",
    "jpeg-structure": "JPEG-Struktur und Quantisierungstabellen",
    ela: "Fehlerniveau-Analyse (ELA)",
    noise: "Rauschanalyse",
    "copy-move": "Kopieren-Verschieben-Erkennung",
    "jpeg-dq": "Doppelte JPEG-Quantisierung (Lokalisierung)",
    "jpeg-ghost": "JPEG-Geister (Neukompression mit Qualitäten 50–98)",
    "jpeg-grid": "Raster früherer JPEG-Speicherungen (nicht ausgerichtete doppelte Kompression)",
    seams: "Schnittkanten (scharf umrahmte eingefügte oder nachbelichtete Rechtecke)",
    blur: "Weichgezeichnete Rechtecke (Schärfesprung entlang vier gerader Seiten)",
    "region-fusion": "Kombinierte Prüfung (ELA, Rauschen und JPEG-Koeffizienten am selben Ort)",
    "image-pages": "HEIC-, TIFF-Seiten: als Bild dekodiert und wie Fotos geprüft",
    provenance: "Herkunftsnachweise (C2PA, KI-Kennzeichnungen)",
  },
  limitationTexts: {
    "file-type": "Erkennt Typ und Unversehrtheit, sagt nichts über den Inhalt.",
    thumbnail: "Dient nur der Ansicht; keine Bewertung.",
    "recapture-model":
      "Statistisches Modell mit Fehlerraten; sehr große oder nicht dekodierbare Bilder werden nicht beurteilt.",
    "manipulation-model": "Statistisches Modell mit Fehlerraten; bewertet Bildbereiche, nicht die Echtheit der Szene.",
    "pdf-revisions": "Erkennt nur Änderungen, die als inkrementelle Speicherung in der Datei verblieben sind.",
    "pdf-structure":
      "Metadaten können gefälscht oder entfernt sein; ein Editor-Eintrag allein belegt keine inhaltliche Änderung.",
    "pdf-signatures": "Prüft Signaturen strukturell, nicht kryptografisch.",
    "pdf-images": "JPEG 2000, JBIG2 und sehr kleine Inline-Bilder werden nicht entnommen.",
    "pdf-diffs": "Vergleicht Textläufe; eine Änderung in einem langen Lauf zeigt den ganzen Lauf.",
    "pdf-fields": "Liest nur eingebetteten Text (keine Texterkennung in Scans); bewertet selbst nichts.",
    metadata: "Metadaten lassen sich entfernen oder fälschen; fehlende Metadaten sind kein Beleg.",
    "jpeg-structure": "Erneutes Speichern ohne Bearbeitung kann dieselben Spuren hinterlassen.",
    ela: "Schwach bei Einfügungen aus Fotos ähnlicher Qualität; flache und überbelichtete Bereiche nicht beurteilbar.",
    noise:
      "Erkennt nur fehlendes Rauschen (Weichzeichnen, Hochskalieren); stark texturierte Bereiche nicht beurteilbar.",
    "copy-move": "Findet nur Kopien innerhalb desselben Bildes ohne starke Drehung oder Skalierung.",
    "jpeg-dq":
      "Nur bei zweimal auf demselben Raster gespeicherten JPEGs; progressive oder beschädigte Dateien nicht beurteilbar.",
    "jpeg-ghost":
      "Nur wenn die Bereiche verschiedene Speicherketten hatten; progressive oder beschädigte Dateien nicht beurteilbar.",
    "jpeg-grid":
      "Nur bei früher grob gespeicherten eingefügten Inhalten (Qualität unter etwa 90); flache Flächen und beschädigte Dateien nicht beurteilbar.",
    seams:
      "Nur gerade, harte Kanten eines Rechtecks; weich auslaufende oder frei geformte Bearbeitungen und Einfügungen in flache Flächen nicht erkennbar; über 1 MP verkleinert geprüft.",
    blur: "Nur rechteckig weichgezeichnete Bereiche mit feinen Details; weich auslaufende oder frei geformte Weichzeichnung und Flächen ohne Details (Himmel, glatte Wände) nicht erkennbar; über 1 MP verkleinert geprüft.",
    "region-fusion":
      "Keine eigene Messung: fasst die Karten der anderen Verfahren zusammen; glatte Wände können ELA und Rauschen gemeinsam täuschen.",
    provenance: "Fehlende Herkunftsnachweise sind der Normalfall und kein Befund.",
    "image-pages":
      "Über 13 MP verkleinert geprüft (ganzzahliger Faktor, 24/48-MP-HEIC: halbe Größe), bis 120 MP; HEIC als Einzelbild und TIFF-Seiten aus einem komprimierten Streifen bis 6 MP; Drehung/Spiegelung aus den Metadaten wird nicht angewendet, bei HEIC nur das Hauptbild.",
  },
  limitationsDocumented: "Bekannte Grenzen: siehe Dokumentation des Verfahrens (docs/forensics.md).",
};

const en: ReportTexts = {
  bytes: "bytes",
  levels: {
    Red: { name: "Red", meaning: "strong findings" },
    Yellow: { name: "Yellow", meaning: "findings that warrant a look" },
    Green: { name: "Green", meaning: "no findings" },
    "-": { name: "–", meaning: "no statement possible, not assessed" },
  },
  analysisTitle: "Analysis report",
  enfsiTitle: "Examination report following the ENFSI guideline (forensic image analysis)",
  caseNumber: "Case number",
  sessionId: "Session ID",
  createdAt: "Created",
  issueDate: "Reference date (issueDate)",
  overallLevel: "Overall level",
  files: "Files",
  summary: "Summary",
  summaryNone: "None of the checked files shows findings.",
  summaryNotAssessed: (n) => `${n} file(s) could not be assessed.`,
  notAssessed: "not assessed",
  strongest: "Strongest findings",
  contents: "Contents",
  page: "Page",
  footer: (c, p, n) => `Case number ${c} · Page ${p} of ${n}`,
  fileDetail: "File",
  type: "Type",
  fileTypes: { image: "image", pdf: "PDF document", other: "other file" },
  size: "Size",
  sha256: "SHA-256",
  source: (parent, page) => `from “${parent}”, page ${page}`,
  extractedFrom: "Source",
  extractedItems: "Images taken from this file",
  level: "Level",
  findings: "Findings",
  noFindings: "No findings.",
  evidence: "Evidence",
  metadata: "Key metadata",
  thumbnail: "Preview",
  heatmaps: "Heatmaps",
  legendTitle: "Heatmap colours",
  legendLow: "unremarkable",
  legendHigh: "most suspicious",
  legendHatched: "hatched grey: the method cannot judge this area (flat, clipped, too small) – not “unremarkable”",
  legendLines: "cyan lines (copy-move): connect areas with matching content",
  heatmapNames: {
    ela: "Error level analysis (ELA)",
    noise: "Noise analysis",
    "copy-move": "Copy-move",
    seams: "Cut edges",
    blur: "Blurred areas",
    manipulation: "Manipulation model",
    recapture: "Recapture model",
    dq: "Double quantisation",
    ghost: "JPEG ghosts",
    grid: "Earlier JPEG grids",
    "region-fusion": "Combined check",
  },
  revisions: "Revisions and changes",
  revisionsCount: (n) => `The file was saved ${n} times (${n} revisions).`,
  revisionFiles: "Earlier versions (attachment pdf_versions)",
  diffFile: "Change view (attachment pdf_diffs)",
  attachmentsNote: "Attachments",
  disclaimer:
    "The assessment comes from automatic methods. Findings are indications, not proof; their meaning has to be judged case by case. “Green” means the methods applied found nothing, not that a file is genuine.",
  notAnalysed: "The file could not be analysed.",
  enfsiIntro:
    "Structured along the ENFSI Best Practice Manual for Forensic Image Analysis: request and questions, items received, methods and tools, examinations and results per item, limitations of the methods, conclusion per item on an explained scale. The examination was carried out automatically.",
  request: "Request",
  requestText: (n) =>
    `Examine ${n} submitted file(s) for indications of editing, generation or later modification in an insurance claim.`,
  questions: "Questions",
  questionList: [
    "Are there indications that a file was edited after it was taken or created?",
    "Are there indications of synthetic generation or of a photographed screen or print?",
    "Were PDF documents changed after they were first saved or after a signature, and what changed?",
  ],
  itemsReceived: "Items received",
  item: "Item",
  methods: "Methods and tools",
  methodsIntro: "Methods applied, with versions (the response's modelVersions):",
  tool: "Method",
  version: "Version",
  examinations: "Examinations and results",
  results: "Results",
  limitations: "Limitations of the methods",
  conclusions: "Conclusions",
  conclusion: "Conclusion",
  scale: "Verbal scale",
  scaleIntro:
    "The conclusion for each item follows this scale. It states how strongly the findings of the methods applied point to editing; it is not a probability and does not replace an expert examination.",
  conclusionTexts: {
    Red: "The findings strongly indicate editing or later modification. An expert examination before any decision is recommended.",
    Yellow:
      "There are findings that can indicate editing but can also have innocent explanations. A manual review is recommended.",
    Green:
      "The methods applied found no indication of editing. This does not prove authenticity; undetected edits are possible.",
    "-": "No statement possible: the item could not be assessed with the methods applied (reason in the findings).",
  },
  signatureNote: "Generated automatically; not signed.",
  methodNames: {
    "file-type": "File type and structure (magic bytes, structure to the end, SHA-256)",
    thumbnail: "Preview image",
    "recapture-model": "Learned model: photographed screen/print",
    "manipulation-model": "Learned model: image manipulation",
    "pdf-revisions": "PDF: incremental saves (revisions)",
    "pdf-structure": "PDF: metadata, editors, dates, active content, page content",
    "pdf-signatures": "PDF: signature ranges and changes after signing",
    "pdf-images": "PDF: embedded images and scans",
    "pdf-diffs": "PDF: differences between revisions",
    "pdf-fields": "PDF: text fields for the cross-file comparison (dates, amounts, IBANs, numbers)",
    metadata: "Metadata (EXIF, XMP, IPTC, ICC, PNG text)",
    "jpeg-structure": "JPEG structure and quantisation tables",
    ela: "Error level analysis (ELA)",
    noise: "Noise analysis",
    "copy-move": "Copy-move detection",
    "jpeg-dq": "Double JPEG quantisation (localised)",
    "jpeg-ghost": "JPEG ghosts (recompression at qualities 50–98)",
    "jpeg-grid": "Grid of earlier JPEG saves (non-aligned double compression)",
    seams: "Cut edges (pasted or re-toned rectangles framed by sharp steps)",
    blur: "Blurred rectangles (a step in sharpness along four straight sides)",
    "region-fusion": "Combined check (ELA, noise and JPEG coefficients at the same place)",
    "image-pages": "HEIC and TIFF pages: decoded to pictures and checked like photos",
    provenance: "Provenance (C2PA, AI labels)",
  },
  limitationTexts: {
    "file-type": "Recognises type and integrity; says nothing about the content.",
    thumbnail: "For viewing only; no assessment.",
    "recapture-model": "Statistical model with error rates; very large or undecodable pictures are not assessed.",
    "manipulation-model": "Statistical model with error rates; judges picture areas, not whether the scene is genuine.",
    "pdf-revisions": "Sees only changes that remained in the file as incremental saves.",
    "pdf-structure": "Metadata can be forged or removed; an editor entry alone does not prove a change of content.",
    "pdf-signatures": "Checks signatures structurally, not cryptographically.",
    "pdf-images": "JPEG 2000, JBIG2 and very small inline images are not extracted.",
    "pdf-diffs": "Compares text runs; a change inside a long run shows the whole run.",
    "pdf-fields": "Reads embedded text only (no OCR of scans); judges nothing on its own.",
    metadata: "Metadata can be removed or forged; missing metadata proves nothing.",
    "jpeg-structure": "Saving again without editing can leave the same traces.",
    ela: "Weak on pastes from photos of similar quality; flat and clipped areas cannot be judged.",
    noise: "Sees only missing noise (blur, upscaling); strongly textured areas cannot be judged.",
    "copy-move": "Finds copies within the same picture only, without strong rotation or scaling.",
    "jpeg-dq": "Only for JPEGs saved twice on the same grid; progressive or damaged files cannot be judged.",
    "jpeg-ghost":
      "Only where areas went through different chains of saves; progressive or damaged files cannot be judged.",
    "jpeg-grid":
      "Only content saved coarsely before (quality below about 90) and pasted off the grid; flat areas and damaged files cannot be judged.",
    seams:
      "Only straight, hard edges of a rectangle; soft (feathered) or free-form edits and pastes into flat areas are not seen; pictures above 1 MP are checked reduced.",
    blur: "Only rectangles blurred where they had fine detail; feathered or free-form blurs and areas without detail (sky, plain walls) are not seen; pictures above 1 MP are checked reduced.",
    "region-fusion":
      "No measurement of its own: combines the other methods' maps; plain walls can mislead ELA and noise together.",
    provenance: "Missing provenance data is the normal case and not a finding.",
    "image-pages":
      "Over 13 MP checked at reduced size (integer factor; 24/48 MP HEICs at half size), up to 120 MP; single-image HEICs and TIFF pages of one compressed strip up to 6 MP; rotation/mirroring from the metadata is not applied, for HEIC only the main picture.",
  },
  limitationsDocumented: "Known limits: see the method's documentation (docs/forensics.md).",
};

const pl: ReportTexts = {
  bytes: "bajtów",
  levels: {
    Red: { name: "Czerwony", meaning: "poważne nieprawidłowości" },
    Yellow: { name: "Żółty", meaning: "nieprawidłowości warte uwagi" },
    Green: { name: "Zielony", meaning: "brak nieprawidłowości" },
    "-": { name: "–", meaning: "brak możliwości oceny, nie oceniono" },
  },
  analysisTitle: "Raport z analizy",
  enfsiTitle: "Sprawozdanie z badania według wytycznych ENFSI (kryminalistyczna analiza obrazu)",
  caseNumber: "Numer sprawy",
  sessionId: "ID sesji",
  createdAt: "Utworzono",
  issueDate: "Data odniesienia (issueDate)",
  overallLevel: "Ocena ogólna",
  files: "Pliki",
  summary: "Podsumowanie",
  summaryNone: "Żaden ze sprawdzonych plików nie wykazuje nieprawidłowości.",
  summaryNotAssessed: (n) => `Nie udało się ocenić plików: ${n}.`,
  notAssessed: "nie oceniono",
  strongest: "Najważniejsze ustalenia",
  contents: "Spis treści",
  page: "Strona",
  footer: (c, p, n) => `Numer sprawy ${c} · Strona ${p} z ${n}`,
  fileDetail: "Plik",
  type: "Typ",
  fileTypes: { image: "obraz", pdf: "dokument PDF", other: "inny plik" },
  size: "Rozmiar",
  sha256: "SHA-256",
  source: (parent, page) => `z „${parent}”, strona ${page}`,
  extractedFrom: "Pochodzenie",
  extractedItems: "Obrazy pobrane z tego pliku",
  level: "Ocena",
  findings: "Ustalenia",
  noFindings: "Brak ustaleń.",
  evidence: "Dowody",
  metadata: "Najważniejsze metadane",
  thumbnail: "Podgląd",
  heatmaps: "Mapy cieplne",
  legendTitle: "Kolory map cieplnych",
  legendLow: "bez zastrzeżeń",
  legendHigh: "najbardziej podejrzane",
  legendHatched:
    "szare kreskowanie: metoda nie może ocenić tego obszaru (płaski, prześwietlony, za mały) – nie oznacza „bez zastrzeżeń”",
  legendLines: "turkusowe linie (kopiuj-przesuń): łączą obszary o zgodnej treści",
  heatmapNames: {
    ela: "Analiza poziomu błędu (ELA)",
    noise: "Analiza szumu",
    "copy-move": "Kopiuj-przesuń",
    seams: "Krawędzie cięcia",
    blur: "Rozmyte obszary",
    manipulation: "Model manipulacji",
    recapture: "Model ponownego sfotografowania",
    dq: "Podwójna kwantyzacja",
    ghost: "Duchy JPEG",
    grid: "Wcześniejsze siatki JPEG",
    "region-fusion": "Łączna kontrola",
  },
  revisions: "Wersje i zmiany",
  revisionsCount: (n) => `Plik zapisano ${n} razy (liczba rewizji: ${n}).`,
  revisionFiles: "Wcześniejsze wersje (załącznik pdf_versions)",
  diffFile: "Widok zmian (załącznik pdf_diffs)",
  attachmentsNote: "Załączniki",
  disclaimer:
    "Ocena pochodzi z metod automatycznych. Ustalenia są wskazówkami, nie dowodami; ich znaczenie należy ocenić w każdym przypadku. „Zielony” oznacza, że zastosowane metody niczego nie znalazły, a nie że plik jest autentyczny.",
  notAnalysed: "Nie udało się przeanalizować pliku.",
  enfsiIntro:
    "Układ według ENFSI Best Practice Manual for Forensic Image Analysis: zlecenie i pytania, otrzymane dowody rzeczowe, metody i narzędzia, badania i wyniki dla każdego dowodu, ograniczenia metod, wniosek dla każdego dowodu na objaśnionej skali. Badanie przeprowadzono automatycznie.",
  request: "Zlecenie",
  requestText: (n) =>
    `Zbadanie przesłanych plików (${n}) pod kątem śladów edycji, wygenerowania lub późniejszej zmiany w ramach szkody ubezpieczeniowej.`,
  questions: "Pytania",
  questionList: [
    "Czy są ślady, że plik był edytowany po wykonaniu lub utworzeniu?",
    "Czy są ślady sztucznego wygenerowania albo sfotografowania ekranu lub wydruku?",
    "Czy dokumenty PDF zmieniono po pierwszym zapisie lub po podpisie i co zmieniono?",
  ],
  itemsReceived: "Otrzymane dowody rzeczowe",
  item: "Dowód",
  methods: "Metody i narzędzia",
  methodsIntro: "Zastosowane metody wraz z wersjami (modelVersions odpowiedzi):",
  tool: "Metoda",
  version: "Wersja",
  examinations: "Badania i wyniki",
  results: "Wyniki",
  limitations: "Ograniczenia metod",
  conclusions: "Wnioski",
  conclusion: "Wniosek",
  scale: "Skala słowna",
  scaleIntro:
    "Wniosek dla każdego dowodu odpowiada tej skali. Opisuje, jak silnie ustalenia zastosowanych metod wskazują na edycję; nie jest prawdopodobieństwem i nie zastępuje opinii biegłego.",
  conclusionTexts: {
    Red: "Ustalenia silnie wskazują na edycję lub późniejszą zmianę. Przed decyzją zaleca się badanie przez biegłego.",
    Yellow:
      "Istnieją ustalenia, które mogą wskazywać na edycję, ale mogą też mieć niewinne wyjaśnienie. Zaleca się ręczną weryfikację.",
    Green:
      "Zastosowane metody nie znalazły śladów edycji. Nie dowodzi to autentyczności; niewykryte zmiany są możliwe.",
    "-": "Brak możliwości oceny: dowodu nie udało się ocenić zastosowanymi metodami (przyczyna w ustaleniach).",
  },
  signatureNote: "Utworzono automatycznie; bez podpisu.",
  methodNames: {
    "file-type": "Typ i struktura pliku (sygnatura, struktura do końca pliku, SHA-256)",
    thumbnail: "Miniatura",
    "recapture-model": "Model uczony: sfotografowany ekran/wydruk",
    "manipulation-model": "Model uczony: manipulacja obrazem",
    "pdf-revisions": "PDF: zapisy przyrostowe (rewizje)",
    "pdf-structure": "PDF: metadane, edytory, daty, aktywna treść, zawartość stron",
    "pdf-signatures": "PDF: zakresy podpisów i zmiany po podpisaniu",
    "pdf-images": "PDF: osadzone obrazy i skany",
    "pdf-diffs": "PDF: różnice między rewizjami",
    "pdf-fields": "PDF: pola tekstowe do porównania plików (daty, kwoty, IBAN, numery)",
    metadata: "Metadane (EXIF, XMP, IPTC, ICC, tekst PNG)",
    "jpeg-structure": "Struktura JPEG i tablice kwantyzacji",
    ela: "Analiza poziomu błędu (ELA)",
    noise: "Analiza szumu",
    "copy-move": "Wykrywanie kopiuj-przesuń",
    "jpeg-dq": "Podwójna kwantyzacja JPEG (lokalizacja)",
    "jpeg-ghost": "Duchy JPEG (ponowna kompresja w jakości 50–98)",
    "jpeg-grid": "Siatka wcześniejszych zapisów JPEG (niewyrównana podwójna kompresja)",
    seams: "Krawędzie cięcia (wklejone lub rozjaśnione prostokąty otoczone ostrymi skokami)",
    blur: "Rozmyte prostokąty (skok ostrości wzdłuż czterech prostych boków)",
    "region-fusion": "Łączna kontrola (ELA, szum i współczynniki JPEG w tym samym miejscu)",
    "image-pages": "Strony HEIC i TIFF: dekodowane do obrazów i sprawdzane jak zdjęcia",
    provenance: "Pochodzenie (C2PA, oznaczenia AI)",
  },
  limitationTexts: {
    "file-type": "Rozpoznaje typ i integralność; nie mówi nic o treści.",
    thumbnail: "Tylko do podglądu; bez oceny.",
    "recapture-model": "Model statystyczny z poziomem błędów; bardzo duże lub nieczytelne obrazy nie są oceniane.",
    "manipulation-model": "Model statystyczny z poziomem błędów; ocenia obszary obrazu, nie autentyczność sceny.",
    "pdf-revisions": "Widzi tylko zmiany, które pozostały w pliku jako zapisy przyrostowe.",
    "pdf-structure": "Metadane można sfałszować lub usunąć; sam wpis edytora nie dowodzi zmiany treści.",
    "pdf-signatures": "Sprawdza podpisy strukturalnie, nie kryptograficznie.",
    "pdf-images": "JPEG 2000, JBIG2 i bardzo małe obrazy wbudowane nie są pobierane.",
    "pdf-diffs": "Porównuje fragmenty tekstu; zmiana w długim fragmencie pokazuje cały fragment.",
    "pdf-fields": "Czyta tylko osadzony tekst (bez OCR skanów); sam niczego nie ocenia.",
    metadata: "Metadane można usunąć lub sfałszować; ich brak niczego nie dowodzi.",
    "jpeg-structure": "Ponowny zapis bez edycji może zostawić te same ślady.",
    ela: "Słaba przy wklejeniach ze zdjęć o podobnej jakości; obszary płaskie i prześwietlone nie są oceniane.",
    noise: "Widzi tylko brak szumu (rozmycie, powiększenie); obszary o silnej teksturze nie są oceniane.",
    "copy-move": "Znajduje tylko kopie w obrębie tego samego obrazu, bez silnego obrotu lub skalowania.",
    "jpeg-dq":
      "Tylko dla plików JPEG zapisanych dwukrotnie na tej samej siatce; pliki progresywne lub uszkodzone nie są oceniane.",
    "jpeg-ghost":
      "Tylko gdy obszary przeszły różne łańcuchy zapisów; pliki progresywne lub uszkodzone nie są oceniane.",
    "jpeg-grid":
      "Tylko treść wcześniej zapisana z silną kompresją (jakość poniżej około 90) i wklejona poza siatką; płaskich miejsc i uszkodzonych plików nie da się ocenić.",
    seams:
      "Tylko proste, ostre krawędzie prostokąta; miękko wtapiane lub dowolnie kształtowane zmiany oraz wklejenia w płaskie miejsca niewidoczne; zdjęcia powyżej 1 MP sprawdzane po zmniejszeniu.",
    blur: "Tylko prostokąty rozmyte tam, gdzie miały drobne szczegóły; rozmycie miękko wtapiane lub o dowolnym kształcie i miejsca bez szczegółów (niebo, gładkie ściany) niewidoczne; zdjęcia powyżej 1 MP sprawdzane po zmniejszeniu.",
    "region-fusion":
      "Brak własnego pomiaru: łączy mapy pozostałych metod; gładkie ściany mogą wspólnie zmylić ELA i analizę szumu.",
    provenance: "Brak danych o pochodzeniu jest normalny i nie stanowi ustalenia.",
    "image-pages":
      "Powyżej 13 MP sprawdzane w zmniejszonym rozmiarze (całkowity współczynnik; HEIC 24/48 MP w połowie rozmiaru), do 120 MP; HEIC z jednym obrazem i strony TIFF z jednym skompresowanym paskiem do 6 MP; obrót/odbicie z metadanych nie są stosowane, w HEIC tylko obraz główny.",
  },
  limitationsDocumented: "Znane ograniczenia: zob. dokumentację metody (docs/forensics.md).",
};

const texts: Record<Language, ReportTexts> = { de, en, pl };

export function t(language: Language): ReportTexts {
  return texts[language];
}

import type { FindingCode } from "../finding-codes";
import type { Language, SuspicionLevel } from "../types";

/** A finding about several files of the request (in `cross_file_analyses.findings`). */
export interface CrossFinding {
  code: CrossCode;
  level: SuspicionLevel;
  title: string;
  explanation: string;
  files: string[];
  evidence: Record<string, unknown>;
}

/** The registry's cross-file codes (src/scanner/finding-codes.ts). */
export type CrossCode = Extract<FindingCode, `CROSS_${string}`>;

type E = Record<string, unknown>;
type Text = (files: string, e: E) => { title: string; explanation: string };

const list = (v: unknown) =>
  Array.isArray(v)
    ? v
        .flat()
        .filter((x) => x !== null)
        .join(", ")
    : String(v);

const TEXTS: Record<CrossCode, Record<Language, Text>> = {
  CROSS_NEAR_DUPLICATE_IMAGES: {
    de: (f) => ({
      title: "Fast gleiche Bilder in der Anfrage",
      explanation: `Diese Dateien zeigen dasselbe Bild (verkleinert, neu komprimiert, beschnitten oder gespiegelt): ${f}. Ein Foto, das mehrfach als verschiedene Aufnahmen eingereicht wird, verdient einen Blick.`,
    }),
    en: (f) => ({
      title: "Near-identical images in the request",
      explanation: `These files show the same picture (resized, recompressed, cropped or mirrored): ${f}. One photo sent several times as different shots warrants a look.`,
    }),
    pl: (f) => ({
      title: "Prawie identyczne obrazy w zgłoszeniu",
      explanation: `Te pliki przedstawiają ten sam obraz (pomniejszony, ponownie skompresowany, przycięty lub odbity): ${f}. Jedno zdjęcie przesłane kilka razy jako różne ujęcia wymaga sprawdzenia.`,
    }),
  },
  CROSS_CAMERA_MISMATCH: {
    de: (f, e) => ({
      title: "Kameraangaben widersprechen sich",
      explanation: `Fotos desselben Kameramodells (${e.make ?? "?"} ${e.model ?? "?"}) tragen verschiedene Seriennummern (${list(e.serials) || "–"}) oder JPEG-Quantisierungstabellen (${list(e.quantTables) || "–"}): ${f}. Ein Teil wurde mit einem anderen Gerät aufgenommen oder nachträglich neu gespeichert.`,
    }),
    en: (f, e) => ({
      title: "Camera details disagree",
      explanation: `Photos from the same camera model (${e.make ?? "?"} ${e.model ?? "?"}) carry different serial numbers (${list(e.serials) || "–"}) or JPEG quantisation tables (${list(e.quantTables) || "–"}): ${f}. Some were taken with another device or saved again later.`,
    }),
    pl: (f, e) => ({
      title: "Dane aparatu są sprzeczne",
      explanation: `Zdjęcia z tego samego modelu aparatu (${e.make ?? "?"} ${e.model ?? "?"}) mają różne numery seryjne (${list(e.serials) || "–"}) lub tablice kwantyzacji JPEG (${list(e.quantTables) || "–"}): ${f}. Część wykonano innym urządzeniem lub zapisano ponownie.`,
    }),
  },
  CROSS_CAPTURE_TIME_SPREAD: {
    de: (f, e) => ({
      title: "Aufnahmezeiten liegen weit auseinander",
      explanation: `Die Fotos wurden laut EXIF über ${e.days} Tage verteilt aufgenommen (${e.first} bis ${e.last}; ${f}). Bilder eines Schadenereignisses entstehen meist kurz nacheinander.`,
    }),
    en: (f, e) => ({
      title: "Capture times far apart",
      explanation: `According to EXIF the photos were taken over ${e.days} days (${e.first} to ${e.last}; ${f}). Pictures of one loss are usually taken close together.`,
    }),
    pl: (f, e) => ({
      title: "Czasy wykonania zdjęć znacznie się różnią",
      explanation: `Według EXIF zdjęcia wykonano w ciągu ${e.days} dni (${e.first} do ${e.last}; ${f}). Zdjęcia jednej szkody powstają zwykle w krótkim odstępie.`,
    }),
  },
  CROSS_CAPTURE_LOCATION_SPREAD: {
    de: (f, e) => ({
      title: "Aufnahmeorte liegen weit auseinander",
      explanation: `Die GPS-Positionen der Fotos ${f} liegen ${e.km} km auseinander.`,
    }),
    en: (f, e) => ({
      title: "Capture places far apart",
      explanation: `The GPS positions of the photos ${f} are ${e.km} km apart.`,
    }),
    pl: (f, e) => ({
      title: "Miejsca wykonania zdjęć są od siebie odległe",
      explanation: `Pozycje GPS zdjęć ${f} są oddalone o ${e.km} km.`,
    }),
  },
  CROSS_SHARED_TEMPLATE: {
    de: (f, e) => ({
      title: "Dokumente aus derselben Vorlage",
      explanation: `Die Dokumente ${f} haben denselben Aufbau (${Math.round(Number(e.wordOverlap) * 100)} % gleiche Wörter, Ziffern nicht gezählt${e.producer ? `, beide erzeugt mit ${e.producer}` : ""}). Belege verschiedener Aussteller entstehen nicht aus einer Vorlage; Belege eines Ausstellers sollten sich in Nummer und Datum unterscheiden.`,
    }),
    en: (f, e) => ({
      title: "Documents made from the same template",
      explanation: `The documents ${f} share their layout (${Math.round(Number(e.wordOverlap) * 100)} % of their words in common, digits ignored${e.producer ? `, both produced by ${e.producer}` : ""}). Receipts of different issuers do not come from one template; receipts of one issuer should differ in number and date.`,
    }),
    pl: (f, e) => ({
      title: "Dokumenty z tego samego szablonu",
      explanation: `Dokumenty ${f} mają ten sam układ (${Math.round(Number(e.wordOverlap) * 100)} % wspólnych słów, bez cyfr${e.producer ? `, oba utworzone przez ${e.producer}` : ""}). Dokumenty różnych wystawców nie powstają z jednego szablonu; dokumenty jednego wystawcy powinny różnić się numerem i datą.`,
    }),
  },
  CROSS_SHARED_CREATION: {
    de: (f, e) => ({
      title: "Dokumente zusammen erstellt",
      explanation: `Die Dokumente ${f} wurden mit demselben Programm (${e.producer}) innerhalb weniger Minuten erstellt (${list(e.creationDates)}), obwohl sie unabhängige Belege sein sollen.`,
    }),
    en: (f, e) => ({
      title: "Documents created together",
      explanation: `The documents ${f} were created with the same program (${e.producer}) within minutes of each other (${list(e.creationDates)}), although they are meant to be independent receipts.`,
    }),
    pl: (f, e) => ({
      title: "Dokumenty utworzone razem",
      explanation: `Dokumenty ${f} utworzono tym samym programem (${e.producer}) w odstępie kilku minut (${list(e.creationDates)}), choć mają być niezależnymi dowodami.`,
    }),
  },
  CROSS_INVOICE_NUMBER_CONFLICT: {
    de: (f, e) => ({
      title: "Gleiche Rechnungsnummer, andere Beträge oder Daten",
      explanation: `Die Rechnungsnummer ${list(e.invoiceNumbers)} steht in ${f}, aber mit verschiedenen Beträgen (${list(e.totals)}) oder Daten (${list(e.documentDates)}). Eine Rechnung existiert nur einmal: mindestens eine Fassung wurde verändert.`,
    }),
    en: (f, e) => ({
      title: "Same invoice number, different amounts or dates",
      explanation: `Invoice number ${list(e.invoiceNumbers)} appears in ${f}, but with different amounts (${list(e.totals)}) or dates (${list(e.documentDates)}). An invoice exists only once: at least one version was altered.`,
    }),
    pl: (f, e) => ({
      title: "Ten sam numer faktury, inne kwoty lub daty",
      explanation: `Numer faktury ${list(e.invoiceNumbers)} występuje w ${f}, ale z różnymi kwotami (${list(e.totals)}) lub datami (${list(e.documentDates)}). Faktura istnieje tylko raz: co najmniej jedna wersja została zmieniona.`,
    }),
  },
  CROSS_IBAN_MISMATCH: {
    de: (f, e) => ({
      title: "Verschiedene IBANs für dieselbe Rechnung",
      explanation: `${f} nennen für dieselbe Rechnungsnummer verschiedene Bankverbindungen (${list(e.values)}).`,
    }),
    en: (f, e) => ({
      title: "Different IBANs for the same invoice",
      explanation: `${f} give different bank accounts (${list(e.values)}) for the same invoice number.`,
    }),
    pl: (f, e) => ({
      title: "Różne numery IBAN dla tej samej faktury",
      explanation: `${f} podają różne rachunki bankowe (${list(e.values)}) dla tego samego numeru faktury.`,
    }),
  },
  CROSS_PLATE_MISMATCH: {
    de: (f, e) => ({
      title: "Kennzeichen widersprechen sich",
      explanation: `Die Dokumente ${f} nennen verschiedene Kennzeichen (${list(e.values)}).`,
    }),
    en: (f, e) => ({
      title: "Licence plates disagree",
      explanation: `The documents ${f} name different licence plates (${list(e.values)}).`,
    }),
    pl: (f, e) => ({
      title: "Numery rejestracyjne są sprzeczne",
      explanation: `Dokumenty ${f} podają różne numery rejestracyjne (${list(e.values)}).`,
    }),
  },
  CROSS_DOCUMENT_BEFORE_PHOTOS: {
    de: (f, e) => ({
      title: "Dokument älter als die Schadenfotos",
      explanation: `Das Dokument ist auf den ${e.documentDate} datiert, ${e.daysBefore} Tage vor dem ersten Foto (${e.firstCapture}): ${f}. Eine Reparaturrechnung oder ein Gutachten vor dem Schaden passt nicht zum Ablauf (ein Kaufbeleg darf älter sein).`,
    }),
    en: (f, e) => ({
      title: "Document older than the damage photos",
      explanation: `The document is dated ${e.documentDate}, ${e.daysBefore} days before the first photo (${e.firstCapture}): ${f}. A repair invoice or an assessment from before the damage does not fit the sequence of events (a purchase receipt may be older).`,
    }),
    pl: (f, e) => ({
      title: "Dokument starszy niż zdjęcia szkody",
      explanation: `Dokument ma datę ${e.documentDate}, ${e.daysBefore} dni przed pierwszym zdjęciem (${e.firstCapture}): ${f}. Faktura za naprawę lub ekspertyza sprzed szkody nie pasuje do przebiegu zdarzeń (dowód zakupu może być starszy).`,
    }),
  },
  CROSS_DOCUMENT_AFTER_ISSUE_DATE: {
    de: (f, e) => ({
      title: "Dokument nach dem Referenzdatum",
      explanation: `Das Dokument ${f} ist auf den ${e.documentDate} datiert, nach dem Referenzdatum der Anfrage (issueDate ${e.issueDate}).`,
    }),
    en: (f, e) => ({
      title: "Document dated after the reference date",
      explanation: `The document ${f} is dated ${e.documentDate}, after the request's reference date (issueDate ${e.issueDate}).`,
    }),
    pl: (f, e) => ({
      title: "Dokument z datą po dacie referencyjnej",
      explanation: `Dokument ${f} ma datę ${e.documentDate}, późniejszą niż data referencyjna zgłoszenia (issueDate ${e.issueDate}).`,
    }),
  },
};

export function crossFinding(
  language: Language,
  code: CrossCode,
  level: SuspicionLevel,
  files: string[],
  evidence: E,
): CrossFinding {
  const unique = [...new Set(files)];
  return { code, level, ...TEXTS[code][language](unique.join(", "), evidence), files: unique, evidence };
}

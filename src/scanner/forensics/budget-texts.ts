/**
 * Plain-language texts (de/en/pl) for work refused by a memory or time budget: a declared picture
 * size or a compressed part that would unpack beyond what one analysis may allocate. The finding
 * says what was not checked and why; the level is always `-` (not assessed), never a suspicion.
 */
import { finding, type FindingText } from "../finding";
import type { StreamVerdict } from "../pdf/stream-budget";
import type { Finding, Language } from "../types";

const mp = (pixels: number) => Math.round(pixels / 1e5) / 10;
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** A picture whose declared size is beyond the block-analysis budget (ELA, noise, copy-move, JPEG structure). */
export function imageTooLargeText(
  check: { de: string; en: string; pl: string },
  size: { width: number; height: number; maxPixels: number },
): FindingText {
  const pixels = mp(size.width * size.height);
  const limit = mp(size.maxPixels);
  return {
    de: {
      title: `${check.de}: Bild zu groß`,
      explanation: `Das Bild hat laut Dateikopf ${size.width} × ${size.height} Pixel (${pixels} MP). Bilder über ${limit} MP werden nicht blockweise analysiert, weil das den Speicher einer Analyse übersteigen würde; diese Prüfung wurde daher nicht durchgeführt.`,
    },
    en: {
      title: `${check.en}: picture too large`,
      explanation: `According to its header the picture has ${size.width} × ${size.height} pixels (${pixels} MP). Pictures above ${limit} MP are not analysed block by block because that would exceed the memory one analysis may use; this check was therefore not run.`,
    },
    pl: {
      title: `${check.pl}: obraz zbyt duży`,
      explanation: `Według nagłówka obraz ma ${size.width} × ${size.height} pikseli (${pixels} MP). Obrazy powyżej ${limit} MP nie są analizowane blok po bloku, ponieważ przekroczyłoby to pamięć dostępną dla jednej analizy; ta kontrola nie została więc wykonana.`,
    },
  };
}

/** Names of the block-analysis checks, for imageTooLargeText. */
export const blockChecks = {
  ela: { de: "Fehlerniveau-Analyse", en: "Error level analysis", pl: "Analiza poziomu błędu" },
  noise: { de: "Rauschanalyse", en: "Noise analysis", pl: "Analiza szumu" },
  copyMove: { de: "Kopierte Bereiche", en: "Copied regions", pl: "Skopiowane obszary" },
  doubleCompression: { de: "Doppelte Kompression", en: "Double compression", pl: "Podwójna kompresja" },
};

/**
 * Why a block-analysis check did not run, in each language. The decoder's own message is English: it
 * stays in the finding's evidence (`reason`), never inside a German or Polish explanation.
 */
export const blockCheckSkipped = {
  tooSmall: { de: "das Bild ist zu klein", en: "the picture is too small", pl: "obraz jest zbyt mały" },
  undecodable: {
    de: "die Bilddaten ließen sich nicht dekodieren; der technische Grund steht in den Belegen",
    en: "the picture data could not be decoded; the technical reason is in the evidence",
    pl: "nie udało się zdekodować danych obrazu; techniczna przyczyna jest w dowodach",
  },
};

/**
 * Why a check on the block maps (ELA, noise, copy-move, cut edges, blur …) did not run when they could not be made:
 * the picture is beyond their budget, or its data could not be decoded; with the evidence that says which.
 */
export function blockMapsFailure(
  check: Record<Language, string>,
  notAssessed: (why: Record<Language, string>) => FindingText,
  failure: { reason: string; tooLarge?: { width: number; height: number; maxPixels: number } },
): { text: FindingText; evidence: Record<string, unknown> } {
  return {
    text: failure.tooLarge ? imageTooLargeText(check, failure.tooLarge) : notAssessed(blockCheckSkipped.undecodable),
    evidence: { reason: failure.reason, ...failure.tooLarge },
  };
}

/** A PDF with a compressed part (stream) that unpacks beyond the budget: it was not opened. */
export function pdfUnpackBudgetText(v: {
  kind: "stream" | "image" | "total" | "xref";
  inflated: number;
  limit: number;
}): FindingText {
  if (v.kind === "xref") return xrefTooLargeText(v.inflated, v.limit);
  const size = mb(v.inflated);
  const limit = mb(v.limit);
  const part = {
    stream: { de: "Ein komprimierter Teil", en: "A compressed part", pl: "Skompresowana część" },
    image: { de: "Ein eingebettetes Bild", en: "An embedded image", pl: "Osadzony obraz" },
    total: {
      de: "Die komprimierten Teile zusammen",
      en: "The compressed parts together",
      pl: "Skompresowane części razem",
    },
  }[v.kind];
  return {
    de: {
      title: "PDF nicht geprüft: entpackt zu groß",
      explanation: `${part.de} dieser PDF-Datei entpackt sich auf mehr als ${size} MB (erlaubt sind ${limit} MB${v.kind === "image" ? ", gemessen an der im Bild angegebenen Größe" : ""}). So etwas kommt in echten Rechnungen und Scans nicht vor, wohl aber in „Dekompressionsbomben“. Zum Schutz des Dienstes wurde die Datei nicht entpackt; ihr Inhalt wurde nicht geprüft.`,
    },
    en: {
      title: "PDF not checked: unpacks too large",
      explanation: `${part.en} of this PDF unpacks to more than ${size} MB (${limit} MB are allowed${v.kind === "image" ? ", measured against the size the image declares" : ""}). Real invoices and scans do not do this; "decompression bombs" do. To protect the service the file was not unpacked; its content was not checked.`,
    },
    pl: {
      title: "PDF niesprawdzony: po rozpakowaniu zbyt duży",
      explanation: `${part.pl} tego pliku PDF po rozpakowaniu zajmuje ponad ${size} MB (dozwolone ${limit} MB${v.kind === "image" ? ", w odniesieniu do rozmiaru zadeklarowanego w obrazie" : ""}). Prawdziwe faktury i skany tak nie wyglądają, „bomby dekompresyjne” owszem. Aby chronić usługę, pliku nie rozpakowano; jego treść nie została sprawdzona.`,
    },
  };
}

/** An xref stream declaring more entries than it holds (or than we read): pdf-lib would loop over all of them. */
function xrefTooLargeText(claimed: number, limit: number): FindingText {
  return {
    de: {
      title: "PDF nicht geprüft: Querverweistabelle unplausibel",
      explanation: `Ein Querverweis-Stream (xref) dieser PDF-Datei kündigt ${claimed} Objekteinträge an, enthält aber Daten für höchstens ${limit}. Echte Dateien tun das nicht; solche Angaben bringen Leseprogramme zum Hängen. Zum Schutz des Dienstes wurde die Datei nicht geöffnet; ihr Inhalt wurde nicht geprüft.`,
    },
    en: {
      title: "PDF not checked: implausible cross-reference table",
      explanation: `A cross-reference stream (xref) of this PDF announces ${claimed} object entries but holds data for at most ${limit}. Real files do not do this; such entries make readers hang. To protect the service the file was not opened; its content was not checked.`,
    },
    pl: {
      title: "PDF niesprawdzony: nieprawdopodobna tablica odsyłaczy",
      explanation: `Strumień odsyłaczy (xref) tego pliku PDF zapowiada ${claimed} wpisów obiektów, a zawiera dane dla co najwyżej ${limit}. Prawdziwe pliki tak nie wyglądają; takie wpisy zawieszają czytniki. Aby chronić usługę, pliku nie otwarto; jego treść nie została sprawdzona.`,
    },
  };
}

/** The `-` finding of a PDF over its unpack budget (file-type's gate and pdf-structure give the same one). */
export function pdfUnpackBudgetFinding(language: Language, v: Extract<StreamVerdict, { ok: false }>): Finding {
  return finding(language, "PDF_UNPACK_BUDGET_EXCEEDED", "-", pdfUnpackBudgetText(v), {
    part: v.kind,
    unpackedAtLeast: v.inflated,
    limit: v.limit,
    offset: v.offset,
  });
}

/** A PNG text chunk (zTXt/iTXt) that unpacks beyond the budget: only its beginning was read. */
export function pngTextTooLargeText(v: { keys: string[]; limit: number }): FindingText {
  const keys = v.keys.join(", ");
  const limit = mb(v.limit);
  return {
    de: {
      title: "PNG-Text nur teilweise gelesen",
      explanation: `Der komprimierte Text „${keys}“ entpackt sich auf mehr als ${limit} MB. Zum Schutz des Dienstes wurde nur der Anfang gelesen; was danach steht, wurde nicht geprüft.`,
    },
    en: {
      title: "PNG text read only in part",
      explanation: `The compressed text "${keys}" unpacks to more than ${limit} MB. To protect the service only its beginning was read; whatever follows was not checked.`,
    },
    pl: {
      title: "Tekst PNG odczytany tylko częściowo",
      explanation: `Skompresowany tekst „${keys}” po rozpakowaniu zajmuje ponad ${limit} MB. Aby chronić usługę, odczytano tylko jego początek; dalsza część nie została sprawdzona.`,
    },
  };
}

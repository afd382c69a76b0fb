/** Plain-language texts (de/en/pl) of image-pages.ts: TIFF pages and HEIC images decoded for the pixel detectors. */
import type { FindingText } from "../finding";
import { MAX_FULL_PAGE_PIXELS } from "../images/page-png";

/**
 * Why a page over its limit was not decoded, when it is not the plain "decoded in full" (a single-image
 * HEIC, a TIFF page whose layout cannot be split): "one-strip", a TIFF page stored as one compressed strip;
 * "reduced", over the size up to which large pages are decoded in bands and reduced.
 */
export type TooLargeCause = "one-strip" | "reduced";

export type PageProblem =
  | { page: number; problem: "too-large"; width: number; height: number; limit: number; cause?: TooLargeCause }
  | { page: number; problem: "undecodable"; reason: string }
  | { page: number; problem: "limit" };

/** A page analysed at reduced size: its analysed size, its stored size and the factor. */
export interface ReducedPage {
  page: number;
  width: number;
  height: number;
  reducedFrom: { width: number; height: number; factor: number };
}

const mp = (pixels: number) => Math.round(pixels / 1e5) / 10;
const list = (problems: PageProblem[]) => problems.map((p) => p.page).join(", ");
const full = mp(MAX_FULL_PAGE_PIXELS);

/** "page 1: 8064 × 6048 → 4032 × 3024 (1/2, …)" for each reduced page, in the words of one language. */
function reducedList(reduced: ReducedPage[], page: string, average: string): string {
  return reduced
    .map(({ page: n, width, height, reducedFrom: from }) => {
      const f = from.factor;
      return `${page} ${n}: ${from.width} × ${from.height} → ${width} × ${height} (1/${f}, ${average} ${f} × ${f})`;
    })
    .join("; ");
}

/** The sentences on reduced pages behind the explanation of IMAGE_FORMAT_DECODED (none when nothing was reduced). */
function reducedText(reduced: ReducedPage[]): Record<"de" | "en" | "pl", string> {
  if (reduced.length === 0) return { de: "", en: "", pl: "" };
  return {
    de: ` Verkleinert geprüft, weil Bilder über ${full} MP nicht in den Speicher einer Analyse passen: ${reducedList(reduced, "Seite", "jedes Pixel der Mittelwert von")}. Feinere Spuren sind so nicht sichtbar; Positionen in den Ergebnissen dieser Seiten beziehen sich auf das verkleinerte Bild.`,
    en: ` Checked at reduced size, because pictures over ${full} MP do not fit in the memory of one analysis: ${reducedList(reduced, "page", "each pixel the average of")}. Finer traces are not seen this way; positions in the results of these pages refer to the reduced picture.`,
    pl: ` Sprawdzono w zmniejszonym rozmiarze, ponieważ obrazy powyżej ${full} MP nie mieszczą się w pamięci jednej analizy: ${reducedList(reduced, "strona", "każdy piksel to średnia z")}. Drobniejszych śladów nie widać w ten sposób; położenia w wynikach tych stron odnoszą się do zmniejszonego obrazu.`,
  };
}

/** Why pages over `limit` MP were not decoded, by cause. */
function tooLargeWhy(
  format: string,
  limit: number,
  cause: TooLargeCause | undefined,
): Record<"de" | "en" | "pl", string> {
  if (cause === "one-strip")
    return {
      de: `Die Seite ist als ein einziger komprimierter Block gespeichert, der sich nur vollständig dekodieren lässt; über ${limit} MP würde das den Speicher einer Analyse übersteigen.`,
      en: `The page is stored as one compressed block, which can only be decoded in full; above ${limit} MP that would exceed the memory one analysis may use.`,
      pl: `Strona jest zapisana jako jeden skompresowany blok, który można zdekodować tylko w całości; powyżej ${limit} MP przekroczyłoby to pamięć dostępną dla jednej analizy.`,
    };
  if (cause === "reduced")
    return {
      de: `Bilder über ${full} MP werden verkleinert geprüft, aber über ${limit} MP würde schon das Dekodieren eine Analyse zu lange aufhalten.`,
      en: `Pictures over ${full} MP are checked at reduced size, but above ${limit} MP even decoding them would hold up one analysis too long.`,
      pl: `Obrazy powyżej ${full} MP są sprawdzane w zmniejszonym rozmiarze, ale powyżej ${limit} MP już samo dekodowanie zbyt długo wstrzymywałoby jedną analizę.`,
    };
  return {
    de: `${format}-Bilder werden für die Prüfung vollständig dekodiert; über ${limit} MP würde das den Speicher einer Analyse übersteigen.`,
    en: `${format} pictures are decoded in full to be checked; above ${limit} MP that would exceed the memory one analysis may use.`,
    pl: `Obrazy ${format} są do kontroli dekodowane w całości; powyżej ${limit} MP przekroczyłoby to pamięć dostępną dla jednej analizy.`,
  };
}

export const imagePagesText = {
  decoded: (format: string, pages: number, reduced: ReducedPage[]): FindingText => {
    const smaller = reducedText(reduced);
    return {
      de: {
        title: `${format}-Bild dekodiert`,
        explanation: `${pages === 1 ? "Das Bild" : `Alle ${pages} Seiten`} dieser ${format}-Datei wurde${pages === 1 ? "" : "n"} verlustfrei als PNG dekodiert und wie ein Foto geprüft; die Ergebnisse stehen unter „#p1.png“ usw. hinter dem Dateinamen. Die Metadaten (EXIF) werden hier an der Datei selbst geprüft.${smaller.de}`,
      },
      en: {
        title: `${format} picture decoded`,
        explanation: `${pages === 1 ? "The picture" : `All ${pages} pages`} of this ${format} file ${pages === 1 ? "was" : "were"} decoded losslessly to PNG and checked like a photo; the results are listed under the file name followed by "#p1.png" and so on. The metadata (EXIF) is checked here, on the file itself.${smaller.en}`,
      },
      pl: {
        title: `Zdekodowano obraz ${format}`,
        explanation: `${pages === 1 ? "Obraz" : `Wszystkie strony (${pages})`} tego pliku ${format} zdekodowano bezstratnie do PNG i sprawdzono jak zdjęcie; wyniki są pod nazwą pliku z dopiskiem „#p1.png” itd. Metadane (EXIF) sprawdzono tutaj, w samym pliku.${smaller.pl}`,
      },
    };
  },
  "too-large": (format: string, problems: PageProblem[]): FindingText => {
    const sizes = problems
      .map((p) => (p.problem === "too-large" ? `${p.width} × ${p.height} (${mp(p.width * p.height)} MP)` : ""))
      .join(", ");
    const first = problems[0].problem === "too-large" ? problems[0] : null;
    const why = tooLargeWhy(format, mp(first?.limit ?? 0), first?.cause);
    return {
      de: {
        title: `${format}: Bild zu groß für die Pixelprüfungen`,
        explanation: `Seite ${list(problems)} hat laut Dateikopf ${sizes} Pixel. ${why.de} Diese Seiten wurden daher nicht dekodiert und ihre Pixel nicht geprüft; die Metadaten schon.`,
      },
      en: {
        title: `${format}: picture too large for the pixel checks`,
        explanation: `According to its header, page ${list(problems)} has ${sizes} pixels. ${why.en} These pages were therefore not decoded and their pixels not checked; the metadata was.`,
      },
      pl: {
        title: `${format}: obraz zbyt duży dla kontroli pikseli`,
        explanation: `Według nagłówka strona ${list(problems)} ma ${sizes} pikseli. ${why.pl} Tych stron więc nie zdekodowano i ich pikseli nie sprawdzono; metadane tak.`,
      },
    };
  },
  undecodable: (format: string, problems: PageProblem[]): FindingText => ({
    de: {
      title: `${format}: Bild nicht dekodierbar`,
      explanation: `Seite ${list(problems)} dieser ${format}-Datei lässt sich nicht dekodieren (beschädigte, abgeschnittene oder nicht unterstützte Bilddaten). Die Pixel wurden nicht geprüft.`,
    },
    en: {
      title: `${format}: picture cannot be decoded`,
      explanation: `Page ${list(problems)} of this ${format} file cannot be decoded (damaged, cut-off or unsupported picture data). The pixels were not checked.`,
    },
    pl: {
      title: `${format}: nie można zdekodować obrazu`,
      explanation: `Strony ${list(problems)} tego pliku ${format} nie można zdekodować (uszkodzone, ucięte lub nieobsługiwane dane obrazu). Pikseli nie sprawdzono.`,
    },
  }),
  limit: (format: string, problems: PageProblem[]): FindingText => ({
    de: {
      title: `${format}: nicht alle Seiten geprüft`,
      explanation: `Die Datei hat mehr Seiten, als eine Analyse dekodieren darf; ab Seite ${problems[0].page} wurden die Pixel nicht geprüft. Bitte große Stapel in mehreren Dateien senden.`,
    },
    en: {
      title: `${format}: not every page checked`,
      explanation: `The file has more pages than one analysis may decode; from page ${problems[0].page} on, the pixels were not checked. Please send large batches as several files.`,
    },
    pl: {
      title: `${format}: nie sprawdzono wszystkich stron`,
      explanation: `Plik ma więcej stron, niż jedna analiza może zdekodować; od strony ${problems[0].page} pikseli nie sprawdzono. Duże zestawy prosimy przesyłać w kilku plikach.`,
    },
  }),
};

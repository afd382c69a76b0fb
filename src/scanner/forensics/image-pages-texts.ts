/** Plain-language texts (de/en/pl) of image-pages.ts: TIFF pages and HEIC images decoded for the pixel detectors. */
import type { FindingText } from "../finding";

export type PageProblem =
  | { page: number; problem: "too-large"; width: number; height: number; limit: number }
  | { page: number; problem: "undecodable"; reason: string }
  | { page: number; problem: "limit" };

const mp = (pixels: number) => Math.round(pixels / 1e5) / 10;
const list = (problems: PageProblem[]) => problems.map((p) => p.page).join(", ");

export const imagePagesText = {
  decoded: (format: string, pages: number): FindingText => ({
    de: {
      title: `${format}-Bild dekodiert`,
      explanation: `${pages === 1 ? "Das Bild" : `Alle ${pages} Seiten`} dieser ${format}-Datei wurde${pages === 1 ? "" : "n"} verlustfrei als PNG dekodiert und wie ein Foto geprüft; die Ergebnisse stehen unter „#p1.png“ usw. hinter dem Dateinamen. Die Metadaten (EXIF) werden hier an der Datei selbst geprüft.`,
    },
    en: {
      title: `${format} picture decoded`,
      explanation: `${pages === 1 ? "The picture" : `All ${pages} pages`} of this ${format} file ${pages === 1 ? "was" : "were"} decoded losslessly to PNG and checked like a photo; the results are listed under the file name followed by "#p1.png" and so on. The metadata (EXIF) is checked here, on the file itself.`,
    },
    pl: {
      title: `Zdekodowano obraz ${format}`,
      explanation: `${pages === 1 ? "Obraz" : `Wszystkie strony (${pages})`} tego pliku ${format} zdekodowano bezstratnie do PNG i sprawdzono jak zdjęcie; wyniki są pod nazwą pliku z dopiskiem „#p1.png” itd. Metadane (EXIF) sprawdzono tutaj, w samym pliku.`,
    },
  }),
  "too-large": (format: string, problems: PageProblem[]): FindingText => {
    const sizes = problems
      .map((p) => (p.problem === "too-large" ? `${p.width} × ${p.height} (${mp(p.width * p.height)} MP)` : ""))
      .join(", ");
    const limit = mp(problems[0].problem === "too-large" ? problems[0].limit : 0);
    return {
      de: {
        title: `${format}: Bild zu groß für die Pixelprüfungen`,
        explanation: `Seite ${list(problems)} hat laut Dateikopf ${sizes} Pixel. ${format}-Bilder werden für die Prüfung vollständig dekodiert; über ${limit} MP würde das den Speicher einer Analyse übersteigen. Diese Seiten wurden daher nicht dekodiert und ihre Pixel nicht geprüft; die Metadaten schon.`,
      },
      en: {
        title: `${format}: picture too large for the pixel checks`,
        explanation: `According to its header, page ${list(problems)} has ${sizes} pixels. ${format} pictures are decoded in full to be checked; above ${limit} MP that would exceed the memory one analysis may use. These pages were therefore not decoded and their pixels not checked; the metadata was.`,
      },
      pl: {
        title: `${format}: obraz zbyt duży dla kontroli pikseli`,
        explanation: `Według nagłówka strona ${list(problems)} ma ${sizes} pikseli. Obrazy ${format} są do kontroli dekodowane w całości; powyżej ${limit} MP przekroczyłoby to pamięć dostępną dla jednej analizy. Tych stron więc nie zdekodowano i ich pikseli nie sprawdzono; metadane tak.`,
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

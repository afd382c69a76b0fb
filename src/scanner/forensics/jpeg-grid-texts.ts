/** Plain-language texts (de/en/pl) of the earlier-JPEG-grid check (jpeg-grid.ts). */
import type { FindingText } from "../finding";
import type { NotAssessedReason } from "./jpeg-localised-texts";

const comma = (n: string) => n.replace(".", ",");

/** The check's name (also for imageTooLargeText). */
export const gridCheck = {
  de: "Raster früherer JPEG-Speicherungen",
  en: "Grid of earlier JPEG saves",
  pl: "Siatka wcześniejszych zapisów JPEG",
};

const reasons: Record<NotAssessedReason, Record<"de" | "en" | "pl", string>> = {
  notJpeg: {
    en: "the file is not a JPEG, so it has no 8×8 JPEG grid to compare with",
    de: "die Datei ist kein JPEG und hat daher kein 8×8-JPEG-Raster zum Vergleich",
    pl: "plik nie jest plikiem JPEG, więc nie ma siatki JPEG 8×8 do porównania",
  },
  otherCoding: {
    en: "the JPEG is coded in a rare way (arithmetic, lossless or 12-bit) whose data this check does not read",
    de: "das JPEG ist auf eine seltene Art codiert (arithmetisch, verlustfrei oder mit 12 Bit), deren Daten diese Prüfung nicht liest",
    pl: "plik JPEG jest zakodowany w rzadki sposób (arytmetycznie, bezstratnie lub 12-bitowo), którego danych ta kontrola nie odczytuje",
  },
  damaged: {
    en: "the compressed picture data cannot be read completely",
    de: "die komprimierten Bilddaten lassen sich nicht vollständig lesen",
    pl: "skompresowanych danych obrazu nie da się odczytać w całości",
  },
  small: { en: "the picture is too small", de: "das Bild ist zu klein", pl: "obraz jest zbyt mały" },
};

export const gridTexts = {
  notAssessed: (why: NotAssessedReason): FindingText => ({
    en: { title: "Grid of earlier JPEG saves not checked", explanation: `The check was not made: ${reasons[why].en}.` },
    de: {
      title: "Raster früherer JPEG-Speicherungen nicht geprüft",
      explanation: `Die Prüfung wurde nicht durchgeführt: ${reasons[why].de}.`,
    },
    pl: {
      title: "Siatka wcześniejszych zapisów JPEG niesprawdzona",
      explanation: `Kontroli nie przeprowadzono: ${reasons[why].pl}.`,
    },
  }),
  region: (a: { dx: number; dy: number; score: number; share: number }): FindingText => ({
    en: {
      title: "Area saved as JPEG before on a shifted grid",
      explanation: `A JPEG is stored in squares of 8 × 8 pixels, and every save leaves its mark on the brightness of those squares. One area (${a.share} % of the picture) still carries the squares of an earlier save that lay ${a.dx} px to the right and ${a.dy} px lower than those of the picture (strength ${a.score.toFixed(1)}); the rest of the picture does not. That area was saved as JPEG before and then placed off the picture's grid: typically pasted in from another photo. The heatmap shows it in red.`,
    },
    de: {
      title: "Bereich, der schon einmal auf einem verschobenen Raster als JPEG gespeichert wurde",
      explanation: `Ein JPEG wird in Quadraten von 8 × 8 Pixeln gespeichert, und jede Speicherung hinterlässt Spuren in der Helligkeit dieser Quadrate. Ein Bereich (${comma(String(a.share))} % des Bildes) trägt noch die Quadrate einer früheren Speicherung, die ${a.dx} px weiter rechts und ${a.dy} px tiefer lagen als die des Bildes (Stärke ${comma(a.score.toFixed(1))}); das übrige Bild nicht. Dieser Bereich wurde schon einmal als JPEG gespeichert und dann gegen das Raster des Bildes versetzt eingefügt: typischerweise aus einem anderen Foto. Die Heatmap zeigt ihn rot.`,
    },
    pl: {
      title: "Obszar zapisany wcześniej jako JPEG na przesuniętej siatce",
      explanation: `Plik JPEG jest zapisywany w kwadratach 8 × 8 pikseli, a każdy zapis zostawia ślad w jasności tych kwadratów. Jeden obszar (${comma(String(a.share))} % zdjęcia) nadal nosi kwadraty wcześniejszego zapisu, położone o ${a.dx} px dalej w prawo i o ${a.dy} px niżej niż kwadraty zdjęcia (siła ${comma(a.score.toFixed(1))}); reszta zdjęcia ich nie ma. Ten obszar był już zapisany jako JPEG, a potem umieszczony poza siatką zdjęcia: zwykle wklejony z innego zdjęcia. Mapa cieplna pokazuje go na czerwono.`,
    },
  }),
  uniform: (judged: number): FindingText => ({
    en: {
      title: "No area on a grid of its own",
      explanation: `No part of the picture carries the 8 × 8 squares of an earlier JPEG save that lie elsewhere than in the rest of the picture (${judged} % of the picture could be judged; flat areas cannot).`,
    },
    de: {
      title: "Kein Bereich mit eigenem Raster",
      explanation: `Kein Teil des Bildes trägt die 8 × 8-Quadrate einer früheren JPEG-Speicherung, die anders liegen als im übrigen Bild (${judged} % des Bildes ließen sich beurteilen; flache Flächen nicht).`,
    },
    pl: {
      title: "Żaden obszar nie ma własnej siatki",
      explanation: `Żadna część zdjęcia nie nosi kwadratów 8 × 8 wcześniejszego zapisu JPEG położonych inaczej niż w reszcie zdjęcia (ocenić dało się ${judged} % zdjęcia; płaskich miejsc nie).`,
    },
  }),
};

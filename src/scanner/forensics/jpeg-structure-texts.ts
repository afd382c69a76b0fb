/** Plain-language texts of the JPEG structure findings (de/en/pl). */
import type { FindingText } from "../finding";

/** Decimal comma for German and Polish sentences. */
const comma = (n: string) => n.replace(".", ",");

/** What trailing data looks like (jpeg-structure.ts names it in English for the evidence). */
const TRAILING_KIND: Record<string, { de: string; pl: string }> = {
  "another JPEG": { de: "ein weiteres JPEG", pl: "kolejny JPEG" },
  "ZIP archive": { de: "ein ZIP-Archiv", pl: "archiwum ZIP" },
  PDF: { de: "eine PDF-Datei", pl: "plik PDF" },
};

export const jpegTexts = {
  damaged: (reason: string): FindingText => ({
    en: {
      title: "JPEG file is damaged",
      explanation: `The picture data cannot be read completely (${reason}). The file was cut off or corrupted; its structure cannot be checked.`,
    },
    de: {
      title: "JPEG-Datei ist beschädigt",
      explanation: `Die Bilddaten lassen sich nicht vollständig lesen (der technische Grund steht in den Belegen). Die Datei wurde abgeschnitten oder beschädigt; ihre Struktur kann nicht geprüft werden.`,
    },
    pl: {
      title: "Plik JPEG jest uszkodzony",
      explanation: `Danych obrazu nie da się odczytać w całości (techniczna przyczyna jest w dowodach). Plik został ucięty lub uszkodzony; nie można sprawdzić jego struktury.`,
    },
  }),
  summary: (a: { quality: number; family: string; mode: string }): FindingText => ({
    en: {
      title: "JPEG structure",
      explanation: `Saved as ${a.mode} JPEG at about quality ${a.quality}; quantisation tables: ${a.family === "libjpeg-standard" ? "the standard tables used by most software" : "a device-specific set"}.`,
    },
    de: {
      title: "JPEG-Struktur",
      explanation: `Als ${a.mode === "progressive" ? "progressives" : "Baseline-"} JPEG mit etwa Qualität ${a.quality} gespeichert; Quantisierungstabellen: ${a.family === "libjpeg-standard" ? "die Standardtabellen der meisten Programme" : "gerätespezifischer Satz"}.`,
    },
    pl: {
      title: "Struktura JPEG",
      explanation: `Zapisano jako JPEG ${a.mode === "progressive" ? "progresywny" : "bazowy"} w jakości ok. ${a.quality}; tablice kwantyzacji: ${a.family === "libjpeg-standard" ? "standardowe, używane przez większość programów" : "zestaw właściwy dla urządzenia"}.`,
    },
  }),
  trailing: (bytes: number, what: string): FindingText => ({
    en: {
      title: "Extra data after the end of the picture",
      explanation: `${bytes} bytes follow the end-of-image marker${what ? ` (${what})` : ""}. It is not a preview of this picture: software leaves such data, or it hides other content.`,
    },
    de: {
      title: "Zusätzliche Daten nach dem Bildende",
      explanation: `Nach der Bildende-Markierung folgen ${bytes} Bytes${what ? ` (${TRAILING_KIND[what]?.de ?? what})` : ""}. Es ist keine Vorschau dieses Bildes: solche Daten hinterlässt Software, oder sie verstecken weiteren Inhalt.`,
    },
    pl: {
      title: "Dodatkowe dane po końcu obrazu",
      explanation: `Po znaczniku końca obrazu jest jeszcze ${bytes} bajtów${what ? ` (${TRAILING_KIND[what]?.pl ?? what})` : ""}. Nie jest to podgląd tego zdjęcia: takie dane pozostawia oprogramowanie albo ukrywają one inną treść.`,
    },
  }),
  trailingPreview: (bytes: number): FindingText => ({
    en: {
      title: "Preview copy after the end of the picture",
      explanation: `${bytes} bytes follow the end-of-image marker: a smaller copy of this same picture, as some cameras store their preview. Nothing to do.`,
    },
    de: {
      title: "Vorschaukopie nach dem Bildende",
      explanation: `Nach der Bildende-Markierung folgen ${bytes} Bytes: eine kleinere Kopie desselben Bildes, wie manche Kameras ihre Vorschau ablegen. Kein Handlungsbedarf.`,
    },
    pl: {
      title: "Kopia podglądu po końcu obrazu",
      explanation: `Po znaczniku końca obrazu jest jeszcze ${bytes} bajtów: mniejsza kopia tego samego zdjęcia, tak jak niektóre aparaty zapisują podgląd. Nic do zrobienia.`,
    },
  }),
  thumbnailMismatch: (corr: number): FindingText => ({
    en: {
      title: "Preview does not match the picture",
      explanation: `The small preview stored inside the file shows something different from the picture itself (similarity ${corr.toFixed(2)}; above 0.9 is normal). The camera made the preview; the picture was changed afterwards and the old preview kept.`,
    },
    de: {
      title: "Vorschau passt nicht zum Bild",
      explanation: `Die in der Datei gespeicherte kleine Vorschau zeigt etwas anderes als das Bild selbst (Ähnlichkeit ${comma(corr.toFixed(2))}; normal ist über 0,9). Die Kamera erzeugte die Vorschau; das Bild wurde danach verändert und die alte Vorschau behalten.`,
    },
    pl: {
      title: "Miniatura nie pasuje do zdjęcia",
      explanation: `Mała miniatura zapisana w pliku pokazuje coś innego niż samo zdjęcie (podobieństwo ${comma(corr.toFixed(2))}; normalnie powyżej 0,9). Miniaturę utworzył aparat; zdjęcie zmieniono później, a starą miniaturę zostawiono.`,
    },
  }),
  thumbnailCrop: (share: number): FindingText => ({
    en: {
      title: "Picture cut out of a larger shot",
      explanation: `The small preview the camera stored inside the file shows more of the scene: the picture matches only a part of it (about ${share} % of the preview). Part of the original shot was cut away after capture; ask for the uncut original if the edges matter.`,
    },
    de: {
      title: "Bild aus einer größeren Aufnahme ausgeschnitten",
      explanation: `Die kleine Vorschau, die die Kamera in der Datei gespeichert hat, zeigt mehr von der Szene: Das Bild entspricht nur einem Teil davon (etwa ${share} % der Vorschau). Ein Teil der ursprünglichen Aufnahme wurde nachträglich abgeschnitten; wenn die Ränder wichtig sind, das unbeschnittene Original anfordern.`,
    },
    pl: {
      title: "Zdjęcie wycięte z większego ujęcia",
      explanation: `Mała miniatura zapisana przez aparat w pliku pokazuje więcej sceny: zdjęcie odpowiada tylko jej części (ok. ${share} % miniatury). Część pierwotnego ujęcia odcięto po wykonaniu zdjęcia; jeśli brzegi mają znaczenie, należy poprosić o nieprzycięty oryginał.`,
    },
  }),
  doubleCompression: (score: number): FindingText => ({
    en: {
      title: "Compressed twice",
      explanation: `The distribution of the compressed values shows the regular gaps left when a JPEG is decoded and saved again with different settings (${Math.round(score * 100)} % irregular bins). The picture was re-saved at least once after capture. On its own that is harmless (messengers and upload tools re-save every photo); an area changed before the re-save would show in the double-quantisation and JPEG-ghost checks.`,
    },
    de: {
      title: "Zweifach komprimiert",
      explanation: `Die Verteilung der komprimierten Werte zeigt die regelmäßigen Lücken, die entstehen, wenn ein JPEG dekodiert und mit anderen Einstellungen neu gespeichert wird (${Math.round(score * 100)} % auffällige Werte). Das Bild wurde nach der Aufnahme mindestens einmal neu gespeichert. Das allein ist unbedenklich (Messenger und Upload-Werkzeuge speichern jedes Foto neu); ein vor dem erneuten Speichern veränderter Bereich zeigte sich in den Prüfungen auf doppelte Quantisierung und JPEG-Geister.`,
    },
    pl: {
      title: "Podwójna kompresja",
      explanation: `Rozkład skompresowanych wartości ma regularne luki, które powstają, gdy JPEG zostaje zdekodowany i zapisany ponownie z innymi ustawieniami (${Math.round(score * 100)} % nieregularnych wartości). Zdjęcie zapisano ponownie co najmniej raz po wykonaniu. Samo w sobie jest to nieszkodliwe (komunikatory i narzędzia do przesyłania zapisują każde zdjęcie ponownie); obszar zmieniony przed ponownym zapisem pokazałyby kontrole podwójnej kwantyzacji i duchów JPEG.`,
    },
  }),
  // The technical reason stays in the evidence (English, for the record), never inside the explanation.
  notAssessed: (): FindingText => ({
    en: {
      title: "Compression history not checked",
      explanation:
        "The compression history could not be read from this file's coefficients (for example a progressive or damaged JPEG); the technical reason is in the evidence.",
    },
    de: {
      title: "Kompressionsverlauf nicht geprüft",
      explanation:
        "Der Kompressionsverlauf ließ sich aus den Koeffizienten dieser Datei nicht lesen (zum Beispiel bei einem progressiven oder beschädigten JPEG); der technische Grund steht in den Belegen.",
    },
    pl: {
      title: "Historia kompresji niesprawdzona",
      explanation:
        "Nie udało się odczytać historii kompresji ze współczynników tego pliku (na przykład progresywny lub uszkodzony JPEG); techniczna przyczyna jest w dowodach.",
    },
  }),
};

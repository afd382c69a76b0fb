/** Plain-language texts of the metadata findings (de/en/pl). */
import type { FindingText } from "../finding";

type TextFn<A> = (a: A) => FindingText;

export const metadataTexts = {
  unreadable: ((reason: string) => ({
    en: {
      title: "Metadata could not be read",
      explanation: `The metadata block of this file is damaged (${reason}). Nothing can be said from metadata.`,
    },
    de: {
      title: "Metadaten nicht lesbar",
      explanation: `Der Metadatenblock dieser Datei ist beschädigt; der technische Grund steht in den Belegen. Aus den Metadaten lässt sich nichts ableiten.`,
    },
    pl: {
      title: "Nie można odczytać metadanych",
      explanation: `Blok metadanych tego pliku jest uszkodzony; techniczna przyczyna jest w dowodach. Na podstawie metadanych nie można nic stwierdzić.`,
    },
  })) as TextFn<string>,
  none: {
    en: {
      title: "No camera metadata",
      explanation:
        "The file carries no EXIF or XMP data. Messengers, social networks and screenshots remove it; an original camera photo normally has it. Where the picture came from cannot be checked.",
    },
    de: {
      title: "Keine Kamera-Metadaten",
      explanation:
        "Die Datei enthält keine EXIF- oder XMP-Daten. Messenger, soziale Netzwerke und Screenshots entfernen sie; ein Original-Kamerafoto hat sie normalerweise. Die Herkunft des Bildes lässt sich nicht prüfen.",
    },
    pl: {
      title: "Brak metadanych aparatu",
      explanation:
        "Plik nie zawiera danych EXIF ani XMP. Komunikatory, serwisy społecznościowe i zrzuty ekranu je usuwają; oryginalne zdjęcie z aparatu zwykle je ma. Nie można sprawdzić pochodzenia zdjęcia.",
    },
  } as FindingText,
  editor: ((tool: string) => ({
    en: {
      title: "Edited with image software",
      explanation: `The metadata names editing software: "${tool}". The picture was opened and saved again after it was taken; the content may have been changed.`,
    },
    de: {
      title: "Mit Bildbearbeitung gespeichert",
      explanation: `Die Metadaten nennen ein Bearbeitungsprogramm: „${tool}“. Das Bild wurde nach der Aufnahme geöffnet und neu gespeichert; der Inhalt kann verändert worden sein.`,
    },
    pl: {
      title: "Zapisano w programie do edycji",
      explanation: `Metadane wskazują program do edycji: „${tool}”. Zdjęcie zostało po wykonaniu otwarte i ponownie zapisane; jego treść mogła zostać zmieniona.`,
    },
  })) as TextFn<string>,
  dateGap: ((minutes: number) => ({
    en: {
      title: "Saved long after it was taken",
      explanation: `The file was last modified ${minutes} minutes after the moment of capture. Transfer, geotagging and backup programs re-write files this way; on its own this is not a sign that the picture was changed.`,
    },
    de: {
      title: "Lange nach der Aufnahme gespeichert",
      explanation: `Die Datei wurde ${minutes} Minuten nach der Aufnahme zuletzt geändert. Übertragungs-, Geotagging- und Sicherungsprogramme schreiben Dateien so neu; für sich allein ist das kein Hinweis darauf, dass das Bild verändert wurde.`,
    },
    pl: {
      title: "Zapisano długo po wykonaniu",
      explanation: `Plik zmieniono ostatnio ${minutes} minut po wykonaniu zdjęcia. Programy do przesyłania, geotagowania i kopii zapasowych zapisują pliki w ten sposób; samo w sobie nie wskazuje to na zmianę obrazu.`,
    },
  })) as TextFn<number>,
  beforeReference: ((a: { capture: string; reference: string }) => ({
    en: {
      title: "Taken before the reference date",
      explanation: `The camera recorded the picture on ${a.capture}, before the reference date ${a.reference}. A photo of the claimed event cannot be older than the event.`,
    },
    de: {
      title: "Vor dem Stichtag aufgenommen",
      explanation: `Die Kamera hat das Bild am ${a.capture} aufgenommen, vor dem Stichtag ${a.reference}. Ein Foto des gemeldeten Ereignisses kann nicht älter sein als das Ereignis.`,
    },
    pl: {
      title: "Zdjęcie sprzed daty odniesienia",
      explanation: `Aparat zapisał zdjęcie ${a.capture}, przed datą odniesienia ${a.reference}. Zdjęcie zgłoszonego zdarzenia nie może być starsze niż to zdarzenie.`,
    },
  })) as TextFn<{ capture: string; reference: string }>,
  future: ((capture: string) => ({
    en: {
      title: "Capture date in the future",
      explanation: `The recorded capture date ${capture} lies in the future. The camera clock was wrong or the date was changed.`,
    },
    de: {
      title: "Aufnahmedatum in der Zukunft",
      explanation: `Das gespeicherte Aufnahmedatum ${capture} liegt in der Zukunft. Die Kamerauhr ging falsch oder das Datum wurde geändert.`,
    },
    pl: {
      title: "Data wykonania w przyszłości",
      explanation: `Zapisana data wykonania ${capture} leży w przyszłości. Zegar aparatu był źle ustawiony albo datę zmieniono.`,
    },
  })) as TextFn<string>,
  gpsInvalid: ((coords: string) => ({
    en: {
      title: "Implausible GPS position",
      explanation: `The GPS position ${coords} is not a real place (out of range or exactly 0/0). It was written wrongly or edited.`,
    },
    de: {
      title: "Unplausible GPS-Position",
      explanation: `Die GPS-Position ${coords} ist kein realer Ort (außerhalb des Wertebereichs oder genau 0/0). Sie wurde falsch geschrieben oder bearbeitet.`,
    },
    pl: {
      title: "Nieprawdopodobna pozycja GPS",
      explanation: `Pozycja GPS ${coords} nie jest rzeczywistym miejscem (poza zakresem lub dokładnie 0/0). Została zapisana błędnie lub zmieniona.`,
    },
  })) as TextFn<string>,
  cameraFieldsMissing: ((camera: string) => ({
    en: {
      title: "Camera named but exposure data missing",
      explanation: `The file names the camera "${camera}" but has no exposure time, aperture, ISO or capture time. Cameras always write these; they were removed or the camera entry was added later.`,
    },
    de: {
      title: "Kamera genannt, Belichtungsdaten fehlen",
      explanation: `Die Datei nennt die Kamera „${camera}“, enthält aber weder Belichtungszeit, Blende, ISO noch Aufnahmezeit. Kameras schreiben diese immer; sie wurden entfernt oder der Kameraeintrag nachträglich ergänzt.`,
    },
    pl: {
      title: "Podano aparat, brak danych ekspozycji",
      explanation: `Plik podaje aparat „${camera}”, ale nie ma czasu naświetlania, przysłony, ISO ani czasu wykonania. Aparaty zawsze je zapisują; zostały usunięte albo wpis o aparacie dodano później.`,
    },
  })) as TextFn<string>,
  makerNoteMissing: ((make: string) => ({
    en: {
      title: "Manufacturer data block missing",
      explanation: `Cameras by ${make} store a manufacturer block (maker note) in every photo. It is missing here, which happens when software rewrites the metadata (older cameras also omit it, so on its own this is only a hint).`,
    },
    de: {
      title: "Herstellerdaten fehlen",
      explanation: `Kameras von ${make} speichern in jedem Foto einen Herstellerblock (Maker Note). Er fehlt hier; das passiert, wenn Software die Metadaten neu schreibt (ältere Kameras lassen ihn auch weg; allein ist das nur ein Hinweis).`,
    },
    pl: {
      title: "Brak bloku danych producenta",
      explanation: `Aparaty ${make} zapisują w każdym zdjęciu blok producenta (maker note). Tutaj go brak, co zdarza się, gdy program przepisuje metadane (starsze aparaty też go pomijają, więc samo w sobie to tylko wskazówka).`,
    },
  })) as TextFn<string>,
  sizeMismatch: ((a: { recorded: string; actual: string }) => ({
    en: {
      title: "Picture size differs from the recorded size",
      explanation: `The metadata records ${a.recorded} pixels, the picture has ${a.actual}. Its shape changed: part of the picture was cut away after capture.`,
    },
    de: {
      title: "Bildgröße weicht von der gespeicherten ab",
      explanation: `Die Metadaten nennen ${a.recorded} Pixel, das Bild hat ${a.actual}. Das Seitenverhältnis ist anders: Nach der Aufnahme wurde ein Teil des Bildes abgeschnitten.`,
    },
    pl: {
      title: "Rozmiar zdjęcia różni się od zapisanego",
      explanation: `Metadane podają ${a.recorded} pikseli, zdjęcie ma ${a.actual}. Zmieniły się proporcje: po wykonaniu odcięto część zdjęcia.`,
    },
  })) as TextFn<{ recorded: string; actual: string }>,
  sizeScaled: ((a: { recorded: string; actual: string }) => ({
    en: {
      title: "Picture scaled down after capture",
      explanation: `The metadata records ${a.recorded} pixels, the picture has ${a.actual} with the same proportions: it was scaled down as a whole, as messengers, upload tools and publishers do. Nothing was cut away.`,
    },
    de: {
      title: "Bild nach der Aufnahme verkleinert",
      explanation: `Die Metadaten nennen ${a.recorded} Pixel, das Bild hat ${a.actual} im selben Seitenverhältnis: Es wurde als Ganzes verkleinert, wie es Messenger, Upload-Programme und Verlage tun. Nichts wurde abgeschnitten.`,
    },
    pl: {
      title: "Zdjęcie pomniejszone po wykonaniu",
      explanation: `Metadane podają ${a.recorded} pikseli, zdjęcie ma ${a.actual} przy tych samych proporcjach: zostało pomniejszone w całości, jak robią to komunikatory, programy do przesyłania i wydawcy. Nic nie zostało odcięte.`,
    },
  })) as TextFn<{ recorded: string; actual: string }>,
  thumbnailShape: ((a: { thumb: string; actual: string }) => ({
    en: {
      title: "Preview picture has a different shape",
      explanation: `The embedded preview is ${a.thumb}, the picture ${a.actual}: the proportions differ, so the picture was cropped after the preview was made.`,
    },
    de: {
      title: "Vorschaubild hat andere Proportionen",
      explanation: `Die eingebettete Vorschau ist ${a.thumb}, das Bild ${a.actual}: die Proportionen weichen ab, das Bild wurde nach Erstellen der Vorschau beschnitten.`,
    },
    pl: {
      title: "Miniatura ma inne proporcje",
      explanation: `Osadzona miniatura ma ${a.thumb}, zdjęcie ${a.actual}: proporcje się różnią, więc zdjęcie przycięto po utworzeniu miniatury.`,
    },
  })) as TextFn<{ thumb: string; actual: string }>,
  summary: ((a: { camera: string; captured: string }) => ({
    en: {
      title: "Metadata without contradictions",
      explanation: `Camera: ${a.camera}; captured: ${a.captured}. The metadata shows no sign of editing.`,
    },
    de: {
      title: "Metadaten ohne Widersprüche",
      explanation: `Kamera: ${a.camera}; aufgenommen: ${a.captured}. Die Metadaten zeigen keine Spur einer Bearbeitung.`,
    },
    pl: {
      title: "Metadane bez sprzeczności",
      explanation: `Aparat: ${a.camera}; wykonano: ${a.captured}. Metadane nie wskazują na edycję.`,
    },
  })) as TextFn<{ camera: string; captured: string }>,
};

/**
 * The plain-words reasons of the photo checks in de/en/pl. A reason is stored with its code, its values
 * and the English text (the record); the board shows it in the handler's language from the code and values.
 */
import { fill } from "../../lib/fill";
import type { CheckReason } from "./types";

type Language = "de" | "en" | "pl";

const TEXTS = {
  virtual_camera: {
    en: 'The camera reports itself as "{label}", a virtual camera that can feed any picture.',
    de: "Die Kamera meldet sich als „{label}“, eine virtuelle Kamera, die beliebige Bilder einspeisen kann.",
    pl: "Kamera przedstawia się jako „{label}”, kamera wirtualna, która może podać dowolny obraz.",
  },
  hash_mismatch: {
    en: "The uploaded image is not the one the page photographed: its hash differs from the one recorded at capture.",
    de: "Das hochgeladene Bild ist nicht das, das die Seite aufgenommen hat: sein Hash weicht vom bei der Aufnahme festgehaltenen ab.",
    pl: "Przesłany obraz nie jest tym, który wykonała strona: jego skrót różni się od zapisanego przy zdjęciu.",
  },
  resolution_mismatch: {
    en: "The image is {width}×{height} but the camera stream was {trackWidth}×{trackHeight}.",
    de: "Das Bild hat {width}×{height} Pixel, der Kamerastrom aber {trackWidth}×{trackHeight}.",
    pl: "Obraz ma {width}×{height} pikseli, a strumień kamery miał {trackWidth}×{trackHeight}.",
  },
  impossible_resolution: {
    en: "A live camera frame of {width}×{height} is not plausible.",
    de: "Ein Live-Kamerabild mit {width}×{height} Pixeln ist nicht plausibel.",
    pl: "Klatka z kamery na żywo o wymiarach {width}×{height} nie jest wiarygodna.",
  },
  editing_traces: {
    en: "The image carries {data} data; a frame taken by the page has none, so it was made or edited elsewhere.",
    de: "Das Bild enthält {data}-Daten; ein von der Seite aufgenommenes Bild hat keine, es wurde also anderswo erstellt oder bearbeitet.",
    pl: "Obraz zawiera dane {data}; klatka wykonana przez stronę ich nie ma, więc powstał lub był edytowany gdzie indziej.",
  },
  duplicate_file: {
    en: "The same image file was already sent in this session.",
    de: "Dieselbe Bilddatei wurde in dieser Sitzung schon gesendet.",
    pl: "Ten sam plik obrazu został już wysłany w tej sesji.",
  },
  identical_frame: {
    en: "This frame is pixel-identical to an earlier shot; a live camera never delivers the same frame twice.",
    de: "Dieses Bild gleicht einer früheren Aufnahme Pixel für Pixel; eine Live-Kamera liefert nie zweimal dasselbe Bild.",
    pl: "Ta klatka jest identyczna co do piksela z wcześniejszym zdjęciem; kamera na żywo nigdy nie daje dwa razy tej samej klatki.",
  },
  capture_time: {
    en: "The recorded capture time lies outside the moment the shot was requested.",
    de: "Die festgehaltene Aufnahmezeit liegt außerhalb des Moments, in dem die Aufnahme angefordert wurde.",
    pl: "Zapisany czas wykonania zdjęcia leży poza chwilą, w której o nie poproszono.",
  },
  no_position: {
    en: "The policyholder did not share a position.",
    de: "Der Versicherungsnehmer hat keinen Standort geteilt.",
    pl: "Ubezpieczony nie udostępnił lokalizacji.",
  },
  far_from_network: {
    en: "The phone reports a position {km} km from where its internet connection is located.",
    de: "Das Telefon meldet einen Standort {km} km von dem Ort entfernt, an dem seine Internetverbindung liegt.",
    pl: "Telefon podaje położenie {km} km od miejsca, w którym znajduje się jego połączenie internetowe.",
  },
  impossible_move: {
    en: "Between two shots the position jumped {km} km in {minutes} min.",
    de: "Zwischen zwei Aufnahmen sprang der Standort um {km} km in {minutes} min.",
    pl: "Między dwoma zdjęciami położenie przeskoczyło o {km} km w {minutes} min.",
  },
  invalid_position: {
    en: "The reported position is not a valid coordinate.",
    de: "Der gemeldete Standort ist keine gültige Koordinate.",
    pl: "Podane położenie nie jest prawidłową współrzędną.",
  },
  perfect_accuracy: {
    en: "The position claims perfect accuracy, which no real receiver gives: typical of mocked locations.",
    de: "Der Standort behauptet vollkommene Genauigkeit, die kein echter Empfänger liefert: typisch für vorgetäuschte Standorte.",
    pl: "Położenie deklaruje idealną dokładność, której nie daje żaden prawdziwy odbiornik: typowe dla podrobionej lokalizacji.",
  },
  too_inaccurate: {
    en: "The position is only accurate to {km} km.",
    de: "Der Standort ist nur auf {km} km genau.",
    pl: "Położenie jest dokładne tylko do {km} km.",
  },
  null_island: {
    en: "The position is 0°, 0° — a default value, not a real fix.",
    de: "Der Standort ist 0°, 0° – ein Vorgabewert, keine echte Ortung.",
    pl: "Położenie to 0°, 0° – wartość domyślna, a nie prawdziwy pomiar.",
  },
  round_coordinates: {
    en: "The coordinates are whole degrees, as typed in rather than measured.",
    de: "Die Koordinaten sind ganze Grad, wie eingetippt statt gemessen.",
    pl: "Współrzędne są pełnymi stopniami, jak wpisane ręcznie, a nie zmierzone.",
  },
  periodic_pattern: {
    en: "A regular fine pattern (moiré or a pixel grid) runs through the picture: {peaks} isolated frequency peaks where a natural scene shows none.",
    de: "Ein regelmäßiges feines Muster (Moiré oder ein Pixelraster) zieht sich durch das Bild: {peaks} einzelne Frequenzspitzen, wo eine natürliche Szene keine zeigt.",
    pl: "Przez obraz przebiega regularny drobny wzór (mora lub siatka pikseli): {peaks} odosobnionych szczytów częstotliwości, których naturalna scena nie ma.",
  },
  colour_moire: {
    en: "Colour fringes repeat in a regular pattern ({peaks} colour frequency peaks), typical of a screen's red/green/blue sub-pixels.",
    de: "Farbsäume wiederholen sich in einem regelmäßigen Muster ({peaks} Farbfrequenzspitzen), typisch für die roten, grünen und blauen Subpixel eines Bildschirms.",
    pl: "Barwne obwódki powtarzają się w regularnym wzorze ({peaks} szczytów częstotliwości barw), typowym dla czerwonych, zielonych i niebieskich subpikseli ekranu.",
  },
  model_screen: {
    en: "The recapture model rates this as a photo of a screen or printout ({percent} %).",
    de: "Das Modell für abfotografierte Bilder stuft dies als Foto eines Bildschirms oder Ausdrucks ein ({percent} %).",
    pl: "Model wykrywania fotografii wtórnych ocenia to jako zdjęcie ekranu lub wydruku ({percent} %).",
  },
  blurry: {
    en: "The photo is blurred: no sharp edges were found.",
    de: "Das Foto ist unscharf: es wurden keine scharfen Kanten gefunden.",
    pl: "Zdjęcie jest nieostre: nie znaleziono ostrych krawędzi.",
  },
  too_dark: { en: "The photo is too dark.", de: "Das Foto ist zu dunkel.", pl: "Zdjęcie jest zbyt ciemne." },
  too_bright: { en: "The photo is overexposed.", de: "Das Foto ist überbelichtet.", pl: "Zdjęcie jest prześwietlone." },
  no_content: {
    en: "The photo shows too little: it is nearly uniform.",
    de: "Das Foto zeigt zu wenig: es ist fast einfarbig.",
    pl: "Zdjęcie pokazuje zbyt mało: jest prawie jednolite.",
  },
} as const satisfies Record<string, Record<Language, string>>;

export type ReasonCode = keyof typeof TEXTS;
export const REASON_CODES = Object.keys(TEXTS) as ReasonCode[];

/** A reason with its values; `message` is the English record. */
export function checkReason(code: ReasonCode, params: Record<string, string | number> = {}): CheckReason {
  return { code, params, message: fill(TEXTS[code].en, params) };
}

/**
 * The reason in `language`. A record stored before reasons carried their values (or with an unknown code)
 * keeps its English text rather than showing an unfilled placeholder.
 */
export function reasonText(language: Language, reason: CheckReason): string {
  const texts = (TEXTS as Record<string, Record<Language, string>>)[reason.code];
  if (!texts) return reason.message;
  const needed = [...texts[language].matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (needed.some((key) => reason.params?.[key] === undefined)) return reason.message;
  return fill(texts[language], reason.params ?? {});
}

/** Plain-language texts (de/en/pl) of the localised JPEG detectors: double quantisation and JPEG ghosts. */
import type { FindingText } from "../finding";

/** Decimal comma for German and Polish sentences. */
const comma = (n: string) => n.replace(".", ",");

/** Why a file could not be analysed from its coefficients (the technical reason stays in the evidence). */
export type NotAssessedReason = "notJpeg" | "otherCoding" | "damaged" | "small";

const reasons: Record<NotAssessedReason, Record<"de" | "en" | "pl", string>> = {
  notJpeg: {
    en: "the file is not a JPEG, so it carries no JPEG compression traces",
    de: "die Datei ist kein JPEG und trägt daher keine JPEG-Kompressionsspuren",
    pl: "plik nie jest plikiem JPEG, więc nie nosi śladów kompresji JPEG",
  },
  otherCoding: {
    en: "the JPEG is coded in a rare way (arithmetic, lossless or 12-bit) whose coefficients this check does not read",
    de: "das JPEG ist auf eine seltene Art codiert (arithmetisch, verlustfrei oder mit 12 Bit), deren Koeffizienten diese Prüfung nicht liest",
    pl: "plik JPEG jest zakodowany w rzadki sposób (arytmetycznie, bezstratnie lub 12-bitowo), którego współczynników ta kontrola nie odczytuje",
  },
  damaged: {
    en: "the compressed picture data cannot be read completely",
    de: "die komprimierten Bilddaten lassen sich nicht vollständig lesen",
    pl: "skompresowanych danych obrazu nie da się odczytać w całości",
  },
  small: {
    en: "the picture is too small",
    de: "das Bild ist zu klein",
    pl: "obraz jest zbyt mały",
  },
};

/** Names of the two checks (also for imageTooLargeText). */
export const localisedChecks = {
  dq: { de: "Doppelte Quantisierung", en: "Double quantisation", pl: "Podwójna kwantyzacja" },
  ghost: { de: "JPEG-Geister", en: "JPEG ghosts", pl: "Duchy JPEG" },
};

export const dqTexts = {
  notAssessed: (why: NotAssessedReason): FindingText => ({
    en: { title: "Double-quantisation map not possible", explanation: `The map was not made: ${reasons[why].en}.` },
    de: {
      title: "Karte der doppelten Quantisierung nicht möglich",
      explanation: `Die Karte wurde nicht erstellt: ${reasons[why].de}.`,
    },
    pl: {
      title: "Mapa podwójnej kwantyzacji niemożliwa",
      explanation: `Mapy nie utworzono: ${reasons[why].pl}.`,
    },
  }),
  none: (frequencies: number, of: number): FindingText => ({
    en: {
      title: "No traces of an earlier JPEG save",
      explanation: `The coefficient statistics show no sign that the picture was saved as JPEG before its last save (${frequencies} of ${of} frequencies show one). An area pasted in or edited after an earlier save cannot be told apart this way; the other checks still apply.`,
    },
    de: {
      title: "Keine Spuren einer früheren JPEG-Speicherung",
      explanation: `Die Koeffizientenstatistik zeigt nicht, dass das Bild vor dem letzten Speichern schon einmal als JPEG gespeichert wurde (${frequencies} von ${of} Frequenzen zeigen es). Ein eingefügter oder nach einer früheren Speicherung bearbeiteter Bereich lässt sich so nicht abgrenzen; die übrigen Prüfungen gelten weiter.`,
    },
    pl: {
      title: "Brak śladów wcześniejszego zapisu JPEG",
      explanation: `Statystyka współczynników nie wskazuje, że obraz był zapisany jako JPEG przed ostatnim zapisem (wskazuje na to ${frequencies} z ${of} częstotliwości). Wklejonego obszaru lub obszaru edytowanego po wcześniejszym zapisie nie da się w ten sposób wyodrębnić; pozostałe kontrole nadal obowiązują.`,
    },
  }),
  region: (a: { score: number; share: number }): FindingText => ({
    en: {
      title: "Area without the traces of the earlier JPEG save",
      explanation: `The picture was saved as JPEG twice, and almost everywhere its coefficients still carry the pattern of the first save; one area (${a.share} % of the picture) does not (strength ${a.score.toFixed(1)}). That area was pasted in, moved off the 8×8 grid or edited between the two saves. The heatmap shows it in red; hatched areas (flat, black or white) could not be judged.`,
    },
    de: {
      title: "Bereich ohne die Spuren der früheren JPEG-Speicherung",
      explanation: `Das Bild wurde zweimal als JPEG gespeichert, und fast überall tragen seine Koeffizienten noch das Muster der ersten Speicherung; ein Bereich (${comma(String(a.share))} % des Bildes) nicht (Stärke ${comma(a.score.toFixed(1))}). Dieser Bereich wurde eingefügt, gegen das 8×8-Raster verschoben oder zwischen den beiden Speicherungen bearbeitet. Die Heatmap zeigt ihn rot; schraffierte Flächen (flach, schwarz oder weiß) konnten nicht beurteilt werden.`,
    },
    pl: {
      title: "Obszar bez śladów wcześniejszego zapisu JPEG",
      explanation: `Obraz zapisano jako JPEG dwukrotnie i prawie wszędzie jego współczynniki nadal noszą wzór pierwszego zapisu; jeden obszar (${comma(String(a.share))} % zdjęcia) nie (siła ${comma(a.score.toFixed(1))}). Ten obszar wklejono, przesunięto względem siatki 8×8 lub edytowano między oboma zapisami. Mapa cieplna pokazuje go na czerwono; zakreskowanych miejsc (płaskich, czarnych lub białych) nie dało się ocenić.`,
    },
  }),
  uniform: (judged: number): FindingText => ({
    en: {
      title: "Traces of the earlier JPEG save are uniform",
      explanation: `The picture was saved as JPEG before its last save, and all judged parts (${judged} %) carry the pattern of that earlier save alike; no area stands out.`,
    },
    de: {
      title: "Spuren der früheren JPEG-Speicherung sind einheitlich",
      explanation: `Das Bild wurde vor dem letzten Speichern schon einmal als JPEG gespeichert, und alle beurteilten Teile (${judged} %) tragen das Muster dieser früheren Speicherung gleichermaßen; kein Bereich fällt auf.`,
    },
    pl: {
      title: "Ślady wcześniejszego zapisu JPEG są jednolite",
      explanation: `Obraz był zapisany jako JPEG przed ostatnim zapisem, a wszystkie oceniane części (${judged} %) noszą wzór tego wcześniejszego zapisu w tym samym stopniu; żaden obszar się nie wyróżnia.`,
    },
  }),
};

export const ghostTexts = {
  notAssessed: (why: NotAssessedReason): FindingText => ({
    en: { title: "JPEG ghost map not possible", explanation: `The map was not made: ${reasons[why].en}.` },
    de: {
      title: "JPEG-Geisterkarte nicht möglich",
      explanation: `Die Karte wurde nicht erstellt: ${reasons[why].de}.`,
    },
    pl: { title: "Mapa duchów JPEG niemożliwa", explanation: `Mapy nie utworzono: ${reasons[why].pl}.` },
  }),
  region: (a: { quality: number; lacks: boolean; score: number; share: number }): FindingText => ({
    en: {
      title: "Area with a different JPEG ghost",
      explanation: a.lacks
        ? `Re-compressed at quality ${a.quality}, the picture changes unusually little almost everywhere (a "ghost" of an earlier save at about that quality), except in one area (${a.share} % of the picture, strength ${a.score.toFixed(1)}). That area did not go through the earlier save: pasted in or edited afterwards. The heatmap shows it in red.`
        : `Re-compressed at quality ${a.quality}, one area (${a.share} % of the picture, strength ${a.score.toFixed(1)}) changes unusually little compared with the rest (a "ghost"): it was saved at about that quality before, unlike the rest of the picture, as content pasted from another JPEG is. The heatmap shows it in red.`,
    },
    de: {
      title: "Bereich mit anderem JPEG-Geist",
      explanation: a.lacks
        ? `Bei erneuter Kompression mit Qualität ${a.quality} ändert sich das Bild fast überall ungewöhnlich wenig (ein „Geist“ einer früheren Speicherung mit etwa dieser Qualität), nur in einem Bereich nicht (${comma(String(a.share))} % des Bildes, Stärke ${comma(a.score.toFixed(1))}). Dieser Bereich hat die frühere Speicherung nicht durchlaufen: eingefügt oder danach bearbeitet. Die Heatmap zeigt ihn rot.`
        : `Bei erneuter Kompression mit Qualität ${a.quality} ändert sich ein Bereich (${comma(String(a.share))} % des Bildes, Stärke ${comma(a.score.toFixed(1))}) ungewöhnlich wenig gegenüber dem Rest (ein „Geist“): Er wurde anders als das übrige Bild schon einmal mit etwa dieser Qualität gespeichert, wie aus einem anderen JPEG eingefügte Inhalte. Die Heatmap zeigt ihn rot.`,
    },
    pl: {
      title: "Obszar z innym duchem JPEG",
      explanation: a.lacks
        ? `Po ponownej kompresji w jakości ${a.quality} obraz prawie wszędzie zmienia się wyjątkowo mało („duch” wcześniejszego zapisu w mniej więcej tej jakości), z wyjątkiem jednego obszaru (${comma(String(a.share))} % zdjęcia, siła ${comma(a.score.toFixed(1))}). Ten obszar nie przeszedł wcześniejszego zapisu: wklejono go lub edytowano później. Mapa cieplna pokazuje go na czerwono.`
        : `Po ponownej kompresji w jakości ${a.quality} jeden obszar (${comma(String(a.share))} % zdjęcia, siła ${comma(a.score.toFixed(1))}) zmienia się wyjątkowo mało w porównaniu z resztą („duch”): w odróżnieniu od reszty zdjęcia był już zapisany w mniej więcej tej jakości, jak treść wklejona z innego pliku JPEG. Mapa cieplna pokazuje go na czerwono.`,
    },
  }),
  uniform: (judged: number): FindingText => ({
    en: {
      title: "JPEG ghosts are uniform",
      explanation: `Re-compressed at qualities 50 to 98, all judged parts of the picture (${judged} %) react alike; no area shows a ghost of its own.`,
    },
    de: {
      title: "JPEG-Geister sind einheitlich",
      explanation: `Bei erneuter Kompression mit Qualitäten von 50 bis 98 reagieren alle beurteilten Teile des Bildes (${judged} %) gleich; kein Bereich zeigt einen eigenen Geist.`,
    },
    pl: {
      title: "Duchy JPEG są jednolite",
      explanation: `Po ponownej kompresji w jakościach od 50 do 98 wszystkie oceniane części zdjęcia (${judged} %) reagują tak samo; żaden obszar nie ma własnego ducha.`,
    },
  }),
};

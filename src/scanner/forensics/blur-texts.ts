/** Plain-language texts (de/en/pl) of the blurred-rectangle check (blur.ts). */
import type { FindingText } from "../finding";

const comma = (n: number) => String(n).replace(".", ",");

/** The check's name (also for imageTooLargeText). */
export const blurCheck = { de: "Weichgezeichnete Bereiche", en: "Blurred areas", pl: "Rozmyte obszary" };

export const blurTexts = {
  /** The check was not made, and why (one reason per language). */
  notAssessed: (why: { de: string; en: string; pl: string }): FindingText => {
    const text = (title: string, lead: string, reason: string) => ({ title, explanation: `${lead}: ${reason}.` });
    return {
      en: text("Blurred areas not checked", "Not searched for blurred areas", why.en),
      de: text("Weichzeichnung nicht geprüft", "Nicht auf weichgezeichnete Bereiche untersucht", why.de),
      pl: text("Rozmycie niesprawdzone", "Nie szukano rozmytych obszarów", why.pl),
    };
  },
  region: (a: { share: number; width: number; height: number; percent: number }): FindingText => ({
    en: {
      title: "Rectangle blurred after the photo was taken",
      explanation: `Inside a rectangle of ${a.width} × ${a.height} px (${a.share} % of the picture) the finest detail is missing, while the coarser shapes carry on across its edges: along ${a.percent} % of each of its four sides the picture turns from sharp to soft in one step, at the same brightness. A lens blurs along the outlines of objects at another distance, not within four straight lines; a blur within a straight selection does this, for example to hide a number, a name or damage. The heatmap shows the area in red.`,
    },
    de: {
      title: "Nachträglich weichgezeichnetes Rechteck",
      explanation: `In einem Rechteck von ${a.width} × ${a.height} px (${comma(a.share)} % des Bildes) fehlen die feinsten Details, während die gröberen Formen über seine Ränder hinweg weiterlaufen: auf ${a.percent} % jeder seiner vier Seiten wechselt das Bild in einem Schritt von scharf zu weich, bei gleicher Helligkeit. Ein Objektiv zeichnet entlang der Umrisse von Gegenständen in anderer Entfernung weich, nicht innerhalb von vier geraden Linien; ein Weichzeichner in einer geraden Auswahl tut das, etwa um eine Nummer, einen Namen oder einen Schaden zu verbergen. Die Heatmap zeigt den Bereich rot.`,
    },
    pl: {
      title: "Prostokąt rozmyty po wykonaniu zdjęcia",
      explanation: `Wewnątrz prostokąta ${a.width} × ${a.height} px (${comma(a.share)} % zdjęcia) brakuje najdrobniejszych szczegółów, a grubsze kształty biegną dalej przez jego brzegi: na ${a.percent} % każdego z czterech boków obraz w jednym kroku przechodzi z ostrego w miękki, przy tej samej jasności. Obiektyw rozmywa wzdłuż konturów przedmiotów w innej odległości, a nie w obrębie czterech prostych linii; tak działa rozmycie w prostym zaznaczeniu, na przykład by ukryć numer, nazwisko lub uszkodzenie. Mapa cieplna pokazuje obszar na czerwono.`,
    },
  }),
  confirmed: (a: {
    share: number;
    width: number;
    height: number;
    percent: number;
    ratio: number;
    halfSize: boolean;
  }): FindingText => ({
    en: {
      title: "Rectangle probably blurred after the photo was taken",
      explanation: `Along ${a.percent} % of each of the four sides of a rectangle of ${a.width} × ${a.height} px (${a.share} % of the picture) the picture${a.halfSize ? ", reduced to half its size," : ""} turns from sharp to soft in one step, at the same brightness; ${a.halfSize ? "at that size such steps alone are not enough (untouched photos show them too)" : "too short a stretch to report alone"}. But inside it the finest detail is at least ${a.ratio} times weaker than just outside each of its four sides, while the coarser shapes carry on. A lens blurs along the outlines of objects at another distance, not within four straight lines; a blur within a straight selection does this, for example to hide a number, a name or damage. The heatmap marks the area.`,
    },
    de: {
      title: "Wahrscheinlich nachträglich weichgezeichnetes Rechteck",
      explanation: `Auf ${a.percent} % jeder der vier Seiten eines Rechtecks von ${a.width} × ${a.height} px (${comma(a.share)} % des Bildes) wechselt das Bild${a.halfSize ? " (auf halbe Größe verkleinert)" : ""} in einem Schritt von scharf zu weich, bei gleicher Helligkeit; ${a.halfSize ? "in dieser Größe reicht das allein nicht (auch unbearbeitete Fotos zeigen solche Schritte)" : "für sich allein zu wenig, um es zu melden"}. In seinem Inneren sind die feinsten Details aber mindestens ${a.ratio}-mal schwächer als direkt außerhalb jeder seiner vier Seiten, während die gröberen Formen weiterlaufen. Ein Objektiv zeichnet entlang der Umrisse von Gegenständen in anderer Entfernung weich, nicht innerhalb von vier geraden Linien; ein Weichzeichner in einer geraden Auswahl tut das, etwa um eine Nummer, einen Namen oder einen Schaden zu verbergen. Die Heatmap markiert den Bereich.`,
    },
    pl: {
      title: "Prostokąt prawdopodobnie rozmyty po wykonaniu zdjęcia",
      explanation: `Na ${a.percent} % każdego z czterech boków prostokąta ${a.width} × ${a.height} px (${comma(a.share)} % zdjęcia) obraz${a.halfSize ? " (zmniejszony do połowy)" : ""} w jednym kroku przechodzi z ostrego w miękki, przy tej samej jasności; ${a.halfSize ? "w tej skali samo to nie wystarcza (takie kroki zdarzają się też na nieedytowanych zdjęciach)" : "to za mało, by zgłosić to samodzielnie"}. Jednak wewnątrz prostokąta najdrobniejsze szczegóły są co najmniej ${a.ratio} razy słabsze niż tuż za każdym z jego czterech boków, a grubsze kształty biegną dalej. Obiektyw rozmywa wzdłuż konturów przedmiotów w innej odległości, a nie w obrębie czterech prostych linii; tak działa rozmycie w prostym zaznaczeniu, na przykład by ukryć numer, nazwisko lub uszkodzenie. Mapa cieplna zaznacza obszar.`,
    },
  }),
  none: (): FindingText => ({
    en: {
      title: "No blurred rectangle",
      explanation:
        "No rectangle of the picture is softer than its surroundings along all four straight sides, as a blur within a straight selection leaves it.",
    },
    de: {
      title: "Kein weichgezeichnetes Rechteck",
      explanation:
        "Kein Rechteck des Bildes ist entlang aller vier geraden Seiten weicher als seine Umgebung, wie es ein Weichzeichner in einer geraden Auswahl hinterlässt.",
    },
    pl: {
      title: "Brak rozmytego prostokąta",
      explanation:
        "Żaden prostokąt zdjęcia nie jest wzdłuż wszystkich czterech prostych boków bardziej miękki niż jego otoczenie, jak zostawia to rozmycie w prostym zaznaczeniu.",
    },
  }),
};

/** Plain-language texts (de/en/pl) of the cut-edge check (seams.ts). */
import type { FindingText } from "../finding";

const comma = (n: string) => n.replace(".", ",");

/** The check's name (also for imageTooLargeText). */
export const seamCheck = { de: "Schnittkanten", en: "Cut edges", pl: "Krawędzie cięcia" };

export const seamTexts = {
  notAssessed: (why: { de: string; en: string; pl: string }): FindingText => ({
    en: { title: "Cut edges not checked", explanation: `The check was not made: ${why.en}.` },
    de: { title: "Schnittkanten nicht geprüft", explanation: `Die Prüfung wurde nicht durchgeführt: ${why.de}.` },
    pl: { title: "Krawędzie cięcia niesprawdzone", explanation: `Kontroli nie przeprowadzono: ${why.pl}.` },
  }),
  region: (a: { share: number; width: number; height: number; percent: number }): FindingText => ({
    en: {
      title: "Area framed by cut edges",
      explanation: `A rectangle of ${a.width} × ${a.height} px (${a.share} % of the picture) is framed on all four sides by edges one pixel sharp: along ${a.percent} % of each side the brightness jumps from one pixel to the next and nowhere beside it. A camera spreads every edge over two or more pixels; edges this sharp along straight lines arise when an area is pasted in or its brightness is changed within a selection. The heatmap shows the frame in red.`,
    },
    de: {
      title: "Bereich mit harten Schnittkanten",
      explanation: `Ein Rechteck von ${a.width} × ${a.height} px (${comma(String(a.share))} % des Bildes) ist an allen vier Seiten von Kanten umrahmt, die nur ein Pixel breit sind: auf ${a.percent} % jeder Seite springt die Helligkeit von einem Pixel zum nächsten und daneben nicht. Eine Kamera verteilt jede Kante auf zwei oder mehr Pixel; so scharfe Kanten entlang gerader Linien entstehen, wenn ein Bereich eingefügt oder seine Helligkeit innerhalb einer Auswahl verändert wird. Die Heatmap zeigt den Rahmen rot.`,
    },
    pl: {
      title: "Obszar otoczony ostrymi krawędziami cięcia",
      explanation: `Prostokąt ${a.width} × ${a.height} px (${comma(String(a.share))} % zdjęcia) jest ze wszystkich czterech stron otoczony krawędziami o szerokości jednego piksela: na ${a.percent} % każdego boku jasność skacze z jednego piksela na następny, a obok już nie. Aparat rozkłada każdą krawędź na dwa lub więcej pikseli; tak ostre krawędzie wzdłuż prostych linii powstają, gdy obszar zostaje wklejony albo jego jasność zostaje zmieniona w zaznaczeniu. Mapa cieplna pokazuje ramkę na czerwono.`,
    },
  }),
  toneBox: (a: { share: number; width: number; height: number; brighter: boolean }): FindingText => ({
    en: {
      title: "Area framed by cut edges",
      explanation: `A rectangle of ${a.width} × ${a.height} px (${a.share} % of the picture) is ${a.brighter ? "brighter" : "darker"} than its surroundings by a step one pixel wide along all four sides, while the picture's texture runs on across the step. The step is alike on all four sides and shows along each whole side, though the texture hides it at single pixels. A camera spreads every edge over two or more pixels; such a frame arises when the brightness of an area is changed within a straight-edged selection, or an area is pasted in. The heatmap shows the frame in red.`,
    },
    de: {
      title: "Bereich mit harten Schnittkanten",
      explanation: `Ein Rechteck von ${a.width} × ${a.height} px (${comma(String(a.share))} % des Bildes) ist an allen vier Seiten um eine ein Pixel breite Stufe ${a.brighter ? "heller" : "dunkler"} als seine Umgebung, während die Struktur des Bildes über die Stufe hinweg weiterläuft. Die Stufe ist an allen vier Seiten ähnlich und zeigt sich entlang jeder ganzen Seite, auch wo die Struktur sie an einzelnen Pixeln verdeckt. Eine Kamera verteilt jede Kante auf zwei oder mehr Pixel; ein solcher Rahmen entsteht, wenn die Helligkeit eines Bereichs innerhalb einer geraden Auswahl verändert oder ein Bereich eingefügt wird. Die Heatmap zeigt den Rahmen rot.`,
    },
    pl: {
      title: "Obszar otoczony ostrymi krawędziami cięcia",
      explanation: `Prostokąt ${a.width} × ${a.height} px (${comma(String(a.share))} % zdjęcia) jest ze wszystkich czterech stron ${a.brighter ? "jaśniejszy" : "ciemniejszy"} od otoczenia o skok szerokości jednego piksela, a faktura zdjęcia biegnie dalej przez ten skok. Skok jest podobny na wszystkich czterech bokach i widać go wzdłuż każdego całego boku, choć faktura ukrywa go w pojedynczych pikselach. Aparat rozkłada każdą krawędź na dwa lub więcej pikseli; taka ramka powstaje, gdy jasność obszaru zostaje zmieniona w prostym zaznaczeniu albo obszar zostaje wklejony. Mapa cieplna pokazuje ramkę na czerwono.`,
    },
  }),
  confirmed: (a: {
    share: number;
    width: number;
    height: number;
    percent?: number;
    brighter?: boolean;
    family: { de: string; en: string; pl: string };
  }): FindingText => {
    const edge = {
      en:
        a.percent !== undefined
          ? `framed on all four sides by edges one pixel sharp along ${a.percent} % of each side`
          : `${a.brighter ? "brighter" : "darker"} than its surroundings by a one-pixel step along all four sides`,
      de:
        a.percent !== undefined
          ? `an allen vier Seiten auf ${a.percent} % ihrer Länge von ein Pixel breiten Kanten umrahmt`
          : `an allen vier Seiten um eine ein Pixel breite Stufe ${a.brighter ? "heller" : "dunkler"} als seine Umgebung`,
      pl:
        a.percent !== undefined
          ? `otoczony ze wszystkich czterech stron krawędziami o szerokości jednego piksela na ${a.percent} % długości każdego boku`
          : `ze wszystkich czterech stron ${a.brighter ? "jaśniejszy" : "ciemniejszy"} od otoczenia o skok szerokości jednego piksela`,
    };
    return {
      en: {
        title: "Area framed by cut edges, confirmed by a second check",
        explanation: `A rectangle of ${a.width} × ${a.height} px (${a.share} % of the picture) is ${edge.en}: too weak for this check to report alone. But inside it the ${a.family.en} reads higher than in any other area of the same size in the picture. Two independent observations, sharp edges in the pixels and a change of compression or noise within them, point at the same area, as when it was pasted in or edited within a selection: a reason to look at it. The heatmap shows the frame.`,
      },
      de: {
        title: "Bereich mit Schnittkanten, von einer zweiten Prüfung bestätigt",
        explanation: `Ein Rechteck von ${a.width} × ${a.height} px (${comma(String(a.share))} % des Bildes) ist ${edge.de}: zu schwach, als dass diese Prüfung es allein meldete. Doch in seinem Inneren zeigt die Prüfung „${a.family.de}“ höhere Werte als in jedem anderen gleich großen Bereich des Bildes. Zwei unabhängige Beobachtungen, scharfe Kanten in den Pixeln und eine veränderte Kompression oder ein verändertes Rauschen darin, zeigen auf denselben Bereich, wie wenn er eingefügt oder innerhalb einer Auswahl bearbeitet wurde: ein Grund, ihn anzusehen. Die Heatmap zeigt den Rahmen.`,
      },
      pl: {
        title: "Obszar otoczony krawędziami cięcia, potwierdzony drugą kontrolą",
        explanation: `Prostokąt ${a.width} × ${a.height} px (${comma(String(a.share))} % zdjęcia) jest ${edge.pl}: zbyt słabo, by ta kontrola zgłosiła go sama. Jednak w jego wnętrzu kontrola „${a.family.pl}” daje wyższe wartości niż w jakimkolwiek innym obszarze zdjęcia tej samej wielkości. Dwie niezależne obserwacje, ostre krawędzie w pikselach i zmieniona kompresja lub szum w ich obrębie, wskazują ten sam obszar, jak wtedy, gdy został wklejony albo edytowany w zaznaczeniu: powód, by mu się przyjrzeć. Mapa cieplna pokazuje ramkę.`,
      },
    };
  },
  none: (): FindingText => ({
    en: {
      title: "No area framed by cut edges",
      explanation:
        "No rectangle of the picture is framed on all four sides by edges one pixel sharp, as a pasted area or a brightness change within a straight selection leaves them.",
    },
    de: {
      title: "Kein Bereich mit harten Schnittkanten",
      explanation:
        "Kein Rechteck des Bildes ist an allen vier Seiten von ein Pixel breiten Kanten umrahmt, wie sie ein eingefügter Bereich oder eine Helligkeitsänderung in einer geraden Auswahl hinterlässt.",
    },
    pl: {
      title: "Brak obszaru otoczonego krawędziami cięcia",
      explanation:
        "Żaden prostokąt zdjęcia nie jest ze wszystkich czterech stron otoczony krawędziami o szerokości jednego piksela, jakie zostawia wklejony obszar albo zmiana jasności w prostym zaznaczeniu.",
    },
  }),
};

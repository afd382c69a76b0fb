/** Why a picture drawn by a computer is not judged by a pixel check (images/drawn-picture.ts), in de/en/pl. */

type Words = { de: string; en: string; pl: string };

/** What a drawn picture has by nature that the check would read as editing. */
export const drawnBecause = {
  sharpEdges: {
    en: "so its edges are one pixel sharp by nature",
    de: "daher sind seine Kanten von Natur aus ein Pixel scharf",
    pl: "więc jego krawędzie są z natury ostre na jeden piksel",
  },
  flatAreas: {
    en: "so flat areas meet edges one pixel sharp everywhere, which looks like a blurred area beside a sharp one",
    de: "daher grenzen überall glatte Flächen an ein Pixel scharfe Kanten, was wie ein weichgezeichneter Bereich neben einem scharfen aussieht",
    pl: "więc wszędzie gładkie płaszczyzny stykają się z krawędziami ostrymi na jeden piksel, co wygląda jak rozmyty obszar obok ostrego",
  },
  repeats: {
    en: "where the same elements (letters, boxes, logos) repeat by design",
    de: "in dem sich dieselben Elemente (Buchstaben, Kästen, Logos) absichtlich wiederholen",
    pl: "w którym te same elementy (litery, ramki, logo) powtarzają się z założenia",
  },
} satisfies Record<string, Words>;

/** The reason: drawn by a computer (`share` of its pixels equal their neighbour), and what that means for the check. */
export function drawnReason(share: number, because: Words): Words {
  const percent = Math.round(share * 100);
  return {
    en: `the picture was drawn by a computer (${percent} % of its pixels equal their neighbour, as on a rendered page or a screenshot), ${because.en}`,
    de: `das Bild wurde von einem Computer gezeichnet (${percent} % seiner Pixel gleichen ihrem Nachbarn, wie bei einer gerenderten Seite oder einem Bildschirmfoto), ${because.de}`,
    pl: `obraz został narysowany przez komputer (${percent} % jego pikseli równa się sąsiadowi, jak na wyrenderowanej stronie lub zrzucie ekranu), ${because.pl}`,
  };
}

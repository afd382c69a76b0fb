import { finding } from "../finding";
import type { Finding, Language } from "../types";
import type { HashMatch } from "./store";

const dateOf = (date: Date, language: Language) => {
  const iso = date.toISOString().slice(0, 10);
  return language === "en" ? iso : `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
};

const where = (m: HashMatch, language: Language) => {
  const capture = {
    de: "als Live-Foto im Fall",
    en: "as a live capture photo in case",
    pl: "jako zdjęcie na żywo w sprawie",
  };
  const scanner = { de: "im Fall", en: "in case", pl: "w sprawie" };
  return `${(m.source === "capture" ? capture : scanner)[language]} ${m.caseNumber}`;
};

/** A picture of this request was seen before in another case of the same account. */
export function reverseSearchMatch(language: Language, sha256: string | null, all: HashMatch[]): Finding {
  const first = all[0];
  const date = dateOf(first.createdAt, language);
  const d = first.dctDistance;
  const others = all.length - 1;
  const mirrored = first.mirrored
    ? { de: " (gespiegelt)", en: " (mirrored)", pl: " (w odbiciu lustrzanym)" }[language]
    : "";
  const more =
    others > 0
      ? { de: ` und in ${others} weiteren`, en: ` and in ${others} more`, pl: ` oraz w ${others} innych` }[language]
      : "";
  return finding(
    language,
    "REVERSE_SEARCH_MATCH",
    "Red",
    {
      de: {
        title: "Bild bereits in einem anderen Fall eingereicht",
        explanation: `Dieses Bild erschien ${where(first, "de")} am ${date}${mirrored}${more}, Hamming-Distanz ${d} von 64 Bit (0 = gleiches Bild; verschiedene Bilder liegen meist über 20). Dasselbe Foto in zwei Schadenfällen ist ein starkes Betrugsindiz, sofern die Fälle nicht zusammengehören. Gegenüberstellung in downloads/reverse_search_*.png.`,
      },
      en: {
        title: "Image already submitted in another case",
        explanation: `This image appeared ${where(first, "en")} on ${date}${mirrored}${more}, Hamming distance ${d} of 64 bits (0 = the same picture; different pictures are mostly above 20). The same photo in two claims is a strong sign of fraud unless the cases belong together. Side by side in downloads/reverse_search_*.png.`,
      },
      pl: {
        title: "Obraz został już złożony w innej sprawie",
        explanation: `Ten obraz pojawił się ${where(first, "pl")} dnia ${date}${mirrored}${more}, odległość Hamminga ${d} z 64 bitów (0 = ten sam obraz; różne obrazy mają zwykle ponad 20). To samo zdjęcie w dwóch szkodach to silna przesłanka oszustwa, o ile sprawy nie są ze sobą związane. Zestawienie w downloads/reverse_search_*.png.`,
      },
    },
    {
      matches: all.map((m) => matchEvidence(m, sha256)),
    },
  );
}

/** One earlier sighting as the finding's evidence and the search report list it. */
export function matchEvidence(m: HashMatch, sha256: string | null) {
  return {
    caseNumber: m.caseNumber,
    source: m.source,
    ...(m.source === "capture" ? { photoId: m.ref, ticketId: m.ticketId } : { file: m.ref }),
    seenAt: m.createdAt.toISOString(),
    dctDistance: m.dctDistance,
    blockMeanDistance: m.blockMeanDistance,
    mirrored: m.mirrored,
    sameBytes: m.sha256 === sha256,
  };
}

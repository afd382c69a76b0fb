/**
 * Error level analysis: every 8×8 luminance block is re-compressed at quality 90 on the JPEG grid
 * and the change measured (block-analysis). Edited areas that went through a different
 * compression history change differently from their surroundings. Because busy texture always
 * changes more, each block is compared with blocks of similar texture (activity) in the same
 * picture; flat and clipped blocks are not judged (hatched in the heatmap).
 */
import { oncePer } from "../../lib/once-per";
import type { FindingText } from "../finding";
import { blockChecks } from "./budget-texts";
import { blockRegionAnalyzer } from "./block-region-check";
import { smoothedPeerRatios } from "../images/peer-bins-wasm";
import type { BlockMaps } from "../images/block-analysis";
import type { Analyzer } from "../types";
import type { RegionThresholds } from "./region-map";

/** Decimal comma for German and Polish sentences. */
const comma = (n: string) => n.replace(".", ",");

/** Blocks flatter than this (pixel standard deviation) say nothing about compression history. */
export const ELA_FLAT_ACTIVITY = 2;
/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, section "ELA"). */
export const ELA_THRESHOLDS: RegionThresholds = {
  blockScore: 0.8,
  minShare: 0.01,
  minBlocks: 24,
  redScore: 1.4,
  maxShare: 0.5,
};

/**
 * Per-block ELA score (smoothed log2 ratio against texture peers; NaN = not judged), once per file's
 * maps: this check and the fusion (region-fusion.ts) read the same scores.
 */
export const elaScores = oncePer((maps: BlockMaps): Float32Array => {
  const reliable = new Uint8Array(maps.ela.length);
  for (let i = 0; i < reliable.length; i++)
    reliable[i] = !maps.clipped[i] && maps.activity[i] >= ELA_FLAT_ACTIVITY ? 1 : 0;
  return smoothedPeerRatios(maps.ela, maps.activity, reliable, maps.blocksWide, maps.blocksHigh, 2);
});

const texts = {
  notAssessed: (why: { de: string; en: string; pl: string }): FindingText => ({
    en: {
      title: "Error level analysis not possible",
      explanation: `The picture could not be analysed block by block (${why.en}).`,
    },
    de: {
      title: "Fehlerniveau-Analyse nicht möglich",
      explanation: `Das Bild konnte nicht blockweise analysiert werden (${why.de}).`,
    },
    pl: {
      title: "Analiza poziomu błędu niemożliwa",
      explanation: `Nie można było przeanalizować obrazu blok po bloku (${why.pl}).`,
    },
  }),
  region: (a: { ratio: number; share: number }): FindingText => ({
    en: {
      title: "Area with a different compression history",
      explanation: `One area reacts to re-compression ${a.ratio.toFixed(1)}× as strongly as equally detailed parts of the same picture (${a.share} % of the picture). Inserted or retouched content often behaves like this. The heatmap shows the area in red; hatched areas could not be judged.`,
    },
    de: {
      title: "Bereich mit anderer Kompressionsgeschichte",
      explanation: `Ein Bereich reagiert ${comma(a.ratio.toFixed(1))}-mal so stark auf erneute Kompression wie gleich detaillierte Teile desselben Bildes (${comma(String(a.share))} % des Bildes). So verhalten sich oft eingefügte oder retuschierte Inhalte. Die Heatmap zeigt den Bereich rot; schraffierte Flächen konnten nicht beurteilt werden.`,
    },
    pl: {
      title: "Obszar o innej historii kompresji",
      explanation: `Jeden obszar reaguje na ponowną kompresję ${comma(a.ratio.toFixed(1))} razy silniej niż równie szczegółowe części tego samego zdjęcia (${comma(String(a.share))} % zdjęcia). Tak często zachowują się wstawione lub retuszowane treści. Mapa cieplna pokazuje obszar na czerwono; zakreskowanych miejsc nie dało się ocenić.`,
    },
  }),
  uniform: (judged: number): FindingText => ({
    en: {
      title: "Compression traces are uniform",
      explanation: `All judged parts of the picture (${judged} %) react alike to re-compression; no area stands out.`,
    },
    de: {
      title: "Kompressionsspuren sind einheitlich",
      explanation: `Alle beurteilten Teile des Bildes (${judged} %) reagieren gleich auf erneute Kompression; kein Bereich fällt auf.`,
    },
    pl: {
      title: "Ślady kompresji są jednolite",
      explanation: `Wszystkie oceniane części zdjęcia (${judged} %) reagują na ponowną kompresję tak samo; żaden obszar się nie wyróżnia.`,
    },
  }),
};

export const elaAnalyzer: Analyzer = blockRegionAnalyzer({
  id: "ela",
  // 1.1: progressive JPEGs are read from their coefficients like baseline ones (1.0: photon, up to 6 MP).
  version: "1.1.0",
  name: blockChecks.ela,
  codes: { notAssessed: "ELA_NOT_ASSESSED", region: "ELA_REGION", uniform: "ELA_UNIFORM" },
  thresholds: ELA_THRESHOLDS,
  blocks: (maps) => maps.ela.length,
  scores: elaScores,
  texts: {
    notAssessed: texts.notAssessed,
    region: (ratio, share) => texts.region({ ratio, share }),
    uniform: texts.uniform,
  },
});

/**
 * Noise-level inconsistency: one photo's sensor grain is similar everywhere. Each 8×8 block's noise
 * is estimated from a high-pass residual (pixel minus the mean of its four neighbours, block-analysis)
 * and compared with the blocks of the same picture that are as smooth as it. Blurred, smoothed or
 * upscaled pasted areas carry less noise. Blocks that are clipped, strongly textured (edges dominate the residual) or whose noise was removed entirely
 * by compression are not judged (hatched in the heatmap).
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

/** Blocks busier than this (pixel standard deviation) measure texture, not noise. */
export const NOISE_MAX_ACTIVITY = 25;
/** Below this residual the compression has removed the noise: nothing to compare. */
export const NOISE_MIN_SIGMA = 0.3;
/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, section "Noise"). */
export const NOISE_THRESHOLDS: RegionThresholds = {
  blockScore: 2.0,
  minShare: 0.02,
  minBlocks: 24,
  redScore: 3.0,
  maxShare: 0.5,
};

/**
 * Per-block noise inconsistency: log2(noise / texture peers), smoothed and negated (NaN = not judged).
 * Peers are the blocks of similar texture (pixel standard deviation), not of similar brightness: the
 * high-pass residual holds fine texture as well as grain, so a smooth painted wall or a defocused
 * background next to equally bright stone or foliage reads as "less noise" although nothing was edited
 * (docs/forensics.md, "Noise"). Against blocks as smooth as itself, only an area whose grain was removed
 * (blur, smoothing, an upscaled paste) stands out. Once per file's maps: this check and the fusion
 * (region-fusion.ts) read the same scores.
 */
export const noiseScores = oncePer((maps: BlockMaps): Float32Array => {
  const reliable = new Uint8Array(maps.noise.length);
  for (let i = 0; i < reliable.length; i++)
    reliable[i] =
      !maps.clipped[i] && maps.activity[i] <= NOISE_MAX_ACTIVITY && maps.noise[i] >= NOISE_MIN_SIGMA ? 1 : 0;
  const { blocksWide: w, blocksHigh: h } = maps;
  const smoothed = smoothedPeerRatios(maps.noise, maps.activity, reliable, w, h, 2, 12, NOISE_MIN_SIGMA);
  // Missing noise is the signal (blur, smoothing, upscaled pastes); extra noise is mostly texture.
  for (let i = 0; i < smoothed.length; i++) smoothed[i] = -smoothed[i];
  return smoothed;
});

const texts = {
  notAssessed: (why: { de: string; en: string; pl: string }): FindingText => ({
    en: { title: "Noise analysis not possible", explanation: `The picture's noise could not be measured (${why.en}).` },
    de: {
      title: "Rauschanalyse nicht möglich",
      explanation: `Das Bildrauschen konnte nicht gemessen werden (${why.de}).`,
    },
    pl: { title: "Analiza szumu niemożliwa", explanation: `Nie można było zmierzyć szumu zdjęcia (${why.pl}).` },
  }),
  region: (a: { factor: number; share: number }): FindingText => ({
    en: {
      title: "Area with different image noise",
      explanation: `One area's fine grain differs by a factor of ${a.factor.toFixed(1)} from equally smooth parts of the same picture (${a.share} % of the picture). One camera shot has the same grain everywhere; pasted, blurred or smoothed areas do not. The heatmap shows the area in red; hatched areas could not be judged.`,
    },
    de: {
      title: "Bereich mit anderem Bildrauschen",
      explanation: `Das feine Korn eines Bereichs weicht um den Faktor ${comma(a.factor.toFixed(1))} von gleich glatten Teilen desselben Bildes ab (${comma(String(a.share))} % des Bildes). Eine Aufnahme hat überall das gleiche Korn; eingefügte, weichgezeichnete oder geglättete Bereiche nicht. Die Heatmap zeigt den Bereich rot; schraffierte Flächen konnten nicht beurteilt werden.`,
    },
    pl: {
      title: "Obszar o innym szumie",
      explanation: `Drobne ziarno jednego obszaru różni się ${comma(a.factor.toFixed(1))}-krotnie od równie gładkich części tego samego zdjęcia (${comma(String(a.share))} % zdjęcia). Jedno ujęcie ma wszędzie takie samo ziarno; wklejone, rozmyte lub wygładzone obszary nie. Mapa cieplna pokazuje obszar na czerwono; zakreskowanych miejsc nie dało się ocenić.`,
    },
  }),
  uniform: (judged: number): FindingText => ({
    en: {
      title: "Image noise is consistent",
      explanation: `The grain of all judged parts of the picture (${judged} %) matches for their texture; no area stands out.`,
    },
    de: {
      title: "Bildrauschen ist einheitlich",
      explanation: `Das Korn aller beurteilten Teile des Bildes (${judged} %) passt zu ihrer Struktur; kein Bereich fällt auf.`,
    },
    pl: {
      title: "Szum obrazu jest spójny",
      explanation: `Ziarno wszystkich ocenianych części zdjęcia (${judged} %) pasuje do ich faktury; żaden obszar się nie wyróżnia.`,
    },
  }),
};

export const noiseAnalyzer: Analyzer = blockRegionAnalyzer({
  id: "noise",
  // 1.2: progressive JPEGs are read from their coefficients like baseline ones (1.1: photon, up to 6 MP).
  // 1.1: blocks are compared with blocks of similar texture instead of similar brightness (issue 17, "Levels").
  version: "1.2.0",
  name: blockChecks.noise,
  codes: { notAssessed: "NOISE_NOT_ASSESSED", region: "NOISE_REGION", uniform: "NOISE_UNIFORM" },
  thresholds: NOISE_THRESHOLDS,
  blocks: (maps) => maps.noise.length,
  scores: noiseScores,
  texts: {
    notAssessed: texts.notAssessed,
    region: (factor, share) => texts.region({ factor, share }),
    uniform: texts.uniform,
  },
});

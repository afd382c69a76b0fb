/**
 * Noise-level inconsistency: the sensor noise of one photo is similar everywhere at the same
 * brightness. Each 8×8 block's noise is estimated from a high-pass residual (pixel minus the mean
 * of its four neighbours, block-analysis) and compared with blocks of similar brightness in the
 * same picture. Pasted, blurred or smoothed areas carry less (or more) noise. Blocks that are
 * clipped, strongly textured (edges dominate the residual) or whose noise was removed entirely
 * by compression are not judged (hatched in the heatmap).
 */
import { finding, type FindingText } from "../finding";
import { blockChecks, blockCheckSkipped, imageTooLargeText } from "./budget-texts";
import { relativeToPeers, smoothGrid } from "../images/anomaly";
import { blockMapProducts, blockMaps, type BlockMaps } from "../images/block-analysis";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { heatmapAttachment, judgeRegions, type RegionThresholds } from "./region-map";

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
const MIN_BLOCKS = 64;

/** Per-block noise inconsistency: |log2(noise / brightness peers)|, smoothed (NaN = not judged). */
export function noiseScores(maps: BlockMaps): Float32Array {
  const reliable = new Uint8Array(maps.noise.length);
  for (let i = 0; i < reliable.length; i++)
    reliable[i] =
      !maps.clipped[i] && maps.activity[i] <= NOISE_MAX_ACTIVITY && maps.noise[i] >= NOISE_MIN_SIGMA ? 1 : 0;
  const rel = relativeToPeers(maps.noise, maps.mean, reliable, 12, NOISE_MIN_SIGMA);
  const smoothed = smoothGrid(rel, maps.blocksWide, maps.blocksHigh, 2);
  // Missing noise is the signal (blur, smoothing, upscaled pastes); extra noise is mostly texture.
  for (let i = 0; i < smoothed.length; i++) smoothed[i] = -smoothed[i];
  return smoothed;
}

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
      explanation: `One area's fine grain differs by a factor of ${a.factor.toFixed(1)} from equally bright parts of the same picture (${a.share} % of the picture). One camera shot has the same grain everywhere; pasted, blurred or smoothed areas do not. The heatmap shows the area in red; hatched areas could not be judged.`,
    },
    de: {
      title: "Bereich mit anderem Bildrauschen",
      explanation: `Das feine Korn eines Bereichs weicht um den Faktor ${comma(a.factor.toFixed(1))} von gleich hellen Teilen desselben Bildes ab (${comma(String(a.share))} % des Bildes). Eine Aufnahme hat überall das gleiche Korn; eingefügte, weichgezeichnete oder geglättete Bereiche nicht. Die Heatmap zeigt den Bereich rot; schraffierte Flächen konnten nicht beurteilt werden.`,
    },
    pl: {
      title: "Obszar o innym szumie",
      explanation: `Drobne ziarno jednego obszaru różni się ${comma(a.factor.toFixed(1))}-krotnie od równie jasnych części tego samego zdjęcia (${comma(String(a.share))} % zdjęcia). Jedno ujęcie ma wszędzie takie samo ziarno; wklejone, rozmyte lub wygładzone obszary nie. Mapa cieplna pokazuje obszar na czerwono; zakreskowanych miejsc nie dało się ocenić.`,
    },
  }),
  uniform: (judged: number): FindingText => ({
    en: {
      title: "Image noise is consistent",
      explanation: `The grain of all judged parts of the picture (${judged} %) matches for their brightness; no area stands out.`,
    },
    de: {
      title: "Bildrauschen ist einheitlich",
      explanation: `Das Korn aller beurteilten Teile des Bildes (${judged} %) passt zu ihrer Helligkeit; kein Bereich fällt auf.`,
    },
    pl: {
      title: "Szum obrazu jest spójny",
      explanation: `Ziarno wszystkich ocenianych części zdjęcia (${judged} %) pasuje do ich jasności; żaden obszar się nie wyróżnia.`,
    },
  }),
};

export const noiseAnalyzer: Analyzer = {
  id: "noise",
  version: "1.0.0",
  appliesTo: (file: ScanFile) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
  reads: blockMapProducts,
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const result = await blockMaps(file.bytes);
    if (!result.ok) {
      const text = result.tooLarge
        ? imageTooLargeText(blockChecks.noise, result.tooLarge)
        : texts.notAssessed(blockCheckSkipped.undecodable);
      return {
        assessed: false,
        findings: [
          finding(ctx.language, "NOISE_NOT_ASSESSED", "-", text, { reason: result.reason, ...result.tooLarge }),
        ],
      };
    }
    const maps = result.maps;
    if (maps.noise.length < MIN_BLOCKS)
      return {
        assessed: false,
        findings: [
          finding(ctx.language, "NOISE_NOT_ASSESSED", "-", texts.notAssessed(blockCheckSkipped.tooSmall), {
            width: maps.width,
            height: maps.height,
          }),
        ],
      };
    const scores = noiseScores(maps);
    const verdict = judgeRegions(scores, maps, NOISE_THRESHOLDS);
    const attachments = [heatmapAttachment(file.name, "noise", maps, scores, NOISE_THRESHOLDS.redScore * 1.5)];
    const judged = Math.round(verdict.reliableShare * 100);
    const f = verdict.region
      ? finding(
          ctx.language,
          "NOISE_REGION",
          verdict.level,
          texts.region({
            factor: 2 ** verdict.region.meanScore,
            share: Number((verdict.region.share * verdict.reliableShare * 100).toFixed(1)),
          }),
          verdict.evidence,
        )
      : finding(ctx.language, "NOISE_UNIFORM", "Green", texts.uniform(judged), verdict.evidence);
    return {
      assessed: true,
      findings: [f],
      attachments,
      metadata: { judgedShare: verdict.evidence.judgedShare, source: maps.source },
    };
  },
};

/**
 * Aligned double-JPEG-compression localisation (Lin et al. 2009; Bianchi & Piva 2012): when a JPEG is
 * decoded and saved again as JPEG on the same 8×8 grid, every coefficient that went through both saves
 * keeps a periodic pattern of the first quantisation step. Per frequency the first step is fitted to the
 * histogram (double-quantisation.ts: was the picture saved as JPEG before?); each area then says how much
 * better "quantised once" explains its values than the picture's own histogram (dq-evidence.ts). An area pasted in (its own grid is off this one), moved, blurred or
 * re-toned between the two saves has lost the pattern and stands out. A file without double
 * quantisation has nothing to localise (Green note); arithmetic-coded, lossless, damaged or non-JPEG files are `-`.
 */
import { oncePer } from "../../lib/once-per";
import { finding } from "../finding";
import { ZIGZAG } from "../images/jpeg-markers";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { dqEvidenceMap, histogramRatios } from "./dq-evidence";
import { type FrequencyFit, fitFrequency, informativeFits } from "./double-quantisation";
import { type DctBlocks, DQ_FREQUENCIES, DQ_RANGE } from "./jpeg-dct-blocks";
import { judgeLocalised, type LocalisedThresholds, localisedAnalyzer } from "./jpeg-localised";
import { dqTexts, localisedChecks } from "./jpeg-localised-texts";
import { heatmapAttachment } from "./region-map";

/** Fewer fitted frequencies than this: the picture was not (visibly) saved as JPEG before. */
export const DQ_MIN_FREQUENCIES = 3;
/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, section "Double quantisation"). */
export const DQ_THRESHOLDS: LocalisedThresholds = {
  blockScore: 3,
  minShare: 0.003,
  minBlocks: 24,
  minMeanScore: 6,
  redScore: 20,
  maxShare: 0.5,
};

/** The fitted first quantisation step of each modelled frequency. */
export function frequencyFits(histograms: Int32Array, table: Uint16Array): FrequencyFit[] {
  const bins = 2 * DQ_RANGE + 1;
  return Array.from({ length: DQ_FREQUENCIES }, (_, f) =>
    fitFrequency(histograms.subarray(f * bins, (f + 1) * bins), table[ZIGZAG[f + 1]], DQ_RANGE),
  );
}

/** The fits, the informative ones and the block map (null: too few, no earlier JPEG save to localise). */
export interface DqAnalysis {
  fits: FrequencyFit[];
  used: { index: number; fit: FrequencyFit }[];
  scores: Float32Array | null;
}

/** The double-quantisation analysis of a file's coefficient blocks, once per file (this check and the fusion read it). */
export const dqAnalysis = oncePer((b: DctBlocks): DqAnalysis => {
  const fits = frequencyFits(b.histograms, b.table);
  const used = informativeFits(fits);
  const scores =
    used.length < DQ_MIN_FREQUENCIES
      ? null
      : dqEvidenceMap(
          { ...b, frequencies: DQ_FREQUENCIES, range: DQ_RANGE },
          histogramRatios(b.histograms, fits, DQ_RANGE),
        );
  return { fits, used, scores };
});

export const jpegDqAnalyzer: Analyzer = localisedAnalyzer({
  id: "jpeg-dq",
  // 1.2: the map from the picture's own histograms over 9 × 9 blocks (dq-evidence.ts). 1.1: progressive JPEGs are read too (1.0: `-`).
  version: "1.2.0",
  notAssessed: { code: "JPEG_DQ_NOT_ASSESSED", check: localisedChecks.dq, text: dqTexts.notAssessed },
  judge({ blocks: b, base }, file: ScanFile, ctx: ScanContext): AnalyzerResult {
    const { fits, used, scores } = dqAnalysis(b);
    const firstSteps = fits.map((f) => (used.some((u) => u.fit === f) ? f.q1 : null));
    const summary = {
      frequenciesWithDoubleQuantisation: used.length,
      firstQuantisationSteps: firstSteps,
      lastQuantisationSteps: fits.map((f) => f.q2),
    };
    if (!scores)
      return {
        assessed: true,
        findings: [finding(ctx.language, "JPEG_DQ_NONE", "Green", dqTexts.none(used.length, DQ_FREQUENCIES), summary)],
        metadata: summary,
      };
    const verdict = judgeLocalised(scores, base, DQ_THRESHOLDS);
    const attachments = [heatmapAttachment(file.name, "dq", base, scores, DQ_THRESHOLDS.redScore)];
    const judged = Math.round(verdict.reliableShare * 100);
    const evidence = { ...verdict.evidence, ...summary };
    const f = verdict.region
      ? finding(
          ctx.language,
          "JPEG_DQ_REGION",
          verdict.level,
          dqTexts.region({
            score: verdict.region.meanScore,
            share: Number((verdict.region.share * verdict.reliableShare * 100).toFixed(1)),
          }),
          evidence,
        )
      : finding(ctx.language, "JPEG_DQ_UNIFORM", "Green", dqTexts.uniform(judged), evidence);
    return {
      assessed: true,
      findings: [f],
      attachments,
      metadata: { ...summary, judgedShare: verdict.evidence.judgedShare },
    };
  },
});

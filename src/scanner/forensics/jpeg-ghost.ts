/**
 * JPEG ghost maps (Farid 2009): the picture's blocks re-compressed at qualities 50–98 in the DCT domain
 * (jpeg-dct-blocks.ts), normalised per position across qualities (ghost-map.ts). An area whose
 * difference curve has a dip ("ghost") the rest lacks, or lacks the dip the rest has, went through a
 * different chain of JPEG saves: pasted from another JPEG or edited after an earlier save.
 * Arithmetic-coded, lossless, damaged or non-JPEG files are `-`.
 */
import { oncePer } from "../../lib/once-per";
import { finding } from "../finding";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { type GhostVerdict, ghostVerdict } from "./ghost-map";
import { type DctBlocks, GHOST_QUALITIES, GHOST_SCALE } from "./jpeg-dct-blocks";
import { judgeLocalised, type LocalisedThresholds, localisedAnalyzer } from "./jpeg-localised";
import { ghostTexts, localisedChecks } from "./jpeg-localised-texts";
import { heatmapAttachment } from "./region-map";

/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, section "JPEG ghosts"). */
export const GHOST_THRESHOLDS: LocalisedThresholds = {
  blockScore: 3,
  minShare: 0.005,
  minBlocks: 48,
  minMeanScore: 5,
  redScore: 10,
  maxShare: 0.5,
};

/** The most prominent ghost map of a file's coefficient blocks, once per file (this check and the fusion read it). */
export const ghostOf = oncePer(
  (b: DctBlocks): GhostVerdict =>
    ghostVerdict(
      {
        blocksWide: b.blocksWide,
        blocksHigh: b.blocksHigh,
        errors: b.ghost,
        qualities: GHOST_QUALITIES,
        scale: GHOST_SCALE,
      },
      GHOST_THRESHOLDS.blockScore,
      GHOST_THRESHOLDS.maxShare,
    ),
);

export const jpegGhostAnalyzer: Analyzer = localisedAnalyzer({
  id: "jpeg-ghost",
  // 1.1: progressive JPEGs are read too (1.0: `-`).
  version: "1.1.0",
  notAssessed: { code: "JPEG_GHOST_NOT_ASSESSED", check: localisedChecks.ghost, text: ghostTexts.notAssessed },
  judge({ blocks: b, base }, file: ScanFile, ctx: ScanContext): AnalyzerResult {
    const ghost = ghostOf(b);
    const verdict = judgeLocalised(ghost.map, base, GHOST_THRESHOLDS);
    const attachments = [heatmapAttachment(file.name, "ghost", base, ghost.map, GHOST_THRESHOLDS.redScore)];
    const judged = Math.round(verdict.reliableShare * 100);
    const evidence = { ...verdict.evidence, quality: ghost.quality, areaLacksGhost: ghost.direction === 1 };
    const f = verdict.region
      ? finding(
          ctx.language,
          "JPEG_GHOST_REGION",
          verdict.level,
          ghostTexts.region({
            quality: ghost.quality,
            lacks: ghost.direction === 1,
            score: verdict.region.meanScore,
            share: Number((verdict.region.share * verdict.reliableShare * 100).toFixed(1)),
          }),
          evidence,
        )
      : finding(ctx.language, "JPEG_GHOST_UNIFORM", "Green", ghostTexts.uniform(judged), evidence);
    return {
      assessed: true,
      findings: [f],
      attachments,
      metadata: { quality: ghost.quality, judgedShare: verdict.evidence.judgedShare },
    };
  },
});

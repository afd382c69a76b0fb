/**
 * The shared body of the per-block region checks (ELA, noise): the file's block maps, a score per block,
 * regions judged against the check's thresholds, one finding (a region, or uniform) and a heatmap.
 * Each check brings only what differs: its scores, thresholds, codes and sentences.
 */
import { finding, type FindingText } from "../finding";
import type { FindingCode } from "../finding-codes";
import { blockMapProducts, blockMaps, type BlockMaps } from "../images/block-analysis";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { blockCheckSkipped, imageTooLargeText } from "./budget-texts";
import { heatmapAttachment, judgeRegions, MIN_REGION_BLOCKS, type RegionThresholds } from "./region-map";

type Why = { de: string; en: string; pl: string };

export interface BlockRegionCheck {
  id: "ela" | "noise";
  version: string;
  /** The check's name in each language (titles of the too-large finding). */
  name: Why;
  codes: { notAssessed: FindingCode; region: FindingCode; uniform: FindingCode };
  thresholds: RegionThresholds;
  /** How many blocks the maps hold for this check (too few: not assessed). */
  blocks(maps: BlockMaps): number;
  /** Per-block score, log2 of the block's strength against its peers (NaN = not judged). */
  scores(maps: BlockMaps): Float32Array;
  texts: {
    notAssessed(why: Why): FindingText;
    /** `strength`: how many times the region differs from its peers; `share`: % of the picture. */
    region(strength: number, share: number): FindingText;
    uniform(judgedPercent: number): FindingText;
  };
}

export function blockRegionAnalyzer(check: BlockRegionCheck): Analyzer {
  return {
    id: check.id,
    version: check.version,
    appliesTo: (file: ScanFile) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
    reads: blockMapProducts,
    analyze: (file, ctx) => analyzeBlocks(check, file, ctx),
  };
}

async function analyzeBlocks(check: BlockRegionCheck, file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
  const result = await blockMaps(file.bytes);
  if (!result.ok) {
    const text = result.tooLarge
      ? imageTooLargeText(check.name, result.tooLarge)
      : check.texts.notAssessed(blockCheckSkipped.undecodable);
    const evidence = { reason: result.reason, ...result.tooLarge };
    return { assessed: false, findings: [finding(ctx.language, check.codes.notAssessed, "-", text, evidence)] };
  }
  const maps = result.maps;
  if (check.blocks(maps) < MIN_REGION_BLOCKS) {
    const text = check.texts.notAssessed(blockCheckSkipped.tooSmall);
    const evidence = { width: maps.width, height: maps.height };
    return { assessed: false, findings: [finding(ctx.language, check.codes.notAssessed, "-", text, evidence)] };
  }
  const scores = check.scores(maps);
  const verdict = judgeRegions(scores, maps, check.thresholds);
  const heatmap = heatmapAttachment(file.name, check.id, maps, scores, check.thresholds.redScore * 1.5);
  const region = verdict.region;
  const f = region
    ? finding(
        ctx.language,
        check.codes.region,
        verdict.level,
        check.texts.region(2 ** region.meanScore, Number((region.share * verdict.reliableShare * 100).toFixed(1))),
        verdict.evidence,
      )
    : finding(
        ctx.language,
        check.codes.uniform,
        "Green",
        check.texts.uniform(Math.round(verdict.reliableShare * 100)),
        verdict.evidence,
      );
  return {
    assessed: true,
    findings: [f],
    attachments: [heatmap],
    metadata: { judgedShare: verdict.evidence.judgedShare, source: maps.source },
  };
}

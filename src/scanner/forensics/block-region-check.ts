/**
 * The shared body of the per-block region checks (ELA, noise, their fusion with the JPEG maps): the file's
 * block maps, a score per block, regions judged against the check's thresholds, one finding (a region, or
 * uniform) and a heatmap. Each check brings only what differs: its scores, thresholds, codes and sentences.
 */
import { finding, type FindingText } from "../finding";
import type { FindingCode } from "../finding-codes";
import { blockMapProducts, blockMaps, type BlockMaps } from "../images/block-analysis";
import type { AnomalyRegion } from "../images/anomaly";
import type { DecodeProduct } from "../images/file-decode";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { blockCheckSkipped, blockMapsFailure } from "./budget-texts";
import { heatmapAttachment, judgeRegions, MIN_REGION_BLOCKS, type RegionThresholds } from "./region-map";

type Why = { de: string; en: string; pl: string };

export interface BlockRegionCheck {
  id: "ela" | "noise" | "region-fusion";
  version: string;
  /** The check's name in each language (titles of the too-large finding). */
  name: Why;
  codes: { notAssessed: FindingCode; region: FindingCode; uniform: FindingCode };
  thresholds: RegionThresholds;
  /** How many blocks the maps hold for this check (too few: not assessed). */
  blocks(maps: BlockMaps): number;
  /** Decoded products the check reads besides the block maps (the JPEG coefficient statistics for the fusion). */
  reads?: DecodeProduct<unknown>[];
  /** Per-block score, log2 of the block's strength against its peers (NaN = not judged). */
  scores(maps: BlockMaps, file: ScanFile): Float32Array | Promise<Float32Array>;
  /** What the region's evidence adds to the shared fields (the fusion: which detectors agree there). */
  regionEvidence?(
    maps: BlockMaps,
    file: ScanFile,
    scores: Float32Array,
    region: AnomalyRegion,
  ): Promise<Record<string, unknown>>;
  /** Score drawn fully red in the heatmap (default 1.5 × the Red score). */
  heatmapFull?: number;
  texts: {
    notAssessed(why: Why): FindingText;
    /**
     * `strength`: how many times the region differs from its peers (2^mean score); `share`: % of the picture;
     * `evidence`: the region finding's evidence.
     */
    region(strength: number, share: number, evidence: Record<string, unknown>): FindingText;
    uniform(judgedPercent: number): FindingText;
  };
}

export function blockRegionAnalyzer(check: BlockRegionCheck): Analyzer {
  return {
    id: check.id,
    version: check.version,
    appliesTo: (file: ScanFile) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
    reads: [...blockMapProducts, ...(check.reads ?? [])],
    analyze: (file, ctx) => analyzeBlocks(check, file, ctx),
  };
}

async function analyzeBlocks(check: BlockRegionCheck, file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
  const result = await blockMaps(file.bytes);
  if (!result.ok) {
    const { text, evidence } = blockMapsFailure(check.name, check.texts.notAssessed, result);
    return { assessed: false, findings: [finding(ctx.language, check.codes.notAssessed, "-", text, evidence)] };
  }
  const maps = result.maps;
  if (check.blocks(maps) < MIN_REGION_BLOCKS) {
    const text = check.texts.notAssessed(blockCheckSkipped.tooSmall);
    const evidence = { width: maps.width, height: maps.height };
    return { assessed: false, findings: [finding(ctx.language, check.codes.notAssessed, "-", text, evidence)] };
  }
  const scores = await check.scores(maps, file);
  const verdict = judgeRegions(scores, maps, check.thresholds);
  const full = check.heatmapFull ?? check.thresholds.redScore * 1.5;
  const heatmap = heatmapAttachment(file.name, check.id, maps, scores, full);
  const region = verdict.region;
  const evidence =
    region && check.regionEvidence
      ? { ...verdict.evidence, ...(await check.regionEvidence(maps, file, scores, region)) }
      : verdict.evidence;
  const share = region ? Number((region.share * verdict.reliableShare * 100).toFixed(1)) : 0;
  const f = region
    ? finding(
        ctx.language,
        check.codes.region,
        verdict.level,
        check.texts.region(2 ** region.meanScore, share, evidence),
        evidence,
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

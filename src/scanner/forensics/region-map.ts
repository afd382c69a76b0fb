/**
 * Shared part of the map-based detectors (ELA, noise): from a per-block score map to the most
 * prominent region, its evidence in pixels, and the heatmap attachment.
 */
import type { AnomalyRegion } from "../images/anomaly";
import type { BlockMaps } from "../images/block-analysis";
import { HEATMAP_MAX_SIDE, heatmapSize, renderRatioHeatmapPng } from "../images/heatmap";
import { topAnomalyRegionWasm } from "../images/score-region-wasm";
import type { Attachment, SuspicionLevel } from "../types";

/** Heatmap pixels per 8×8 block, at most (twice the preview it is drawn over). */
const BLOCK_HEATMAP_SCALE = 4;

/** Fewer blocks than this (a picture under ≈ 64 × 64 px) say nothing about a region. */
export const MIN_REGION_BLOCKS = 64;

/** Thresholds of one map detector (calibrated in scripts/eval/image.eval.ts, see docs/forensics.md). */
export interface RegionThresholds {
  /** Smoothed log2 ratio above which a block belongs to a region. */
  blockScore: number;
  /** Minimum region size as a share of the judged blocks… */
  minShare: number;
  /** …and in blocks. */
  minBlocks: number;
  /** Mean region score from which the finding is Red instead of Yellow. */
  redScore: number;
  /** Largest share of judged blocks a region may cover (larger = a global effect, not a local edit). */
  maxShare: number;
}

/** The region verdict with its evidence. */
export interface RegionVerdict {
  level: SuspicionLevel;
  region: AnomalyRegion | null;
  reliableShare: number;
  evidence: Record<string, unknown>;
}

export function judgeRegions(scores: Float32Array, maps: BlockMaps, t: RegionThresholds): RegionVerdict {
  const { judged, region: top } = topAnomalyRegionWasm(
    scores,
    maps.blocksWide,
    maps.blocksHigh,
    t.blockScore,
    t.maxShare,
  );
  const reliableShare = judged / scores.length;
  const significant = top && top.share >= t.minShare && top.blocks >= t.minBlocks ? top : null;
  const level: SuspicionLevel = !significant ? "Green" : significant.meanScore >= t.redScore ? "Red" : "Yellow";
  const evidence: Record<string, unknown> = {
    judgedShare: Number(reliableShare.toFixed(3)),
    thresholds: t,
    region: top
      ? {
          x: top.x * 8,
          y: top.y * 8,
          width: top.width * 8,
          height: top.height * 8,
          shareOfImage: Number(top.share.toFixed(4)),
          meanLog2Ratio: Number(top.meanScore.toFixed(2)),
        }
      : null,
  };
  return { level, region: significant, reliableShare, evidence };
}

/** Heatmap PNG attachment `<file>.<detector>.png`. */
export function heatmapAttachment(
  fileName: string,
  detector: string,
  maps: BlockMaps,
  scores: Float32Array,
  full: number,
): Attachment {
  // The block grid covers whole 8×8 blocks; crop the grid's padding by sizing from the blocks. At most
  // 4 px per block: the background (the 1/4-scale preview) then still shows every one of its pixels as a
  // 2 × 2 square and every block as a 4 × 4 one; a larger PNG would only repeat them (and deflating the
  // repeats was most of a small photo's cost: 752 × 568 instead of 376 × 284 for a 0.4 MP picture).
  const size = heatmapSize(
    maps.blocksWide * 8,
    maps.blocksHigh * 8,
    Math.min(HEATMAP_MAX_SIDE, BLOCK_HEATMAP_SCALE * Math.max(maps.blocksWide, maps.blocksHigh)),
  );
  const grid = { width: maps.blocksWide, height: maps.blocksHigh, ratios: scores, full };
  const bytes = renderRatioHeatmapPng(maps.preview, grid, size);
  return { category: "heatmaps", name: `${fileName}.${detector}.png`, contentType: "image/png", bytes };
}

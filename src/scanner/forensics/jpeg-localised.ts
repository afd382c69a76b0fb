/**
 * Shared part of the localised JPEG detectors (double quantisation, ghosts): the `-` finding when the
 * coefficients cannot be read, the region verdict with a minimum mean score, and the heatmap base.
 */
import { finding, type FindingText } from "../finding";
import type { FindingCode } from "../finding-codes";
import { blockMapProducts, blockMaps, type BlockMaps } from "../images/block-analysis";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanContext, ScanFile } from "../types";
import { imageTooLargeText } from "./budget-texts";
import { dctBlocks, dctBlockStatistics, type DctBlocks } from "./jpeg-dct-blocks";
import type { CoefficientFailure } from "../images/file-decode";
import type { NotAssessedReason } from "./jpeg-localised-texts";
import { judgeRegions, MIN_REGION_BLOCKS, type RegionThresholds, type RegionVerdict } from "./region-map";

/** Region thresholds plus the mean score a region needs to be reported at all. */
export interface LocalisedThresholds extends RegionThresholds {
  minMeanScore: number;
}

function notAssessed(
  language: Language,
  code: FindingCode,
  check: { de: string; en: string; pl: string },
  text: (why: NotAssessedReason) => FindingText,
  failure: CoefficientFailure | { kind: "small" | "damaged"; reason: string; tooLarge?: undefined },
): Finding {
  const body = failure.tooLarge
    ? imageTooLargeText(check, failure.tooLarge)
    : text(
        failure.kind === "not-jpeg"
          ? "notJpeg"
          : failure.kind === "other-coding"
            ? "otherCoding"
            : failure.kind === "too-large"
              ? "damaged"
              : failure.kind,
      );
  return finding(language, code, "-", body, { reason: failure.reason, ...failure.tooLarge });
}

/** judgeRegions, with regions below `minMeanScore` not counted (Green). */
export function judgeLocalised(scores: Float32Array, maps: BlockMaps, t: LocalisedThresholds): RegionVerdict {
  const verdict = judgeRegions(scores, maps, t);
  if (verdict.region && verdict.region.meanScore < t.minMeanScore) return { ...verdict, level: "Green", region: null };
  return verdict;
}

/** The shared block maps (for the heatmap's picture), or null when they cannot be built. */
async function heatmapBase(bytes: Uint8Array): Promise<BlockMaps | null> {
  const result = await blockMaps(bytes);
  return result.ok ? result.maps : null;
}

/**
 * What both detectors start from: the file's coefficient blocks and the heatmap base, or the `-` result
 * saying why there are none (not a JPEG, a coding not decoded, damaged, too large, too few blocks).
 */
async function localisedInput(
  bytes: Uint8Array,
  language: Language,
  code: FindingCode,
  check: { de: string; en: string; pl: string },
  text: (why: NotAssessedReason) => FindingText,
): Promise<{ blocks: DctBlocks; base: BlockMaps } | { result: AnalyzerResult }> {
  const decoded = await dctBlocks(bytes);
  if (!decoded.ok)
    return { result: { assessed: false, findings: [notAssessed(language, code, check, text, decoded)] } };
  const blocks = decoded.blocks;
  const base = await heatmapBase(bytes);
  if (blocks.blocksWide * blocks.blocksHigh >= MIN_REGION_BLOCKS && base) return { blocks, base };
  const why = {
    kind: base ? ("small" as const) : ("damaged" as const),
    reason: base ? `${blocks.width} × ${blocks.height}: too few blocks` : "picture not decoded",
  };
  return { result: { assessed: false, findings: [notAssessed(language, code, check, text, why)] } };
}

/** One localised JPEG detector: what it says when it cannot look, and its judgement of the blocks. */
export interface LocalisedCheck {
  id: "jpeg-dq" | "jpeg-ghost";
  version: string;
  notAssessed: {
    code: FindingCode;
    check: { de: string; en: string; pl: string };
    text: (why: NotAssessedReason) => FindingText;
  };
  judge(input: { blocks: DctBlocks; base: BlockMaps }, file: ScanFile, ctx: ScanContext): AnalyzerResult;
}

export function localisedAnalyzer(check: LocalisedCheck): Analyzer {
  return {
    id: check.id,
    version: check.version,
    // JPEG only, like jpeg-structure: other formats have no quantisation history to read.
    appliesTo: (file: ScanFile) => file.kind === "jpeg",
    // The coefficient statistics and the heatmap base (block maps), from the file's shared decodes.
    reads: [dctBlockStatistics, ...blockMapProducts],
    async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
      const { code, check: name, text } = check.notAssessed;
      const input = await localisedInput(file.bytes, ctx.language, code, name, text);
      return "result" in input ? input.result : check.judge(input, file, ctx);
    },
  };
}

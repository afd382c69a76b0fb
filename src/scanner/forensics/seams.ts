/**
 * Cut edges (issue 17): a rectangle framed on all four sides by one-pixel steps, as a pasted area or a
 * brightness change within a straight-edged selection leaves it (seam-search.ts), or a box whose four sides
 * are one-pixel tone steps of one sign, significant along their length (tone-box.ts). It reads the picture
 * copy-move searches (≤ 1 MP at full resolution; larger pictures area-averaged, which softens such edges).
 * It does not see edits with soft (feathered) or free-form edges, nor pastes that blend into flat areas.
 */
import { finding } from "../finding";
import { blockMapProducts, blockMaps } from "../images/block-analysis";
import { drawnPicture } from "../images/drawn-picture";
import type { GrayImage } from "../images/gray";
import { searchHeatmapPng, searchPicture, searchPixels } from "../images/search-picture";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { blockCheckSkipped, blockMapsFailure } from "./budget-texts";
import { drawnBecause, drawnReason } from "./drawn-texts";
import { type SeamRectangle, SEAM_MIN_SIDE, SEAM_STEP, searchSeams } from "./seam-search";
import { seamCheck, seamTexts } from "./seams-texts";
import { interiorStanding, type InteriorStanding } from "./frame-interior";
import { dctBlockStatistics } from "./jpeg-dct-blocks";
import { FAMILY_NAMES, fusionInput } from "./region-fusion";
import { searchToneBox, type ToneBox } from "./tone-box";

/**
 * Calibrated on the seed-20261122 evaluation set only (docs/forensics.md, "Cut edges"): the weakest side of the
 * rectangle must be a one-pixel step along ≥ 70 % of its length (the highest of the 121 untouched, camera-edited
 * and re-saved files: 0.67, a downscaled camera photo); Red from 95 %.
 */
export const SEAM_THRESHOLDS = { yellow: 0.7, red: 0.95 };

/**
 * The tone box (tone-box.ts): its weakest side's t-statistic. Calibrated on seed 20261122 only (docs/forensics.md,
 * "Cut edges"): the highest of the 121 untouched, camera-edited and re-saved files is 6.45 (a re-saved crop of
 * leuvenA), the lowest brightness change it adds 7.87; Red from twice the Yellow score.
 */
export const TONE_BOX_THRESHOLDS = { yellow: 7.5, red: 15 };

/**
 * A frame or tone box too weak to report alone (from these scores up to the thresholds above) is reported, Yellow
 * only, when its inside is the most out-of-line area of its size on an independent map (frame-interior.ts).
 * Calibrated on seed 20261122 only (docs/forensics.md, "Frames confirmed by a map"): no untouched, camera-edited or
 * re-saved file had such a frame at ≥ 0.5 or such a box at t ≥ 4.
 */
export const CONFIRMED_FRAME_THRESHOLDS = { frame: 0.5, toneBox: 4 };

/** What was flagged: a frame of step shares or a tone box (its score scaled to 0–1 for the heatmap), maybe confirmed by a map. */
type Flagged = {
  rect: SeamRectangle;
  red: boolean;
  heat: number;
  tone: ToneBox | null;
  confirmedBy: InteriorStanding | null;
};

type Confirm = (rect: SeamRectangle) => Promise<InteriorStanding | null>;

/**
 * The step-share frame when it passes, else the tone box when it passes, else the weaker frame or tone box
 * whose inside a map confirms, else null.
 */
async function flaggedBox(
  frame: SeamRectangle | null,
  tone: ToneBox | null,
  confirm: Confirm,
): Promise<Flagged | null> {
  const toneHeat = (t: ToneBox) => Math.min(1, t.score / TONE_BOX_THRESHOLDS.red);
  if (frame && frame.score >= SEAM_THRESHOLDS.yellow)
    return { rect: frame, red: frame.score >= SEAM_THRESHOLDS.red, heat: frame.score, tone: null, confirmedBy: null };
  if (tone && tone.score >= TONE_BOX_THRESHOLDS.yellow)
    return { rect: tone, red: tone.score >= TONE_BOX_THRESHOLDS.red, heat: toneHeat(tone), tone, confirmedBy: null };
  const frameConfirmed = frame && frame.score >= CONFIRMED_FRAME_THRESHOLDS.frame ? await confirm(frame) : null;
  if (frame && frameConfirmed)
    return { rect: frame, red: false, heat: frame.score, tone: null, confirmedBy: frameConfirmed };
  const toneConfirmed = tone && tone.score >= CONFIRMED_FRAME_THRESHOLDS.toneBox ? await confirm(tone) : null;
  if (tone && toneConfirmed) return { rect: tone, red: false, heat: toneHeat(tone), tone, confirmedBy: toneConfirmed };
  return null;
}

/** Heatmap cell side (pixels of the searched picture). */
const CELL = 8;

/** The rectangle's frame, one cell wide, at its score (0–1); everything else 0. */
function frameGrid(img: GrayImage, flagged: Flagged | null) {
  const width = Math.ceil(img.width / CELL);
  const height = Math.ceil(img.height / CELL);
  const scores = new Float32Array(width * height);
  const reliable = new Uint8Array(width * height).fill(1);
  if (flagged) {
    const r = flagged.rect;
    const [x0, x1] = [Math.floor(r.x / CELL), Math.floor((r.x + r.width - 1) / CELL)];
    const [y0, y1] = [Math.floor(r.y / CELL), Math.floor((r.y + r.height - 1) / CELL)];
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++)
        if (y === y0 || y === y1 || x === x0 || x === x1) scores[y * width + x] = flagged.heat;
  }
  return { width, height, scores, reliable };
}

function notAssessed(
  ctx: ScanContext,
  text: ReturnType<typeof seamTexts.notAssessed>,
  evidence: Record<string, unknown>,
) {
  return { assessed: false, findings: [finding(ctx.language, "SEAM_NOT_ASSESSED", "-", text, evidence)] };
}

async function analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
  const result = await blockMaps(file.bytes);
  if (!result.ok) {
    const { text, evidence } = blockMapsFailure(seamCheck, seamTexts.notAssessed, result);
    return notAssessed(ctx, text, evidence);
  }
  const maps = result.maps;
  const img = await searchPicture(file.bytes, maps);
  if (img.width < SEAM_MIN_SIDE + 4 || img.height < SEAM_MIN_SIDE + 4)
    return notAssessed(ctx, seamTexts.notAssessed(blockCheckSkipped.tooSmall), {
      width: maps.width,
      height: maps.height,
    });
  const drawn = drawnPicture(img);
  if (drawn)
    return notAssessed(
      ctx,
      seamTexts.notAssessed(drawnReason(drawn.equalNeighbourShare, drawnBecause.sharpEdges)),
      drawn,
    );
  const found = searchSeams(img);
  const tone = searchToneBox(img);
  const scale = maps.width / img.width;
  const box = (r: { x: number; y: number; width: number; height: number }) => ({
    x: Math.round(r.x * scale),
    y: Math.round(r.y * scale),
    width: Math.round(r.width * scale),
    height: Math.round(r.height * scale),
  });
  let standing: ((b: ReturnType<typeof box>) => InteriorStanding | null) | null = null;
  const flagged = await flaggedBox(found, tone, async (rect) => {
    standing ??= interiorStanding(await fusionInput(maps, file), maps);
    return standing(box(rect));
  });
  const png = searchHeatmapPng(maps, img, frameGrid(img, flagged));
  const attachments = [
    { category: "heatmaps" as const, name: `${file.name}.seams.png`, contentType: "image/png", bytes: png },
  ];
  const evidence: Record<string, unknown> = {
    searchedWidth: img.width,
    searchedHeight: img.height,
    thresholds: { ...SEAM_THRESHOLDS, stepLevels: SEAM_STEP, minSide: SEAM_MIN_SIDE, toneBox: TONE_BOX_THRESHOLDS },
    strongest: found ? { ...box(found), score: Number(found.score.toFixed(3)) } : null,
    toneBox: tone ? { ...box(tone), score: Number(tone.score.toFixed(2)), brighter: tone.sign > 0 } : null,
  };
  if (!flagged)
    return {
      assessed: true,
      findings: [finding(ctx.language, "SEAM_NONE", "Green", seamTexts.none(), evidence)],
      attachments,
    };
  const region = box(flagged.rect);
  const share = Number(((100 * region.width * region.height) / (maps.width * maps.height)).toFixed(1));
  const area = { share, width: region.width, height: region.height };
  const edges = flagged.tone ? { brighter: flagged.tone.sign > 0 } : { percent: Math.floor(flagged.rect.score * 100) };
  if (flagged.confirmedBy) {
    const text = seamTexts.confirmed({ ...area, ...edges, family: FAMILY_NAMES[flagged.confirmedBy.family] });
    const confirmedBy = flagged.confirmedBy;
    return {
      assessed: true,
      findings: [finding(ctx.language, "SEAM_FRAME_CONFIRMED", "Yellow", text, { ...evidence, region, confirmedBy })],
      attachments,
    };
  }
  const text = flagged.tone
    ? seamTexts.toneBox({ ...area, brighter: flagged.tone.sign > 0 })
    : seamTexts.region({ ...area, percent: Math.floor(flagged.rect.score * 100) });
  const level = flagged.red ? "Red" : "Yellow";
  return {
    assessed: true,
    findings: [finding(ctx.language, "SEAM_RECTANGLE", level, text, { ...evidence, region })],
    attachments,
  };
}

export const seamsAnalyzer: Analyzer = {
  id: "seams",
  // 1.2: a weaker frame or tone box confirmed by a map (SEAM_FRAME_CONFIRMED).
  version: "1.2.0",
  appliesTo: (file: ScanFile) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
  reads: [...blockMapProducts, searchPixels, dctBlockStatistics],
  analyze,
};

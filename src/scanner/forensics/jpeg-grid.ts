/**
 * Non-aligned double JPEG compression, localised: an area whose content carries the 8×8 grid of an earlier
 * JPEG save at another offset than the rest of the picture (jpeg-grid-map.ts measures it window by window).
 * Content pasted from another JPEG photo lands on the picture's grid at a random offset (63 of 64 times
 * off it), so its earlier grid stays shifted after the last save; the rest of the picture has no earlier
 * grid, or one on the picture's own grid. A window counts only when a neighbouring window found the same
 * offset (an earlier grid covers an area, noise does not repeat), and not when the rest of the picture
 * carries that offset too (a picture cropped off its earlier grid has it everywhere: nothing local).
 * It sees only earlier saves coarse enough to survive the last one (a DC step of about 4 or more,
 * quality ≲ 90); arithmetic-coded, lossless, damaged or non-JPEG files are `-`.
 */
import { finding } from "../finding";
import type { AnomalyRegion } from "../images/anomaly";
import { blockMapProducts, blockMaps } from "../images/block-analysis";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";
import { imageTooLargeText } from "./budget-texts";
import { GRID_SHIFTS, GRID_STEPS, GRID_TILE, type GridTiles, gridTiles, gridTilesProduct } from "./jpeg-grid-map";
import { gridCheck, gridTexts } from "./jpeg-grid-texts";
import { judgeLocalised, type LocalisedThresholds } from "./jpeg-localised";
import type { NotAssessedReason } from "./jpeg-localised-texts";
import { heatmapAttachment, MIN_REGION_BLOCKS } from "./region-map";

/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, "Earlier JPEG grids"). */
export const GRID_THRESHOLDS: LocalisedThresholds = {
  blockScore: 3,
  minShare: 0.003,
  minBlocks: 48,
  minMeanScore: 3.5,
  redScore: 8,
  maxShare: 0.5,
};
/** From this score the picture as a whole carries an earlier grid (evidence only). */
export const GRID_PICTURE_SCORE = 8;
/** From this score the rest of the picture carries the window's earlier grid too: not an area of its own. */
export const GRID_REST_SCORE = 1.5;

/** A tile's offset (dx, dy) in pixels. */
const offsetOf = (shiftIndex: number) => ({ dx: GRID_SHIFTS[shiftIndex] & 7, dy: GRID_SHIFTS[shiftIndex] >> 3 });

/** Tiles whose window no neighbouring window confirms (same offset) count 0. */
function confirmedTiles(t: GridTiles): Float32Array {
  const tileScore = new Float32Array(t.score.length);
  for (let r = 0; r < t.tilesHigh; r++)
    for (let c = 0; c < t.tilesWide; c++) {
      const i = r * t.tilesWide + c;
      let confirmed = false;
      for (let u = Math.max(0, r - 1); u <= Math.min(t.tilesHigh - 1, r + 1) && !confirmed; u++)
        for (let v = Math.max(0, c - 1); v <= Math.min(t.tilesWide - 1, c + 1); v++) {
          const j = u * t.tilesWide + v;
          if (j !== i && !Number.isNaN(t.score[j]) && t.shift[j] === t.shift[i]) confirmed = true;
        }
      tileScore[i] = Number.isNaN(t.score[i]) ? Number.NaN : confirmed ? Math.max(0, t.score[i]) : 0;
    }
  return tileScore;
}

/**
 * Clears every area (connected tiles at the block score with one offset and step) whose earlier grid the rest
 * of the picture carries too: the picture's phase sums without the area's tiles, scored like a window.
 */
function clearShared(t: GridTiles, tileScore: Float32Array): void {
  const seen = new Uint8Array(tileScore.length);
  const P = GRID_SHIFTS.length;
  for (let start = 0; start < tileScore.length; start++) {
    if (seen[start] || !(tileScore[start] >= GRID_THRESHOLDS.blockScore)) continue;
    const area = [start];
    seen[start] = 1;
    let re = t.pictureSum[2 * (t.step[start] * P + t.shift[start])];
    let im = t.pictureSum[2 * (t.step[start] * P + t.shift[start]) + 1];
    let cells = t.pictureCells;
    for (let k = 0; k < area.length; k++) {
      const i = area[k];
      re -= t.tileSum[2 * i];
      im -= t.tileSum[2 * i + 1];
      cells -= t.tileCells[i];
      const r = Math.floor(i / t.tilesWide);
      const c = i % t.tilesWide;
      for (const [u, v] of [
        [r - 1, c],
        [r + 1, c],
        [r, c - 1],
        [r, c + 1],
      ]) {
        const j = u * t.tilesWide + v;
        if (u < 0 || v < 0 || u >= t.tilesHigh || v >= t.tilesWide || seen[j]) continue;
        if (
          !(tileScore[j] >= GRID_THRESHOLDS.blockScore) ||
          t.shift[j] !== t.shift[start] ||
          t.step[j] !== t.step[start]
        )
          continue;
        seen[j] = 1;
        area.push(j);
      }
    }
    const rest = cells > 0 ? (Math.hypot(re, im) / cells - t.pictureMedian[t.step[start]]) * Math.sqrt(cells) : 0;
    if (rest >= GRID_REST_SCORE) for (const i of area) tileScore[i] = 0;
  }
}

/** Per-block scores from the tiles (confirmed, not shared with the rest of the picture). */
export function gridScores(t: GridTiles): Float32Array {
  const tileScore = confirmedTiles(t);
  clearShared(t, tileScore);
  const { blocksWide, blocksHigh, tilesWide } = t;
  const scores = new Float32Array(blocksWide * blocksHigh);
  // Each tile row's first block row from its tiles, the tile row's other block rows copies of it.
  for (let r = 0; r < blocksHigh; r += GRID_TILE) {
    const row = scores.subarray(r * blocksWide, (r + 1) * blocksWide);
    for (let tile = 0; tile < tilesWide; tile++)
      row.fill(tileScore[(r / GRID_TILE) * tilesWide + tile], tile * GRID_TILE, (tile + 1) * GRID_TILE);
    for (let below = r + 1; below < Math.min(r + GRID_TILE, blocksHigh); below++)
      scores.copyWithin(below * blocksWide, r * blocksWide, (r + 1) * blocksWide);
  }
  return scores;
}

/** The offset and step most tiles of the region found (their window's best), for the evidence and the text. */
function regionGrid(t: GridTiles, region: AnomalyRegion) {
  const votes = new Map<number, number>();
  for (let r = region.y; r < region.y + region.height; r += 1)
    for (let c = region.x; c < region.x + region.width; c += 1) {
      const i = Math.floor(r / GRID_TILE) * t.tilesWide + Math.floor(c / GRID_TILE);
      if (!(t.score[i] > 0)) continue;
      const key = t.shift[i] * 16 + t.step[i];
      votes.set(key, (votes.get(key) ?? 0) + 1);
    }
  const [key] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0] ?? [0];
  return { ...offsetOf(key >> 4), dcStep: GRID_STEPS[key & 15] };
}

function notAssessed(ctx: ScanContext, why: NotAssessedReason, evidence: Record<string, unknown>): AnalyzerResult {
  return {
    assessed: false,
    findings: [finding(ctx.language, "JPEG_GRID_NOT_ASSESSED", "-", gridTexts.notAssessed(why), evidence)],
  };
}

async function analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
  const measured = await gridTiles(file.bytes);
  if (!measured.ok) {
    if (measured.tooLarge) {
      const text = imageTooLargeText(gridCheck, measured.tooLarge);
      const evidence = { reason: measured.reason, ...measured.tooLarge };
      return { assessed: false, findings: [finding(ctx.language, "JPEG_GRID_NOT_ASSESSED", "-", text, evidence)] };
    }
    const why = measured.kind === "not-jpeg" ? "notJpeg" : measured.kind === "other-coding" ? "otherCoding" : "damaged";
    return notAssessed(ctx, why, { reason: measured.reason });
  }
  const t = measured.tiles;
  const base = await blockMaps(file.bytes);
  if (!base.ok) return notAssessed(ctx, "damaged", { reason: "picture not decoded" });
  if (t.blocksWide * t.blocksHigh < MIN_REGION_BLOCKS)
    return notAssessed(ctx, "small", { reason: `${t.width} × ${t.height}: too few blocks` });
  const scores = gridScores(t);
  const verdict = judgeLocalised(scores, base.maps, GRID_THRESHOLDS);
  const attachments = [heatmapAttachment(file.name, "grid", base.maps, scores, GRID_THRESHOLDS.redScore)];
  const picture =
    t.picture.score >= GRID_PICTURE_SCORE
      ? { ...offsetOf(t.picture.shift), dcStep: GRID_STEPS[t.picture.step], score: Number(t.picture.score.toFixed(1)) }
      : null;
  const judged = Math.round(verdict.reliableShare * 100);
  if (!verdict.region) {
    const evidence = { ...verdict.evidence, pictureEarlierGrid: picture };
    return {
      assessed: true,
      findings: [finding(ctx.language, "JPEG_GRID_UNIFORM", "Green", gridTexts.uniform(judged), evidence)],
      attachments,
      metadata: { judgedShare: verdict.evidence.judgedShare },
    };
  }
  const grid = regionGrid(t, verdict.region);
  const evidence = { ...verdict.evidence, earlierGrid: grid, pictureEarlierGrid: picture };
  const share = Number((verdict.region.share * verdict.reliableShare * 100).toFixed(1));
  const text = gridTexts.region({
    dx: grid.dx,
    dy: grid.dy,
    score: verdict.region.meanScore,
    share,
  });
  return {
    assessed: true,
    findings: [finding(ctx.language, "JPEG_GRID_REGION", verdict.level, text, evidence)],
    attachments,
    metadata: { judgedShare: verdict.evidence.judgedShare, earlierGrid: grid },
  };
}

export const jpegGridAnalyzer: Analyzer = {
  id: "jpeg-grid",
  version: "1.0.0",
  // JPEG only: other formats have no grid of their own to compare an earlier one with.
  appliesTo: (file: ScanFile) => file.kind === "jpeg",
  reads: [gridTilesProduct, ...blockMapProducts],
  analyze,
};

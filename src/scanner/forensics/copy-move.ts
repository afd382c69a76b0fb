/**
 * Copy-move detector: searches the picture (at full resolution up to 1 MP, else reduced) for areas that
 * appear twice at one shift (images/block-matching). Both places are marked on the heatmap and joined by
 * cyan lines; blocks without detail, which match anything, are hatched. Pictures drawn by a computer (rendered
 * pages, screenshots) are not judged: their letters, boxes and logos repeat by design.
 */
import { finding, type FindingText } from "../finding";
import { blockChecks, blockCheckSkipped, blockMapsFailure } from "./budget-texts";
import { drawnBecause, drawnReason } from "./drawn-texts";
import { blockMapProducts, blockMaps } from "../images/block-analysis";
import { drawnPicture } from "../images/drawn-picture";
import { BLOCK, type CopiedArea, type CopyMoveSearch, searchCopyMove } from "../images/block-matching";
import { FULL_SEARCH_PIXELS, searchHeatmapPng, searchPicture, searchPixels } from "../images/search-picture";
import type { OverlayLine } from "../images/heatmap";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";

/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, section "Copy-move"): copied block positions. */
export const COPY_MOVE_MIN_BLOCKS = 400;
export const COPY_MOVE_RED_BLOCKS = 1600;
const MAX_LINES = 40;
/** Block positions a copied area must span across and down (with the 16 px block: at least 31 × 31 px). */
const MIN_SPAN = 16;
/** Heatmap cell side (pixels of the searched picture). */
const HEATMAP_CELL = 4;

/**
 * Whether the area's blocks span fewer than MIN_SPAN positions across or down: a strip (a line of text,
 * a border, a ruled row of a form repeated on a rendered document), not an area pasted over something.
 */
export function isStrip(area: CopiedArea): boolean {
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < area.blocks.length; i += 2) {
    x0 = Math.min(x0, area.blocks[i]);
    x1 = Math.max(x1, area.blocks[i]);
    y0 = Math.min(y0, area.blocks[i + 1]);
    y1 = Math.max(y1, area.blocks[i + 1]);
  }
  return x1 - x0 + 1 < MIN_SPAN || y1 - y0 + 1 < MIN_SPAN;
}

/** Bounding box (in file pixels) of the 16×16 blocks at `blocks` (x, y interleaved) moved by (dx, dy). */
function bbox(blocks: Int32Array, dx: number, dy: number, scale: number) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < blocks.length; i += 2) {
    x0 = Math.min(x0, blocks[i] + dx);
    y0 = Math.min(y0, blocks[i + 1] + dy);
    x1 = Math.max(x1, blocks[i] + dx + BLOCK);
    y1 = Math.max(y1, blocks[i + 1] + dy + BLOCK);
  }
  return {
    x: Math.round(x0 * scale),
    y: Math.round(y0 * scale),
    width: Math.round((x1 - x0) * scale),
    height: Math.round((y1 - y0) * scale),
  };
}

/** Heatmap grid of HEATMAP_CELL cells: 1 under the blocks of both places, judged where a block with detail starts. */
function heatmapGrid(search: CopyMoveSearch, area: CopiedArea | null) {
  const width = Math.ceil(search.width / HEATMAP_CELL);
  const height = Math.ceil(search.height / HEATMAP_CELL);
  const scores = new Float32Array(width * height);
  const reliable = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const bx = x * HEATMAP_CELL;
      const by = y * HEATMAP_CELL;
      if (bx < search.gw && by < search.gh) reliable[y * width + x] = search.judged[by * search.gw + bx];
    }
  const cellsPerBlock = BLOCK / HEATMAP_CELL;
  for (let i = 0; area && i < area.blocks.length; i += 2)
    for (const [x, y] of [
      [area.blocks[i], area.blocks[i + 1]],
      [area.blocks[i] + area.dx, area.blocks[i + 1] + area.dy],
    ]) {
      const cx = Math.floor(x / HEATMAP_CELL);
      const cy = Math.floor(y / HEATMAP_CELL);
      for (let j = 0; j < cellsPerBlock; j++)
        for (let k = 0; k < cellsPerBlock; k++)
          if (cx + k < width && cy + j < height) scores[(cy + j) * width + cx + k] = 1;
    }
  return { width, height, scores, reliable };
}

/** A shift in words, by direction (a negative "to the right" reads as a mistake). */
function shiftWords(dx: number, dy: number): { en: string; de: string; pl: string } {
  const parts = (x: string, y: string, join: string) => [x, y].filter(Boolean).join(join);
  const across = Math.abs(dx);
  const down = Math.abs(dy);
  return {
    en: `by ${parts(dx ? `${across} px to the ${dx > 0 ? "right" : "left"}` : "", dy ? `${down} px ${dy > 0 ? "down" : "up"}` : "", " and ")}`,
    de: `um ${parts(dx ? `${across} px nach ${dx > 0 ? "rechts" : "links"}` : "", dy ? `${down} px nach ${dy > 0 ? "unten" : "oben"}` : "", " und ")}`,
    pl: `o ${parts(dx ? `${across} px w ${dx > 0 ? "prawo" : "lewo"}` : "", dy ? `${down} px w ${dy > 0 ? "dół" : "górę"}` : "", " i ")}`,
  };
}

const texts = {
  notAssessed: (why: { de: string; en: string; pl: string }): FindingText => ({
    en: {
      title: "Copy-move search not possible",
      explanation: `The picture could not be searched for duplicated areas (${why.en}).`,
    },
    de: {
      title: "Suche nach kopierten Bereichen nicht möglich",
      explanation: `Das Bild konnte nicht nach doppelten Bereichen durchsucht werden (${why.de}).`,
    },
    pl: {
      title: "Wyszukiwanie skopiowanych obszarów niemożliwe",
      explanation: `Nie można było przeszukać zdjęcia pod kątem powielonych obszarów (${why.pl}).`,
    },
  }),
  found: (a: { width: number; height: number; dx: number; dy: number }): FindingText => {
    const shift = shiftWords(a.dx, a.dy);
    return {
      en: {
        title: "Area copied within the picture",
        explanation: `An area of about ${a.width} × ${a.height} px appears a second time, shifted ${shift.en}, and the repetition is not explained by a regular pattern. This is the trace of an area copied and pasted inside the picture (for example to hide or duplicate damage). The heatmap marks both places and connects them with lines.`,
      },
      de: {
        title: "Bereich innerhalb des Bildes kopiert",
        explanation: `Ein Bereich von etwa ${a.width} × ${a.height} px kommt ein zweites Mal vor, ${shift.de} verschoben, und die Wiederholung erklärt sich nicht durch ein regelmäßiges Muster. Das ist die Spur eines innerhalb des Bildes kopierten und eingefügten Bereichs (etwa um Schäden zu verdecken oder zu verdoppeln). Die Heatmap markiert beide Stellen und verbindet sie mit Linien.`,
      },
      pl: {
        title: "Obszar skopiowany w obrębie zdjęcia",
        explanation: `Obszar o wielkości około ${a.width} × ${a.height} px występuje drugi raz, przesunięty ${shift.pl}, a tego powtórzenia nie tłumaczy regularny wzór. To ślad obszaru skopiowanego i wklejonego w obrębie zdjęcia (np. aby ukryć lub powielić szkodę). Mapa cieplna zaznacza oba miejsca i łączy je liniami.`,
      },
    };
  },
  none: (judged: number): FindingText => ({
    en: {
      title: "No copied areas found",
      explanation: `No area of the picture appears twice (${judged} % of the picture had enough detail to compare).`,
    },
    de: {
      title: "Keine kopierten Bereiche gefunden",
      explanation: `Kein Bereich des Bildes kommt doppelt vor (${judged} % des Bildes hatten genug Details für den Vergleich).`,
    },
    pl: {
      title: "Nie znaleziono skopiowanych obszarów",
      explanation: `Żaden obszar zdjęcia nie występuje dwukrotnie (${judged} % zdjęcia miało dość szczegółów do porównania).`,
    },
  }),
};

export const copyMoveAnalyzer: Analyzer = {
  id: "copy-move",
  // 2.1: pictures drawn by a computer are not judged (COPY_MOVE_NOT_ASSESSED; 2.0 flagged repeated boxes on pages).
  version: "2.1.0",
  appliesTo: (file: ScanFile) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
  reads: [...blockMapProducts, searchPixels],
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const result = await blockMaps(file.bytes);
    if (!result.ok) {
      const { text, evidence } = blockMapsFailure(blockChecks.copyMove, texts.notAssessed, result);
      return { assessed: false, findings: [finding(ctx.language, "COPY_MOVE_NOT_ASSESSED", "-", text, evidence)] };
    }
    const maps = result.maps;
    const img = await searchPicture(file.bytes, maps);
    if (img.width < 32 || img.height < 32)
      return {
        assessed: false,
        findings: [
          finding(ctx.language, "COPY_MOVE_NOT_ASSESSED", "-", texts.notAssessed(blockCheckSkipped.tooSmall), {
            width: maps.width,
            height: maps.height,
          }),
        ],
      };
    const drawn = drawnPicture(img);
    if (drawn) {
      const text = texts.notAssessed(drawnReason(drawn.equalNeighbourShare, drawnBecause.repeats));
      return { assessed: false, findings: [finding(ctx.language, "COPY_MOVE_NOT_ASSESSED", "-", text, drawn)] };
    }
    // A reduced search is that of a large photo: its scratch must not stay in the isolate (its peak memory).
    const search = searchCopyMove(img, { ownScratch: maps.width * maps.height > FULL_SEARCH_PIXELS });
    const scale = maps.width / img.width;
    const top = search.areas[0] ?? null;
    const found = search.areas.find((a) => a.blocks.length / 2 >= COPY_MOVE_MIN_BLOCKS && !isStrip(a)) ?? null;
    const lines: OverlayLine[] = [];
    const step = 2 * Math.max(1, Math.floor((found?.blocks.length ?? 0) / 2 / MAX_LINES));
    for (let i = 0; found && i < found.blocks.length; i += step) {
      const [x, y] = [found.blocks[i] + BLOCK / 2, found.blocks[i + 1] + BLOCK / 2];
      lines.push({
        x1: x / img.width,
        y1: y / img.height,
        x2: (x + found.dx) / img.width,
        y2: (y + found.dy) / img.height,
      });
    }
    const png = searchHeatmapPng(maps, img, heatmapGrid(search, found), lines);
    const attachments = [
      { category: "heatmaps" as const, name: `${file.name}.copy-move.png`, contentType: "image/png", bytes: png },
    ];
    const judgedShare = search.blocksCompared / Math.max(1, search.gw * search.gh);
    const evidence: Record<string, unknown> = {
      searchedWidth: img.width,
      searchedHeight: img.height,
      blocksCompared: search.blocksCompared,
      judgedShare: Number(judgedShare.toFixed(3)),
      minBlocks: COPY_MOVE_MIN_BLOCKS,
      largestAreaBlocks: (top?.blocks.length ?? 0) / 2,
    };
    if (!found)
      return {
        assessed: true,
        findings: [
          finding(ctx.language, "COPY_MOVE_NONE", "Green", texts.none(Math.round(judgedShare * 100)), evidence),
        ],
        attachments,
      };
    const dx = Math.round(found.dx * scale);
    const dy = Math.round(found.dy * scale);
    const region = bbox(found.blocks, found.dx, found.dy, scale);
    Object.assign(evidence, {
      blocks: found.blocks.length / 2,
      shift: { dx, dy },
      source: bbox(found.blocks, 0, 0, scale),
      region,
    });
    const level = found.blocks.length / 2 >= COPY_MOVE_RED_BLOCKS ? "Red" : "Yellow";
    return {
      assessed: true,
      findings: [
        finding(
          ctx.language,
          "COPY_MOVE_FOUND",
          level,
          texts.found({ width: region.width, height: region.height, dx, dy }),
          evidence,
        ),
      ],
      attachments,
    };
  },
};

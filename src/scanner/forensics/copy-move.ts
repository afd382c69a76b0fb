/**
 * Copy-move detector: searches a reduced copy of the picture (the 1/4-scale block-analysis
 * preview, at most 512 px) for areas that appear twice (images/block-matching). Matched pairs are
 * drawn as cyan lines on the heatmap; flat areas, which match anything, are hatched.
 */
import { finding, type FindingText } from "../finding";
import { blockChecks, blockCheckSkipped, imageTooLargeText } from "./budget-texts";
import { blockMapProducts, blockMaps } from "../images/block-analysis";
import { type CopyMoveCluster, searchCopyMove } from "../images/block-matching";
import { type DecodeProduct, decoded } from "../images/file-decode";
import { downscale, type GrayImage } from "../images/gray";
import { isJpeg } from "../images/jpeg-markers";
import { LumaDownscaler } from "../images/luma-downscale";
import { isPng } from "../images/png-chunks";
import { decodeSmallLuma } from "../images/thumbnail-compare";
import { heatmapSize, type OverlayLine, renderHeatmapPng } from "../images/heatmap";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile } from "../types";

/** Calibrated in scripts/eval/image.eval.ts (docs/forensics.md, section "Copy-move"). */
export const COPY_MOVE_MIN_PAIRS = 40;
export const COPY_MOVE_RED_PAIRS = 100;
const SEARCH_SIDE = 640;
/** Up to this size the picture is decoded at full resolution for the search (else the 1/4-scale preview is used). */
const FULL_DECODE_PIXELS = 4_000_000;
const MAX_LINES = 40;

/** The top shift group with its near neighbours (JPEG jitter splits a shift over adjacent groups). */
function strongestShift(clusters: CopyMoveCluster[]): CopyMoveCluster | null {
  const top = clusters[0];
  if (!top) return null;
  const pairs = clusters
    .filter((c) => Math.abs(c.dx - top.dx) <= 3 && Math.abs(c.dy - top.dy) <= 3)
    .flatMap((c) => c.pairs);
  return { dx: top.dx, dy: top.dy, pairs };
}

function bbox(
  points: { x: number; y: number }[],
  scale: number,
): { x: number; y: number; width: number; height: number } {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return {
    x: Math.round(x * scale),
    y: Math.round(y * scale),
    width: Math.round((Math.max(...xs) - x + 8) * scale),
    height: Math.round((Math.max(...ys) - y + 8) * scale),
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
  found: (a: { pairs: number; dx: number; dy: number }): FindingText => ({
    en: {
      title: "Area copied within the picture",
      explanation: `${a.pairs} small patches appear a second time, all shifted by the same ${a.dx} px across and ${a.dy} px down. This is the trace of an area copied and pasted inside the picture (for example to hide or duplicate damage). The heatmap connects the copies with lines.`,
    },
    de: {
      title: "Bereich innerhalb des Bildes kopiert",
      explanation: `${a.pairs} kleine Ausschnitte kommen ein zweites Mal vor, alle um dieselben ${a.dx} px nach rechts und ${a.dy} px nach unten verschoben. Das ist die Spur eines innerhalb des Bildes kopierten und eingefügten Bereichs (etwa um Schäden zu verdecken oder zu verdoppeln). Die Heatmap verbindet die Kopien mit Linien.`,
    },
    pl: {
      title: "Obszar skopiowany w obrębie zdjęcia",
      explanation: `${a.pairs} małych fragmentów występuje drugi raz, wszystkie przesunięte o te same ${a.dx} px w poziomie i ${a.dy} px w pionie. To ślad obszaru skopiowanego i wklejonego w obrębie zdjęcia (np. aby ukryć lub powielić szkodę). Mapa cieplna łączy kopie liniami.`,
    },
  }),
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

/**
 * The search picture from the file's shared decode: luma of every band, area-averaged to SEARCH_SIDE, as
 * `decodeSmallLuma` + `downscale` give it (the same values, streamed). Baseline JPEGs (the same strip decoder) and 8-bit PNGs
 * (lossless: the same samples as photon's); other PNG depths keep photon's conversion (decodeSmallLuma).
 */
const searchPixels: DecodeProduct<GrayImage> = {
  id: "copy-move-luma",
  kind: "pixels",
  sink(width, height, bytes) {
    if (width * height > FULL_DECODE_PIXELS || !(isJpeg(bytes) || (isPng(bytes) && bytes[24] === 8))) return null;
    // Streamed to SEARCH_SIDE (images/luma-downscale.ts): no full-size luma is held (16 MB at 4 MP).
    const scaler = new LumaDownscaler(width, height, SEARCH_SIDE);
    return { add: (band) => scaler.add(band), finish: () => scaler.finish() };
  },
};

export const copyMoveAnalyzer: Analyzer = {
  id: "copy-move",
  version: "1.0.0",
  appliesTo: (file: ScanFile) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
  reads: [...blockMapProducts, searchPixels],
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const result = await blockMaps(file.bytes);
    if (!result.ok) {
      const text = result.tooLarge
        ? imageTooLargeText(blockChecks.copyMove, result.tooLarge)
        : texts.notAssessed(blockCheckSkipped.undecodable);
      return {
        assessed: false,
        findings: [
          finding(ctx.language, "COPY_MOVE_NOT_ASSESSED", "-", text, { reason: result.reason, ...result.tooLarge }),
        ],
      };
    }
    const maps = result.maps;
    // The shared decode's search picture (already at SEARCH_SIDE) when it was built, else decoded here.
    const full =
      maps.width * maps.height <= FULL_DECODE_PIXELS
        ? ((await decoded(file.bytes, searchPixels)) ?? decodeSmallLuma(file.bytes, FULL_DECODE_PIXELS))
        : null;
    const img = downscale(full ?? maps.preview, SEARCH_SIDE);
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
    const stride = img.width * img.height <= 120_000 ? 1 : 2;
    const search = searchCopyMove(img, stride);
    const scale = maps.width / img.width;
    const shift = strongestShift(search.clusters);
    const judgedShare = search.judged.reduce((a, b) => a + b, 0) / Math.max(1, search.judged.length);
    const found = shift && shift.pairs.length >= COPY_MOVE_MIN_PAIRS ? shift : null;
    // Heatmap grid: stride-grid cells; matched blocks score 1, flat blocks are not judged.
    const gw = Math.floor((img.width - 8) / stride) + 1;
    const gh = Math.floor((img.height - 8) / stride) + 1;
    const scores = new Float32Array(gw * gh);
    const lines: OverlayLine[] = [];
    for (const p of found?.pairs ?? []) {
      for (const [x, y] of [
        [p.sx, p.sy],
        [p.tx, p.ty],
      ])
        scores[Math.floor(y / stride) * gw + Math.floor(x / stride)] = 1;
    }
    const step = Math.max(1, Math.floor((found?.pairs.length ?? 0) / MAX_LINES));
    for (let i = 0; found && i < found.pairs.length; i += step) {
      const p = found.pairs[i];
      lines.push({
        x1: (p.sx + 4) / img.width,
        y1: (p.sy + 4) / img.height,
        x2: (p.tx + 4) / img.width,
        y2: (p.ty + 4) / img.height,
      });
    }
    // At the size of the picture searched (≤ SEARCH_SIDE): every pixel and cell it has, nothing upscaled.
    const png = renderHeatmapPng(
      img,
      { width: gw, height: gh, scores, reliable: search.judged },
      heatmapSize(img.width, img.height),
      lines,
    );
    const attachments = [
      { category: "heatmaps" as const, name: `${file.name}.copy-move.png`, contentType: "image/png", bytes: png },
    ];
    const evidence: Record<string, unknown> = {
      blocksCompared: search.blocksCompared,
      judgedShare: Number(judgedShare.toFixed(3)),
      minPairs: COPY_MOVE_MIN_PAIRS,
      strongestShiftPairs: shift?.pairs.length ?? 0,
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
    Object.assign(evidence, {
      pairs: found.pairs.length,
      shift: { dx, dy },
      source: bbox(
        found.pairs.map((p) => ({ x: p.sx, y: p.sy })),
        scale,
      ),
      region: bbox(
        found.pairs.map((p) => ({ x: p.tx, y: p.ty })),
        scale,
      ),
    });
    const level = found.pairs.length >= COPY_MOVE_RED_PAIRS ? "Red" : "Yellow";
    return {
      assessed: true,
      findings: [
        finding(ctx.language, "COPY_MOVE_FOUND", level, texts.found({ pairs: found.pairs.length, dx, dy }), evidence),
      ],
      attachments,
    };
  },
};

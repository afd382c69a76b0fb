import { finding } from "../finding";
import type { FindingCode } from "../finding-codes";
import type { Finding, Language } from "../types";

/** Region findings of the independent pixel detectors (ELA, noise, copy-move, JPEG coefficients, earlier JPEG grids, cut edges) and the region each names. */
const REGION_CODES = new Set<FindingCode>([
  "ELA_REGION",
  "NOISE_REGION",
  "COPY_MOVE_FOUND",
  "JPEG_DQ_REGION",
  "JPEG_GHOST_REGION",
  // An earlier save's grid off the last one's: read from pixel sums at shifted offsets, not from the
  // last save's quantisation that DQ and ghosts measure.
  "JPEG_GRID_REGION",
  // One-pixel steps framing an area: read from the pixels' edges, not from compression or noise.
  "SEAM_RECTANGLE",
]);
/**
 * Codes that read the same evidence: double quantisation and JPEG ghosts both measure the first save's
 * quantisation in the same coefficients, so their agreement is one observation, not two.
 */
const SAME_EVIDENCE: Partial<Record<FindingCode, string>> = {
  JPEG_DQ_REGION: "jpeg-quantisation",
  JPEG_GHOST_REGION: "jpeg-quantisation",
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Two independent detectors flagging the same area count more than either alone (docs/forensics.md,
 * "Levels"): when the regions of two Yellow/Red region findings overlap by at least half of the smaller
 * one, the file gets a Red `REGION_CORROBORATED` finding naming both detectors and the shared area.
 */
export function corroboratedRegions(findings: readonly Finding[], language: Language): Finding[] {
  const flagged = findings.flatMap((f) => {
    const box = f.level === "Yellow" || f.level === "Red" ? regionOf(f) : null;
    return box && REGION_CODES.has(f.code) ? [{ code: f.code, box }] : [];
  });
  for (let i = 0; i < flagged.length; i++)
    for (let j = i + 1; j < flagged.length; j++) {
      const [a, b] = [flagged[i], flagged[j]];
      if (SAME_EVIDENCE[a.code] && SAME_EVIDENCE[a.code] === SAME_EVIDENCE[b.code]) continue;
      const shared = overlap(a.box, b.box);
      if (shared < 0.5 * Math.min(area(a.box), area(b.box))) continue;
      return [
        finding(language, "REGION_CORROBORATED", "Red", texts(a.code, b.code, a.box), {
          detectors: [a.code, b.code],
          regions: [a.box, b.box],
          overlapOfSmaller: Number((shared / Math.min(area(a.box), area(b.box))).toFixed(2)),
        }),
      ];
    }
  return [];
}

function regionOf(f: Finding): Box | null {
  const region = (f.evidence as { region?: Partial<Box> | null }).region;
  if (!region) return null;
  const { x, y, width, height } = region;
  return [x, y, width, height].every((v) => typeof v === "number" && Number.isFinite(v) && v >= 0) &&
    width! > 0 &&
    height! > 0
    ? { x: x!, y: y!, width: width!, height: height! }
    : null;
}

const area = (b: Box) => b.width * b.height;

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

const NAMES: Record<string, Record<Language, string>> = {
  ELA_REGION: { de: "Fehlerstufenanalyse (ELA)", en: "error level analysis (ELA)", pl: "analiza poziomu błędu (ELA)" },
  NOISE_REGION: { de: "Rauschanalyse", en: "noise analysis", pl: "analiza szumu" },
  COPY_MOVE_FOUND: { de: "Kopiererkennung", en: "copy-move detection", pl: "wykrywanie kopiowania fragmentów" },
  JPEG_DQ_REGION: {
    de: "Analyse der doppelten Quantisierung",
    en: "double-quantisation analysis",
    pl: "analiza podwójnej kwantyzacji",
  },
  JPEG_GHOST_REGION: { de: "JPEG-Geister-Analyse", en: "JPEG ghost analysis", pl: "analiza duchów JPEG" },
  JPEG_GRID_REGION: {
    de: "Analyse früherer JPEG-Raster",
    en: "earlier JPEG grid analysis",
    pl: "analiza wcześniejszych siatek JPEG",
  },
  SEAM_RECTANGLE: { de: "Prüfung auf Schnittkanten", en: "cut-edge check", pl: "kontrola krawędzi cięcia" },
};

function texts(first: string, second: string, box: Box) {
  const at = `x ${box.x}, y ${box.y}, ${box.width}×${box.height} px`;
  const both = (l: Language) => [NAMES[first][l], NAMES[second][l]];
  return {
    de: {
      title: "Zwei Prüfungen finden dieselbe auffällige Stelle",
      explanation: `${both("de")[0]} und ${both("de")[1]} markieren unabhängig voneinander denselben Bereich (${at}). Zwei voneinander unabhängige Verfahren mit demselben Ergebnis sind ein starker Hinweis auf eine örtliche Veränderung des Bildes.`,
    },
    en: {
      title: "Two checks flag the same area",
      explanation: `${both("en")[0]} and ${both("en")[1]} independently mark the same area (${at}). Two independent methods agreeing is strong evidence of a local change to the picture.`,
    },
    pl: {
      title: "Dwie kontrole wskazują ten sam obszar",
      explanation: `${both("pl")[0]} i ${both("pl")[1]} niezależnie od siebie wskazują ten sam obszar (${at}). Zgodność dwóch niezależnych metod jest silną przesłanką lokalnej zmiany zdjęcia.`,
    },
  };
}

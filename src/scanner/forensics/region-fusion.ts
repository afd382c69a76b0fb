/**
 * Corroboration at the level of the per-block maps (issue 17: "two independent detectors agreeing on one
 * region count more than either alone"). Each detector's map is put on one scale — its score divided by
 * its own block threshold, so 1 means "this block alone would belong to the detector's region" — and a
 * block's fused score is the second-highest of the independent families: ELA, noise and the JPEG
 * coefficients (double quantisation and ghosts read the same coefficients, so together they are one
 * family, their higher score). A fused score of 0.7 therefore says that at least two independent
 * families each reach 70 % of their own threshold on that block. An area where that holds is a region
 * neither detector may report alone (docs/forensics.md, "Fusion"). ELA counts in both directions here: an
 * area that reacts far *less* to re-compression than equally detailed blocks (blurred, smoothed) is as
 * out of line as one that reacts more.
 */
import type { FindingText } from "../finding";
import type { AnomalyRegion } from "../images/anomaly";
import type { BlockMaps } from "../images/block-analysis";
import type { Analyzer, ScanFile } from "../types";
import { blockRegionAnalyzer } from "./block-region-check";
import { ELA_THRESHOLDS, elaScores } from "./ela";
import { dctBlocks, dctBlockStatistics } from "./jpeg-dct-blocks";
import { dqAnalysis } from "./jpeg-dq";
import { GHOST_THRESHOLDS, ghostOf } from "./jpeg-ghost";
import { NOISE_THRESHOLDS, noiseScores } from "./noise";
import type { RegionThresholds } from "./region-map";

/** The per-block maps of one picture, on the same grid (NaN = not judged; null = the detector has no map). */
export interface FusionInput {
  ela: Float32Array;
  noise: Float32Array;
  dq: Float32Array | null;
  ghost: Float32Array | null;
}

/** Each detector's block threshold: the unit its scores are divided by. */
export interface FusionScales {
  ela: number;
  /** ELA's unit for blocks that react *less* than their peers (log2 ratio below −elaLow). */
  elaLow: number;
  noise: number;
  dq: number;
  ghost: number;
}

/**
 * The detectors' own block thresholds; ELA's other direction at 2^1.5 ≈ 2.8× less than its peers. Double
 * quantisation at 8, not its block score 3: its map is a z-score over 9 × 9 blocks (jpeg-dq 1.2), whose noise
 * reaches 70 % of 3 on flat areas of untouched re-saves (scale 5: two more generated re-saves, 8: none).
 */
export const FUSION_SCALES: FusionScales = {
  ela: ELA_THRESHOLDS.blockScore,
  elaLow: 1.5,
  noise: NOISE_THRESHOLDS.blockScore,
  dq: 8,
  ghost: GHOST_THRESHOLDS.blockScore,
};

/**
 * Calibrated with scripts/eval/fusion-sweep.ts (docs/forensics.md, "Fusion"): two families at ≥ 70 % of
 * their own thresholds on ≥ 24 blocks and ≥ 0.5 % of the judged ones; Red when the region's mean reaches
 * 1, i.e. both at their full thresholds.
 */
export const FUSION_THRESHOLDS: RegionThresholds = {
  blockScore: 0.7,
  minShare: 0.005,
  minBlocks: 24,
  redScore: 1,
  maxShare: 0.5,
};

export type Family = "ela" | "noise" | "jpeg";

/** Block i's scaled score of family 0 (ELA), 1 (noise) or 2 (JPEG coefficients); NaN = not judged. */
export function familyScore(m: FusionInput, s: FusionScales, i: number, family: number): number {
  if (family === 0) return Math.max(m.ela[i] / s.ela, -m.ela[i] / s.elaLow);
  if (family === 1) return m.noise[i] / s.noise;
  const dq = m.dq ? m.dq[i] / s.dq : Number.NaN;
  const ghost = m.ghost ? m.ghost[i] / s.ghost : Number.NaN;
  return Number.isNaN(dq) ? ghost : Number.isNaN(ghost) ? dq : Math.max(dq, ghost);
}

/** Each family's scaled score of block i (NaN = not judged). */
function familyScores(m: FusionInput, s: FusionScales, i: number): [number, number, number] {
  return [familyScore(m, s, i, 0), familyScore(m, s, i, 1), familyScore(m, s, i, 2)];
}

/**
 * The second-highest judged family score per block: what at least two independent families reach (the
 * families taken one by one, without an array per block: ≈ 375 000 blocks at 24 MP). `fusedScoresReference`
 * is the same through familyScore; here each family's expression is written out (≈ 3× faster at 24 MP).
 */
export function fusedScores(m: FusionInput, s: FusionScales): Float32Array {
  const { ela, noise, dq, ghost } = m;
  const out = new Float32Array(ela.length);
  for (let i = 0; i < out.length; i++) {
    const jpegDq = dq ? dq[i] / s.dq : Number.NaN;
    const jpegGhost = ghost ? ghost[i] / s.ghost : Number.NaN;
    out[i] = secondHighest(
      Math.max(ela[i] / s.ela, -ela[i] / s.elaLow),
      noise[i] / s.noise,
      Number.isNaN(jpegDq) ? jpegGhost : Number.isNaN(jpegGhost) ? jpegDq : Math.max(jpegDq, jpegGhost),
    );
  }
  return out;
}

/** fusedScores by familyScore, family after family: the reference the tests compare it with. */
export function fusedScoresReference(m: FusionInput, s: FusionScales): Float32Array {
  const out = new Float32Array(m.ela.length);
  for (let i = 0; i < out.length; i++) out[i] = secondHighest(...familyScores(m, s, i));
  return out;
}

/** The second-highest of the judged (not NaN) values a, b, c, taken in that order; NaN when there is none. */
function secondHighest(a: number, b: number, c: number): number {
  // A NaN (not judged) is greater than nothing: it changes neither.
  let first = Number.NEGATIVE_INFINITY;
  let second = Number.NEGATIVE_INFINITY;
  if (a > first) first = a;
  if (b > first) {
    second = first;
    first = b;
  } else if (b > second) second = b;
  if (c > first) second = first;
  else if (c > second) second = c;
  return second > Number.NEGATIVE_INFINITY ? second : Number.NaN;
}

/** Mean scaled score of each family over the region's blocks above the agreement score. */
export function regionFamilies(
  m: FusionInput,
  s: FusionScales,
  scores: Float32Array,
  w: number,
  r: AnomalyRegion,
  agreeScore: number,
): Record<Family, number | null> {
  const sums = [0, 0, 0];
  const counts = [0, 0, 0];
  for (let y = r.y; y < r.y + r.height; y++)
    for (let x = r.x; x < r.x + r.width; x++) {
      const i = y * w + x;
      if (!(scores[i] > agreeScore)) continue;
      familyScores(m, s, i).forEach((v, k) => {
        if (Number.isNaN(v)) return;
        sums[k] += v;
        counts[k]++;
      });
    }
  const mean = (k: number) => (counts[k] ? Number((sums[k] / counts[k]).toFixed(2)) : null);
  return { ela: mean(0), noise: mean(1), jpeg: mean(2) };
}

const inputs = new WeakMap<BlockMaps, Promise<FusionInput>>();

/** The family maps of a file, once per file: ELA and noise from the block maps, DQ and ghosts for baseline JPEGs. */
export function fusionInput(maps: BlockMaps, file: ScanFile): Promise<FusionInput> {
  let input = inputs.get(maps);
  if (!input) {
    input = (async () => {
      const decoded = file.kind === "jpeg" ? await dctBlocks(file.bytes) : null;
      const blocks =
        decoded?.ok && decoded.blocks.blocksWide * decoded.blocks.blocksHigh === maps.ela.length
          ? decoded.blocks
          : null;
      return {
        ela: elaScores(maps),
        noise: noiseScores(maps),
        dq: blocks ? dqAnalysis(blocks).scores : null,
        ghost: blocks ? ghostOf(blocks).map : null,
      };
    })();
    inputs.set(maps, input);
  }
  return input;
}

/** Each family's name in the findings' languages. */
export const FAMILY_NAMES: Record<Family, { de: string; en: string; pl: string }> = {
  ela: { de: "Fehlerniveau-Analyse (ELA)", en: "error level analysis (ELA)", pl: "analiza poziomu błędu (ELA)" },
  noise: { de: "Rauschanalyse", en: "noise analysis", pl: "analiza szumu" },
  jpeg: {
    de: "JPEG-Koeffizienten (doppelte Quantisierung, JPEG-Geister)",
    en: "JPEG coefficients (double quantisation, JPEG ghosts)",
    pl: "współczynniki JPEG (podwójna kwantyzacja, duchy JPEG)",
  },
};

/** Decimal comma for German and Polish sentences. */
const comma = (n: number) => String(n).replace(".", ",");

const texts = {
  notAssessed: (why: { de: string; en: string; pl: string }): FindingText => ({
    en: { title: "Combined check not possible", explanation: `The detectors' maps could not be combined (${why.en}).` },
    de: {
      title: "Kombinierte Prüfung nicht möglich",
      explanation: `Die Karten der Prüfungen konnten nicht zusammengeführt werden (${why.de}).`,
    },
    pl: { title: "Łączna kontrola niemożliwa", explanation: `Nie można było połączyć map kontroli (${why.pl}).` },
  }),
  region: (share: number, evidence: Record<string, unknown>): FindingText => {
    const families = (evidence.families ?? {}) as Record<Family, number | null>;
    const agreeing = (Object.keys(FAMILY_NAMES) as Family[]).filter(
      (f) => (families[f] ?? 0) >= FUSION_THRESHOLDS.blockScore,
    );
    const list = (l: "de" | "en" | "pl", and: string) => {
      const names = agreeing.map((f) => FAMILY_NAMES[f][l]);
      return names.length > 1 ? `${names.slice(0, -1).join(", ")} ${and} ${names[names.length - 1]}` : names.join("");
    };
    const mean = (evidence.region as { meanLog2Ratio?: number } | null)?.meanLog2Ratio ?? 0;
    const strong = mean >= FUSION_THRESHOLDS.redScore;
    const percent = Math.round(FUSION_THRESHOLDS.blockScore * 100);
    return {
      en: {
        title: "Independent checks point at the same area",
        explanation: `${list("en", "and")} each find this area out of line with the rest of the picture (${share} % of the picture). ${
          strong
            ? "On average each reaches the score at which it would report the area by itself: independent methods agreeing on one place are strong evidence of a local change."
            : `Each reaches at least ${percent} % of the score at which it would report the area by itself; neither is conclusive alone, but independent methods agreeing on one place are a reason to look at it.`
        } The heatmap shows the area in red.`,
      },
      de: {
        title: "Unabhängige Prüfungen zeigen auf denselben Bereich",
        explanation: `${list("de", "und")} finden diesen Bereich jeweils auffällig gegenüber dem Rest des Bildes (${comma(share)} % des Bildes). ${
          strong
            ? "Im Mittel erreicht jede den Wert, ab dem sie ihn allein melden würde: stimmen unabhängige Verfahren an einer Stelle überein, ist das ein starker Hinweis auf eine örtliche Veränderung."
            : `Jede erreicht mindestens ${percent} % des Werts, ab dem sie ihn allein melden würde; keine ist allein eindeutig, doch stimmen unabhängige Verfahren an einer Stelle überein, lohnt sich ein Blick darauf.`
        } Die Heatmap zeigt den Bereich rot.`,
      },
      pl: {
        title: "Niezależne kontrole wskazują ten sam obszar",
        explanation: `${list("pl", "i")}: każda z nich uznaje ten obszar za odbiegający od reszty zdjęcia (${comma(share)} % zdjęcia). ${
          strong
            ? "Średnio każda osiąga wartość, od której zgłosiłaby go samodzielnie: zgodność niezależnych metod w jednym miejscu to silna przesłanka lokalnej zmiany."
            : `Każda osiąga co najmniej ${percent} % wartości, od której zgłosiłaby go samodzielnie; żadna nie jest rozstrzygająca sama, ale zgodność niezależnych metod w jednym miejscu to powód, by mu się przyjrzeć.`
        } Mapa cieplna pokazuje obszar na czerwono.`,
      },
    };
  },
  uniform: (judged: number): FindingText => ({
    en: {
      title: "No area where two checks agree",
      explanation: `In no area of the judged part of the picture (${judged} %) do two independent checks both come close to their thresholds.`,
    },
    de: {
      title: "Kein Bereich, in dem zwei Prüfungen übereinstimmen",
      explanation: `In keinem Bereich des beurteilten Teils des Bildes (${judged} %) kommen zwei unabhängige Prüfungen beide in die Nähe ihrer Schwellen.`,
    },
    pl: {
      title: "Brak obszaru, w którym zgadzają się dwie kontrole",
      explanation: `W żadnym obszarze ocenianej części zdjęcia (${judged} %) dwie niezależne kontrole nie zbliżają się jednocześnie do swoich progów.`,
    },
  }),
};

export const regionFusionAnalyzer: Analyzer = blockRegionAnalyzer({
  id: "region-fusion",
  // 1.1: the double-quantisation map of jpeg-dq 1.2, taken at 8 (FUSION_SCALES).
  version: "1.1.0",
  name: { de: "Kombinierte Prüfung", en: "Combined check", pl: "Łączna kontrola" },
  codes: { notAssessed: "FUSION_NOT_ASSESSED", region: "FUSION_REGION", uniform: "FUSION_UNIFORM" },
  thresholds: FUSION_THRESHOLDS,
  reads: [dctBlockStatistics],
  blocks: (maps) => maps.ela.length,
  scores: async (maps, file) => fusedScores(await fusionInput(maps, file), FUSION_SCALES),
  regionEvidence: async (maps, file, scores, region) => ({
    families: regionFamilies(
      await fusionInput(maps, file),
      FUSION_SCALES,
      scores,
      maps.blocksWide,
      region,
      FUSION_THRESHOLDS.blockScore,
    ),
  }),
  heatmapFull: 1.5,
  texts: {
    notAssessed: texts.notAssessed,
    region: (_strength, share, evidence) => texts.region(share, evidence),
    uniform: texts.uniform,
  },
});

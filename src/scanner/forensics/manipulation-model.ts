/**
 * Learned manipulation localiser (model card: models/manipulation.md). Scores every tile of the image
 * for splicing, copy-move, inpainting-like smoothing and resampled regions and attaches a heatmap;
 * flat or clipped areas, where no trace can be seen, are hatched instead of coloured.
 */
import { finding } from "../finding";
import { heatmapSize, renderHeatmapPng } from "../images/heatmap";
import { CELL, detectManipulationIn, type ManipulationResult } from "../ml/manipulation";
import { MIN_SIDE } from "../ml/manipulation-input";
import { manipulationModel, type ModelFile } from "../ml/models";
import { modelAnalyzer } from "../ml/model-analyzer";
import { MANIPULATION_CELL, MANIPULATION_YELLOW } from "../ml/thresholds";
import type { Analyzer, AnalyzerResult, Finding, Language } from "../types";

const CODE = "MANIPULATION";

export function createManipulationAnalyzer(model: ModelFile = manipulationModel): Analyzer {
  return modelAnalyzer({
    id: "manipulation-model",
    version: "1.0.0",
    code: CODE,
    model,
    minSide: MIN_SIDE,
    readsPatches: false,
    detect: detectManipulationIn,
    // The heatmap background is the model's own downscaled input (result.base), not the source.
    report: (name, _source, result, language) => report(name, result, language),
  });
}

export const manipulationAnalyzer = createManipulationAnalyzer();

function report(name: string, result: ManipulationResult, language: Language): AnalyzerResult {
  const reliableCells = result.reliable.reduce((n, r) => n + r, 0);
  let marked = 0;
  for (let i = 0; i < result.heat.length; i++)
    if (result.reliable[i] && result.heat[i] >= MANIPULATION_CELL.marked) marked++;
  const markedShare = reliableCells ? marked / reliableCells : 0;
  const judgedShare = result.heat.length ? reliableCells / result.heat.length : 0;
  const metadata = {
    score: result.score,
    markedShare,
    judgedShare,
    tiles: result.tileScores.length,
    downscale: result.factor,
    model: result.model,
  };
  const { rampFrom, rampTo } = MANIPULATION_CELL;
  const shown = result.heat.map((p) => Math.min(1, Math.max(0, (p - rampFrom) / (rampTo - rampFrom))));
  const grid = { width: result.gridWidth, height: result.gridHeight, scores: shown, reliable: result.reliable };
  const png = renderHeatmapPng(result.base, grid, heatmapSize(result.base.width, result.base.height));
  return {
    assessed: true,
    findings: [verdict(language, result.score, markedShare, judgedShare)],
    metadata,
    attachments: [
      {
        category: "heatmaps",
        name: `${name.replace(/[\\/#]/g, "_")}.manipulation.png`,
        contentType: "image/png",
        bytes: png,
      },
    ],
  };
}

function verdict(language: Language, score: number, markedShare: number, judgedShare: number): Finding {
  const percent = Math.round(score * 100);
  const area = Math.round(markedShare * 1000) / 10;
  const judged = Math.round(judgedShare * 100);
  const evidence = { score, markedShare, judgedShare, threshold: MANIPULATION_YELLOW, cell: CELL };
  if (score < MANIPULATION_YELLOW) {
    return finding(
      language,
      "MANIPULATION_MODEL_CLEAR",
      "Green",
      {
        de: {
          title: "Modell findet keine bearbeitete Region",
          explanation: `Das gelernte Lokalisierungsmodell markiert keinen Bereich deutlich als eingefügt, kopiert, retuschiert oder umskaliert (höchster Wert ${percent} %; beurteilbar waren ${judged} % der Bildfläche). Es wurde an simulierten Bearbeitungen trainiert und übersieht sorgfältige Fälschungen.`,
        },
        en: {
          title: "Model finds no edited region",
          explanation: `The learned localisation model marks no area clearly as pasted, copied, retouched or rescaled (highest score ${percent} %; ${judged} % of the image could be judged). It was trained on simulated edits and misses careful forgeries.`,
        },
        pl: {
          title: "Model nie znajduje edytowanego obszaru",
          explanation: `Wyuczony model lokalizacji nie oznacza wyraźnie żadnego obszaru jako wklejonego, skopiowanego, retuszowanego lub przeskalowanego (najwyższy wynik ${percent} %; ocenić można było ${judged} % powierzchni obrazu). Trenowano go na symulowanych edycjach i przeocza staranne fałszerstwa.`,
        },
      },
      evidence,
    );
  }
  return finding(
    language,
    "MANIPULATION_MODEL_REGION",
    "Yellow",
    {
      de: {
        title: "Modell markiert möglicherweise bearbeitete Region",
        explanation: `Das gelernte Lokalisierungsmodell hält einen Bereich für eingefügt, kopiert, retuschiert oder umskaliert (höchster Wert ${percent} %, markiert ${area} % der beurteilbaren Fläche). Die Heatmap zeigt wo; Bereiche ohne Aussage sind schraffiert. Das ist ein Hinweis zur Prüfung durch einen Menschen, kein Beweis.`,
      },
      en: {
        title: "Model marks a possibly edited region",
        explanation: `The learned localisation model considers an area pasted, copied, retouched or rescaled (highest score ${percent} %, ${area} % of the judgeable area marked). The heatmap shows where; areas it cannot judge are hatched. This points a human reviewer to the area; it is not proof.`,
      },
      pl: {
        title: "Model oznacza prawdopodobnie edytowany obszar",
        explanation: `Wyuczony model lokalizacji uznaje pewien obszar za wklejony, skopiowany, retuszowany lub przeskalowany (najwyższy wynik ${percent} %, oznaczono ${area} % obszaru możliwego do oceny). Mapa cieplna pokazuje gdzie; obszary bez oceny są zakreskowane. To wskazówka do sprawdzenia przez człowieka, a nie dowód.`,
      },
    },
    evidence,
  );
}

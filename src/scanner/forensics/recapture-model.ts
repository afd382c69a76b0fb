/**
 * Learned screen/print recapture detector (model card: models/recapture.md). Looks at up to 36
 * native-resolution patches for the pixel grid, moiré or print raster that photographing a display
 * or printout leaves, and attaches a heatmap of the patches it judged.
 */
import { finding } from "../finding";
import { halfHeatmapSize, renderHeatmapPng } from "../images/heatmap";
import { grayBase, squaresToGrid } from "../ml/heatmap-grid";
import { levelFor } from "../ml/findings";
import { modelAnalyzer } from "../ml/model-analyzer";
import { recaptureModel, type ModelFile } from "../ml/models";
import type { PixelSource } from "../ml/raster";
import { detectRecaptureIn, MIN_RECAPTURE_SIDE, type RecaptureResult } from "../ml/recapture-inference";
import { PATCH } from "../ml/recapture-input";
import { RECAPTURE_THRESHOLDS } from "../ml/thresholds";
import type { Analyzer, AnalyzerResult, Finding, Language } from "../types";

const CODE = "RECAPTURE";

/** The analyzer for a model file (the committed one in the registry; tests pass a broken one). */
export function createRecaptureAnalyzer(model: ModelFile = recaptureModel): Analyzer {
  return modelAnalyzer({
    id: "recapture-model",
    version: "1.0.0",
    code: CODE,
    model,
    minSide: MIN_RECAPTURE_SIDE,
    readsPatches: true,
    detect: detectRecaptureIn,
    report,
  });
}

export const recaptureAnalyzer = createRecaptureAnalyzer();

function report(name: string, source: PixelSource, result: RecaptureResult, language: Language): AnalyzerResult {
  const metadata = {
    probability: result.probability,
    patchesScored: result.patches.length,
    patchesFlat: result.flat.length,
    patchSize: PATCH,
    model: result.model,
  };
  if (result.probability === null) return { assessed: false, findings: [allFlat(language)], metadata };
  const grid = squaresToGrid(
    source.width,
    source.height,
    32,
    result.patches.map((p) => ({ x: p.x, y: p.y, size: PATCH, score: p.probability })),
  );
  const png = renderHeatmapPng(grayBase(source, 1024), grid, halfHeatmapSize(source.width, source.height));
  return {
    assessed: true,
    findings: [verdict(language, result)],
    metadata,
    attachments: [
      {
        category: "heatmaps",
        name: `${name.replace(/[\\/#]/g, "_")}.recapture.png`,
        contentType: "image/png",
        bytes: png,
      },
    ],
  };
}

function verdict(language: Language, result: RecaptureResult): Finding {
  const probability = result.probability ?? 0;
  const level = levelFor(probability, RECAPTURE_THRESHOLDS);
  const percent = Math.round(probability * 100);
  const hits = result.patches.filter((p) => p.probability >= RECAPTURE_THRESHOLDS.yellow).length;
  const of = result.patches.length;
  const evidence = { probability, patchesAbove: hits, patchesScored: of, thresholds: RECAPTURE_THRESHOLDS };
  if (level === "Green") {
    return finding(
      language,
      "RECAPTURE_NOT_FOUND",
      "Green",
      {
        de: {
          title: "Kein Hinweis auf abfotografierten Bildschirm oder Ausdruck",
          explanation: `Das gelernte Modell fand in ${of} geprüften Bildausschnitten kein Pixelraster, Moiré oder Druckraster (Modellwert ${percent} %). Es wurde mit simulierten Aufnahmen trainiert; ein scharfes Foto eines sehr hochauflösenden Bildschirms kann unerkannt bleiben.`,
        },
        en: {
          title: "No sign of a photographed screen or printout",
          explanation: `The learned model found no pixel grid, moiré or print raster in ${of} examined image areas (model score ${percent} %). It was trained on simulated recaptures; a sharp photo of a very high-resolution screen can go unnoticed.`,
        },
        pl: {
          title: "Brak oznak sfotografowanego ekranu lub wydruku",
          explanation: `Wyuczony model nie znalazł siatki pikseli, mory ani rastra druku w ${of} zbadanych fragmentach obrazu (wynik modelu ${percent} %). Trenowano go na symulowanych zdjęciach; ostre zdjęcie ekranu o bardzo wysokiej rozdzielczości może zostać przeoczone.`,
        },
      },
      evidence,
    );
  }
  return finding(
    language,
    "RECAPTURE_SUSPECTED",
    level,
    {
      de: {
        title: "Foto eines Bildschirms oder Ausdrucks vermutet",
        explanation: `In ${hits} von ${of} geprüften Bildausschnitten erkennt das gelernte Modell das regelmäßige Pixelraster, Moiré oder Druckraster, das beim Abfotografieren eines Bildschirms oder Ausdrucks entsteht (Modellwert ${percent} %). Natürliche Szenen zeigen das selten; feine Stoffe oder Gitter können es auch. Die Heatmap zeigt die geprüften Stellen.`,
      },
      en: {
        title: "Photo of a screen or printout suspected",
        explanation: `In ${hits} of ${of} examined image areas the learned model sees the regular pixel grid, moiré or print raster left by photographing a screen or printout (model score ${percent} %). Natural scenes rarely show this; fine fabrics or grilles can. The heatmap shows the examined areas.`,
      },
      pl: {
        title: "Podejrzenie zdjęcia ekranu lub wydruku",
        explanation: `W ${hits} z ${of} zbadanych fragmentów obrazu wyuczony model widzi regularną siatkę pikseli, morę lub raster druku, które powstają przy fotografowaniu ekranu lub wydruku (wynik modelu ${percent} %). Naturalne sceny rzadko to wykazują; mogą to jednak drobne tkaniny lub kratki. Mapa cieplna pokazuje zbadane miejsca.`,
      },
    },
    evidence,
  );
}

function allFlat(language: Language): Finding {
  return finding(
    language,
    "RECAPTURE_NOT_ASSESSED",
    "-",
    {
      de: {
        title: "Keine prüfbaren Bildbereiche",
        explanation:
          "Alle Ausschnitte sind nahezu einfarbig; darin hinterlässt weder ein Bildschirm noch ein Ausdruck erkennbare Spuren.",
      },
      en: {
        title: "No areas the model can judge",
        explanation:
          "Every examined area is almost uniform; neither a screen nor a printout leaves visible traces there.",
      },
      pl: {
        title: "Brak obszarów możliwych do oceny",
        explanation:
          "Wszystkie zbadane fragmenty są niemal jednolite; ani ekran, ani wydruk nie zostawia w nich widocznych śladów.",
      },
    },
    { reason: "all-flat" },
  );
}

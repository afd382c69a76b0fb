/**
 * The analyzer shell the learned detectors share: open the image through the gate in front of the
 * models, refuse pictures smaller than the model's input, run the model, turn any failure into a
 * `-` finding for this detector only, and always release the decoder.
 */
import type { Analyzer, AnalyzerResult, Language } from "../types";
import { detectionFailedFinding, type ModelCodePrefix, notOpenedFinding, tooSmallFinding } from "./findings";
import type { ModelFile } from "./models";
import { isModelInput, openImage } from "./open-image";
import type { PixelSource } from "./raster";
import { modelPixelProducts, sharedModelPixels } from "./shared-pixels";

export interface ModelAnalyzerSpec<R> {
  id: string;
  version: string;
  /** Prefix of the finding codes (`<code>_NOT_ASSESSED`, `<code>_MODEL_FAILED`). */
  code: ModelCodePrefix;
  model: ModelFile;
  /** Smallest width and height the model can look at. */
  minSide: number;
  /** Whether `detect` reads recapture's native-resolution patches (besides the ≤ 1024 px copy). */
  readsPatches: boolean;
  detect(source: PixelSource, model: ModelFile): Promise<R>;
  report(fileName: string, source: PixelSource, result: R, language: Language): AnalyzerResult;
}

export function modelAnalyzer<R>(spec: ModelAnalyzerSpec<R>): Analyzer {
  const { code, model, minSide } = spec;
  return {
    id: spec.id,
    version: spec.version,
    model: model.identity,
    appliesTo: isModelInput,
    reads: modelPixelProducts(spec.readsPatches),
    async analyze(file, ctx) {
      const opened = openImage(file);
      if (!opened.ok) return { assessed: false, findings: [notOpenedFinding(ctx.language, code, opened)] };
      const { source } = opened;
      try {
        if (source.width < minSide || source.height < minSide) {
          return {
            assessed: false,
            findings: [tooSmallFinding(ctx.language, code, source.width, source.height, minSide)],
          };
        }
        let result: R;
        try {
          // The file's one shared decode when the pipeline planned it; else built here in one pass.
          source.shared = await sharedModelPixels(file.bytes, spec.readsPatches);
          result = await spec.detect(source, model);
        } catch (error) {
          return {
            assessed: false,
            findings: [
              detectionFailedFinding(ctx.language, code, model.identity.name, error, {
                width: source.width,
                height: source.height,
              }),
            ],
          };
        }
        return spec.report(file.name, source, result, ctx.language);
      } finally {
        source.close();
      }
    },
  };
}

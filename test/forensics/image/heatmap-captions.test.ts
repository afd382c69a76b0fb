/**
 * The analysis report captions each heatmap with its detector's name in the report's language (reports/i18n.ts
 * HEATMAP_KINDS), never with the PNG's file name: every heatmap the image detectors give a re-saved photo (which
 * has them all, the double-quantisation map included).
 */
import { describe, expect, it } from "vitest";
import { imageAnalyzers } from "../../../src/scanner/forensics/image-analyzers";
import { heatmapCaption } from "../../../src/scanner/reports/analysis-report";
import { t } from "../../../src/scanner/reports/i18n";
import { context, generatedFile, scanFile } from "./fixtures";

describe("report captions of heatmaps", () => {
  it("every heatmap of a re-saved photo is named by its detector in German, English and Polish", async () => {
    const file = scanFile("resave.jpg", await generatedFile("localised/resave.jpg"));
    const names: string[] = [];
    for (const analyzer of imageAnalyzers.filter((a) => a.appliesTo(file))) {
      const result = await analyzer.analyze(file, context());
      for (const a of result.attachments ?? []) if (a.category === "heatmaps") names.push(a.name);
    }
    expect(names).toEqual(
      expect.arrayContaining(["resave.jpg.dq.png", "resave.jpg.grid.png", "resave.jpg.copy-move.png"]),
    );
    for (const language of ["de", "en", "pl"] as const)
      for (const name of names)
        expect(heatmapCaption(`heatmaps/${name}`, t(language).heatmapNames), name).not.toBe(name);
    expect(heatmapCaption("heatmaps/resave.jpg.grid.png", t("de").heatmapNames)).toBe("Frühere JPEG-Raster");
  });
});

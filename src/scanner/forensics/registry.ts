import type { Analyzer } from "../types";
import { fileTypeAnalyzer } from "./file-type";
import { imageAnalyzers } from "./image-analyzers";
import { thumbnailAnalyzer } from "./thumbnail";
import { recaptureAnalyzer } from "./recapture-model";
import { manipulationAnalyzer } from "./manipulation-model";
import { pdfRevisions } from "./pdf-revisions";
import { pdfStructure } from "./pdf-structure";
import { pdfSignatures } from "./pdf-signatures";
import { pdfImages } from "./pdf-images";
import { imagePages } from "./image-pages";
import { pdfDiffs } from "./pdf-diffs";
import { pdfFields } from "./pdf-fields";

/**
 * Every registered detector, run in this order on each file it applies to.
 * Add a detector by importing it and appending it here; nothing else changes.
 */
export const analyzers: Analyzer[] = [
  fileTypeAnalyzer,
  thumbnailAnalyzer,
  recaptureAnalyzer,
  manipulationAnalyzer,
  pdfRevisions,
  pdfStructure,
  pdfSignatures,
  pdfImages,
  imagePages,
  pdfDiffs,
  pdfFields,
  ...imageAnalyzers,
];

/** The default set (src/scanner/analysis/analyzer-sets.ts): every detector but the manipulation model. */
export const defaultAnalyzers = analyzers.filter((analyzer) => analyzer !== manipulationAnalyzer);

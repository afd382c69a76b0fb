import { Parts } from "../../lib/parts";
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

/**
 * The analyzer set a request runs (setting `ANALYZERS`): `all` in production — every detector except
 * the manipulation-localisation model, which is too weak to be worth its CPU (models/manipulation.md,
 * "Decision"); `all+manipulation-model` adds it back for evaluation; `file-type` runs only the cheap
 * gatekeeper (type, structure, hash: the no-op set for tests of request rules, which need real
 * per-file results but no forensics); `none` analyses nothing (every file `-`).
 */
export const analyzerSets = new Parts<Analyzer[]>("ANALYZERS", {
  all: analyzers.filter((analyzer) => analyzer !== manipulationAnalyzer),
  "all+manipulation-model": analyzers,
  "file-type": [fileTypeAnalyzer],
  none: [],
});

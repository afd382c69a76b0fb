/** The image forensic detectors of this folder, in run order (used by the eval and bench scripts). */
import { blurAnalyzer } from "./blur";
import { copyMoveAnalyzer } from "./copy-move";
import { elaAnalyzer } from "./ela";
import { jpegDqAnalyzer } from "./jpeg-dq";
import { jpegGhostAnalyzer } from "./jpeg-ghost";
import { jpegGridAnalyzer } from "./jpeg-grid";
import { jpegStructureAnalyzer } from "./jpeg-structure";
import { metadataAnalyzer } from "./metadata";
import { noiseAnalyzer } from "./noise";
import { provenanceAnalyzer } from "./provenance";
import { regionFusionAnalyzer } from "./region-fusion";
import { seamsAnalyzer } from "./seams";

export const imageAnalyzers = [
  metadataAnalyzer,
  jpegStructureAnalyzer,
  elaAnalyzer,
  noiseAnalyzer,
  jpegDqAnalyzer,
  jpegGhostAnalyzer,
  jpegGridAnalyzer,
  // After ELA, noise, DQ and ghosts: it combines their maps (computed once per file).
  regionFusionAnalyzer,
  copyMoveAnalyzer,
  // Reads copy-move's search picture (one decode for both).
  seamsAnalyzer,
  // Reads the same search picture.
  blurAnalyzer,
  provenanceAnalyzer,
];

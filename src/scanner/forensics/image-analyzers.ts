/** The image forensic detectors of this folder, in run order (used by the registry, eval and bench). */
import { elaAnalyzer } from "./ela";
import { jpegStructureAnalyzer } from "./jpeg-structure";
import { metadataAnalyzer } from "./metadata";
import { noiseAnalyzer } from "./noise";

export const imageAnalyzers = [metadataAnalyzer, jpegStructureAnalyzer, elaAnalyzer, noiseAnalyzer];

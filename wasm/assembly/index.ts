// The pixel kernels of src/scanner/images/ (JavaScript references named in each file), built by
// scripts/build-wasm.mjs into wasm/kernels.wasm (docs/wasm.md).
export { scratch } from "./scratch";
export { idctBlocks } from "./jpeg-idct";
export { emitRgbaRows } from "./color";
export {
  blockHistogramBytes,
  blockOutputBytes,
  measureCoefficientRow,
  measurePixelRow,
  setBlockConstants,
  takeDenseStages,
} from "./block-measure";
export { copyMoveCellMeans, copyMoveGroups, copyMoveHashRows, copyMovePairs, copyMoveQuantise } from "./copy-move";
export { dqMixtureShares } from "./dq-fit";
export { decodeMcuRow } from "./entropy";
export { decodeProgressiveScanRow } from "./progressive";
export { deflateBound, pngFilterUp, zlibDeflate } from "./deflate";
export { pngUnfilterRows } from "./png-unfilter";
export { areaDownscaleBand } from "./area-downscale";
export { lumaDownscaleBand } from "./luma-downscale";
export { dctStatisticsRow, setDctStatisticsConstants } from "./dct-statistics";
export { gridTileRow, setGridConstants } from "./grid-phases";
export { gatherLumaRows, lumaRowSamples } from "./luma-rows";
export { gridScoreTileRow } from "./grid-score";
export { heatmapCells, heatmapRatioCells, heatmapRow, heatmapSourceRow } from "./heatmap";
export { crc32 } from "./crc32";
export { ghostNormalisedRow } from "./ghost-map";
export { ghostTopRegion } from "./ghost-region";
export { scoreTopRegion } from "./score-region";
export { grayDownscaleRows, lumaRows } from "./gray";
export { peerMiddles, peerRuns, smoothGrid } from "./peer-bins";
export { zlibInflate } from "./inflate";
export { stepRunMaxima, blurStepCounts, blurStepWorkBytes } from "./blur";
export { seamStepCounts, toneLineSums, toneRunExtremes } from "./seams";
export { equalNeighbourCount } from "./drawn";

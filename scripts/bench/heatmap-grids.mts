// The heatmap benches' inputs (heatmap-pngs.mts, heatmap-render.mts): a file's block maps and five log-ratio grids
// from its ELA, noise and activity maps (NaN where clipped), drawn at ≤ 4 px per block as region-map.ts
// heatmapAttachment draws them.
import { readFileSync } from "node:fs";
import { type BlockMaps, computeBlockMaps } from "../../src/scanner/images/block-analysis";
import { HEATMAP_MAX_SIDE, heatmapSize } from "../../src/scanner/images/heatmap";

export interface BlockRatioHeatmaps {
  maps: BlockMaps;
  grids: Float32Array[];
  size: { width: number; height: number };
}

export async function blockRatioHeatmaps(path: string): Promise<BlockRatioHeatmaps> {
  const result = await computeBlockMaps(new Uint8Array(readFileSync(path)));
  if (!result.ok) throw new Error("no maps");
  const maps = result.maps;
  const median = (a: Float32Array) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const ratiosOf = (v: Float32Array, shift: number) => {
    const m = median(v) + 0.1;
    return Float32Array.from(v, (x, i) => (maps.clipped[i] ? Number.NaN : Math.log2((x + 0.1) / m) + shift));
  };
  const grids = [
    ratiosOf(maps.ela, 0),
    ratiosOf(maps.noise, 0),
    ratiosOf(maps.ela, -0.5),
    ratiosOf(maps.noise, 0.3),
    ratiosOf(maps.activity, 0),
  ];
  const size = heatmapSize(
    maps.blocksWide * 8,
    maps.blocksHigh * 8,
    Math.min(HEATMAP_MAX_SIDE, 4 * Math.max(maps.blocksWide, maps.blocksHigh)),
  );
  return { maps, grids, size };
}

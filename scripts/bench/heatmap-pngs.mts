// CPU time (process.cpuUsage: less moved by other processes on the machine than wall time) of one file's heatmap
// PNGs drawn as the detectors draw them: five ratio heatmaps over the block maps' preview at ≤ 4 px per block (log
// ratios from the ELA, noise and activity maps, NaN where clipped), as region-map.ts heatmapAttachment draws them,
// and one over a ≤ 1 MP picture with 4 px cells and a line, as copy-move's; median of rounds 3..n, and their bytes.
// node --import tsx scripts/bench/heatmap-pngs.mts <jpeg> [rounds]   (docs/benchmarks.md, "Heatmap PNGs")
import { readFileSync } from "node:fs";
import { type BlockMaps, computeBlockMaps } from "../../src/scanner/images/block-analysis";
import {
  HEATMAP_MAX_SIDE,
  heatmapSize,
  renderHeatmapPng,
  renderRatioHeatmapPng,
} from "../../src/scanner/images/heatmap";

interface BlockRatioHeatmaps {
  maps: BlockMaps;
  grids: Float32Array[];
  size: { width: number; height: number };
}

/** A file's block maps and five log-ratio grids from its ELA, noise and activity maps (NaN where clipped). */
async function blockRatioHeatmaps(path: string): Promise<BlockRatioHeatmaps> {
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

const [path, roundsArg] = process.argv.slice(2);
const { maps, grids, size } = await blockRatioHeatmaps(path);
// copy-move's base, its ≤ 1 MP search picture: the preview upscaled, with 0–4 added as texture the upscale lacks.
const scale = Math.min(1, Math.sqrt(1_000_000 / (maps.width * maps.height)));
const big = heatmapSize(maps.width, maps.height, Math.round(Math.max(maps.width, maps.height) * scale));
const base = { width: big.width, height: big.height, data: new Float32Array(big.width * big.height) };
for (let y = 0; y < big.height; y++)
  for (let x = 0; x < big.width; x++)
    base.data[y * big.width + x] =
      maps.preview.data[
        Math.min(maps.preview.height - 1, Math.floor((y * maps.preview.height) / big.height)) * maps.preview.width +
          Math.min(maps.preview.width - 1, Math.floor((x * maps.preview.width) / big.width))
      ] +
      ((x * 7 + y * 13) % 5);
const gw = Math.ceil(big.width / 4);
const gh = Math.ceil(big.height / 4);
const cm = {
  width: gw,
  height: gh,
  scores: Float32Array.from({ length: gw * gh }, (_, i) => (((i * 2654435761) >>> 0) % 97 < 3 ? 0.9 : 0)),
  reliable: Uint8Array.from({ length: gw * gh }, (_, i) => (((i * 40503) >>> 0) % 11 < 2 ? 0 : 1)),
};
const times: number[] = [];
let bytes = 0;
for (let r = 0; r < Number(roundsArg ?? 10); r++) {
  const t0 = process.cpuUsage();
  bytes = 0;
  for (const ratios of grids)
    bytes += renderRatioHeatmapPng(
      maps.preview,
      { width: maps.blocksWide, height: maps.blocksHigh, ratios, full: 2 },
      size,
    ).length;
  cm.scores[r % cm.scores.length] += 1e-3; // a new grid each round (not the remembered PNG)
  bytes += renderHeatmapPng(base, cm, big, [{ x1: 0.1, y1: 0.2, x2: 0.6, y2: 0.7 }]).length;
  const d = process.cpuUsage(t0);
  times.push((d.user + d.system) / 1000);
}
const sorted = times.slice(2).sort((a, b) => a - b);
console.log(
  `${path.split("/").pop()} ${size.width}x${size.height} ×5 + ${big.width}x${big.height}: median ${sorted[sorted.length >> 1].toFixed(1)} ms (min ${sorted[0].toFixed(1)}), ${bytes} bytes`,
);

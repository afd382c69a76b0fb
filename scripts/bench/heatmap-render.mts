// CPU time of the heatmap kernels' rendering alone (no filter, deflate or CRC): the five ratio heatmaps of
// scripts/bench/heatmap-pngs.mts (the file's block maps at ≤ 4 px per block), their grid rows' cell colours and
// output rows as renderRowsWasm calls them; median of rounds 3..n. Also runs the kernels before 2026-11-29
// (heatmapSpread + heatmapRow over per-pixel planes) to compare builds.
// The source row is copied (and since 2026-11-29 resampled) once per source row, and a row equal to the one above
// copied, as renderRowsWasm does.
// node --import tsx scripts/bench/heatmap-render.mts <jpeg> [rounds]   (docs/benchmarks.md, "Heatmap rendering")
import { downscaleWasm } from "../../src/scanner/images/gray-wasm";
import { align16, kernels, scratch } from "../../src/scanner/images/wasm-kernels";
import { blockRatioHeatmaps } from "./heatmap-grids.mts";

/** The exports of either build (the planes' kernels of the build before 2026-11-29). */
interface RenderKernels {
  heatmapRatioCells(ratios: number, count: number, full: number, cells: number): number;
  heatmapSpread?(cells: number, cellX: number, width: number, planes: number): void;
  heatmapSourceRow?(src: number, srcX: number, width: number, out: number): void;
  heatmapRow(...args: number[]): void;
}

const [path, roundsArg] = process.argv.slice(2);
const {
  maps,
  grids,
  size: { width, height },
} = await blockRatioHeatmaps(path);
const small = downscaleWasm(maps.preview, Math.max(width, height));
const gw = maps.blocksWide;
const gh = maps.blocksHigh;
const k = kernels() as unknown as RenderKernels & ReturnType<typeof kernels>;
const planes = k.heatmapSpread !== undefined;
const s = scratch(
  width * 3 * height +
    16 +
    2 * align16(width * 4) +
    width * 32 +
    gw * 36 +
    48 +
    Math.max(width, small.width) * 4 +
    small.width * 4,
);
const out = s.base;
const srcXAt = align16(out + width * 3 * height + 16);
const cellXAt = srcXAt + align16(width * 4);
const planesAt = cellXAt + align16(width * 4);
const cellsAt = planesAt + width * 32;
const ratiosAt = cellsAt + gw * 32;
const sourceAt = align16(ratiosAt + gw * 4);
const smallRowAt = align16(sourceAt + Math.max(width, small.width) * 4);
const srcX = new Int32Array(s.buffer, srcXAt, width);
const cellX = new Int32Array(s.buffer, cellXAt, width);
for (let x = 0; x < width; x++) {
  srcX[x] = Math.min(small.width - 1, Math.floor((x * small.width) / width));
  cellX[x] = Math.min(gw - 1, Math.floor((x * gw) / width));
}
const resampled = small.width !== width;
const times: number[] = [];
for (let r = 0; r < Number(roundsArg ?? 20); r++) {
  const t0 = process.cpuUsage();
  for (const ratios of grids) {
    let cellRow = -1;
    let hatched = 0;
    let sourceRow = -1;
    for (let y = 0; y < height; y++) {
      const row = Math.min(gh - 1, Math.floor((y * gh) / height)) * gw;
      const sy = Math.min(small.height - 1, Math.floor((y * small.height) / height));
      const at = out + y * width * 3;
      if (!planes && row === cellRow && sy === sourceRow && hatched === 0) {
        s.bytes.copyWithin(at, at - width * 3, at);
        continue;
      }
      if (row !== cellRow) {
        new Float32Array(s.buffer, ratiosAt, gw).set(ratios.subarray(row, row + gw));
        hatched = k.heatmapRatioCells(ratiosAt, gw, 2, cellsAt);
        if (planes) k.heatmapSpread?.(cellsAt, cellXAt, width, planesAt);
        cellRow = row;
      }
      if (sy !== sourceRow) {
        const source = new Float32Array(s.buffer, sourceAt, Math.max(width, small.width));
        const first = sy * small.width;
        if (planes || !resampled) source.set(small.data.subarray(first, first + small.width));
        else {
          new Float32Array(s.buffer, smallRowAt, small.width).set(small.data.subarray(first, first + small.width));
          k.heatmapSourceRow?.(smallRowAt, srcXAt, width, sourceAt);
        }
        sourceRow = sy;
      }
      if (planes) k.heatmapRow(sourceAt, srcXAt, planesAt, y, width, at);
      else k.heatmapRow(sourceAt, cellXAt, cellsAt, y, width, at, hatched);
    }
  }
  const d = process.cpuUsage(t0);
  times.push((d.user + d.system) / 1000);
}
const sorted = times.slice(2).sort((a, b) => a - b);
console.log(
  `${path.split("/").pop()} ${planes ? "planes" : "cells"} 5 × ${width}x${height}: median ${sorted[sorted.length >> 1].toFixed(2)} ms (min ${sorted[0].toFixed(2)})`,
);

// CPU of each sink of the shared coefficient pass alone (docs/benchmarks.md, "The shared pass at 24 MP"): the
// file's luminance block rows Huffman-decoded once, then jpeg-grid's, the DQ/ghost statistics' and the block maps'
// sinks fed them in turn every round; process CPU time (user + system), the median and least of rounds 2..n.
// node --expose-gc node_modules/.bin/tsx scripts/bench/coefficient-sinks.mts <jpeg> [rounds]
import { readFileSync } from "node:fs";
import { statisticsSink } from "../../src/scanner/forensics/jpeg-dct-blocks";
import { gridSink } from "../../src/scanner/forensics/jpeg-grid-map";
import { coefficientBlockMaps } from "../../src/scanner/images/block-analysis";
import type { DecodeSink } from "../../src/scanner/images/file-decode";
import { decodeLumaCoefficients, lumaRowsInScratch } from "../../src/scanner/images/jpeg-coefficients";
import { parseJpegStructure } from "../../src/scanner/images/jpeg-markers";
import { kernels } from "../../src/scanner/images/wasm-kernels";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const [path, roundsArg] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(path));
const structure = parseJpegStructure(bytes);
const frame = structure.frame;
const table = frame && structure.quantTables.get(frame.components[0].tq);
if (!frame || !table) throw new Error("not a JPEG with a luminance table");
const { width, height } = frame;
const rows: Array<[number, number, Int16Array]> = [];
const blocksWide = Math.ceil(width / 8);
let t0 = cpuMs();
await decodeLumaCoefficients(bytes, structure, null, {
  rows: {
    table,
    visit: (r) =>
      rows.push([
        r.first,
        r.count,
        new Int16Array(kernels().memory.buffer, r.coefficients, r.count * blocksWide * 64).slice(),
      ]),
  },
});
const decodeMs = cpuMs() - t0;
const sinks: Record<string, () => DecodeSink<unknown> | null> = {
  grid: () => gridSink(width, height, table),
  statistics: () => statisticsSink(width, height, table),
  "block maps": () => coefficientBlockMaps.sink(width, height, bytes),
};
const times = new Map<string, number[]>();
for (let round = 0; round < Number(roundsArg ?? 10); round++)
  for (const [name, make] of Object.entries(sinks)) {
    (globalThis as { gc?: () => void }).gc?.();
    t0 = cpuMs();
    const sink = make();
    // Each MCU row copied back to where the pass leaves it (as the pass, every sink reads it there).
    for (const [first, count, q] of rows) sink?.rows?.(lumaRowsInScratch(first, count, blocksWide, q, table));
    sink?.finish();
    if (round >= 1) times.set(name, [...(times.get(name) ?? []), cpuMs() - t0]);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `decode once ${decodeMs.toFixed(0)} | ${[...times].map(([k, v]) => `${k} ${median(v).toFixed(0)} (least ${Math.min(...v).toFixed(0)})`).join(", ")}`,
);

// The shared coefficient pass alone (block maps, DQ/ghost statistics and jpeg-grid planned, then `decoded` of each)
// of two source trees loaded in one process, their rounds alternated (a fresh copy of the bytes per round): process CPU
// per round, and per pair the second tree's minus the first's. Under load this pairs rounds seconds apart, where runs
// of one tree after the other moved by hundreds of milliseconds (docs/benchmarks.md, "The coefficient pass, one copy").
// node --expose-gc --import tsx scripts/bench/coefficient-pass-ab.mts <base tree>/src <branch tree>/src <jpeg> [rounds]
// (a base tree: `git archive <commit> src wasm package.json | tar -x -C <dir>` and node_modules linked into it)
import { readFileSync } from "node:fs";

const [baseSrc, branchSrc, path, roundsArg] = process.argv.slice(2);
const load = async (src: string) => ({
  statistics: (await import(`${src}/scanner/forensics/jpeg-dct-blocks.ts`)).dctBlockStatistics,
  grid: (await import(`${src}/scanner/forensics/jpeg-grid-map.ts`)).gridTilesProduct,
  maps: (await import(`${src}/scanner/images/block-analysis.ts`)).coefficientBlockMaps,
  decode: await import(`${src}/scanner/images/file-decode.ts`),
});
const trees = { base: await load(baseSrc), branch: await load(branchSrc) };
const original = readFileSync(path);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const cpu = { base: [] as number[], branch: [] as number[] };
for (let round = 0; round < Number(roundsArg ?? 11); round++)
  for (const name of round % 2 ? (["branch", "base"] as const) : (["base", "branch"] as const)) {
    const tree = trees[name];
    const bytes = new Uint8Array(original);
    (globalThis as { gc?: () => void }).gc?.();
    tree.decode.planDecode(bytes, [tree.maps, tree.statistics, tree.grid]);
    const start = cpuMs();
    await tree.decode.decoded(bytes, tree.maps);
    await tree.decode.decoded(bytes, tree.statistics);
    await tree.decode.decoded(bytes, tree.grid);
    // The first round of each tree warms up (compilation, the kernels' memory).
    if (round >= 1) cpu[name].push(cpuMs() - start);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const name of ["base", "branch"] as const)
  console.log(
    `${name}: CPU median ${median(cpu[name]).toFixed(0)} ms, ${Math.min(...cpu[name]).toFixed(0)}–${Math.max(...cpu[name]).toFixed(0)}`,
  );
const pairs = cpu.base.map((b, i) => cpu.branch[i] - b);
console.log(
  `branch − base per pair: median ${median(pairs).toFixed(0)} ms; ${pairs.map((d) => d.toFixed(0)).join(" ")}`,
);

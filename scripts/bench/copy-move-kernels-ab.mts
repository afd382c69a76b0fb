// The copy-move search's five kernel calls (cell means, quantiser, hashes, groups, pairs) on a photo's search picture,
// another build of the module (e.g. main's: git show main:wasm/kernels.wasm > /tmp/base.wasm) and wasm/kernels.wasm
// in one process, rounds alternated; per round the time of the five calls, and whether both gave the same pairs.
// node --import tsx scripts/bench/copy-move-kernels-ab.mts <base.wasm> [image] [rounds]   (docs/benchmarks.md)
import { readFileSync } from "node:fs";
import { blockMaps } from "../../src/scanner/images/block-analysis";
import { searchPicture } from "../../src/scanner/images/search-picture";
import type { KernelExports } from "../../src/scanner/images/wasm-kernels";
const [basePath, imagePath, roundsArg] = process.argv.slice(2);
const path = imagePath || "../shared/data/photos/opencv-doc/leuvenA.jpg";
const bytes = new Uint8Array(readFileSync(path));
const r = await blockMaps(bytes);
if (!r.ok) throw new Error("maps");
const img = await searchPicture(bytes, r.maps);
const load = (p: string) =>
  new WebAssembly.Instance(new WebAssembly.Module(readFileSync(p)), {}).exports as unknown as KernelExports;
const modules = { base: load(basePath), branch: load("wasm/kernels.wasm") };
const cw = img.width - 3;
const cellCount = cw * (img.height - 3);
const gw = img.width - 15;
const gh = img.height - 15;
const positions = gw * gh;
const a16 = (n: number) => Math.ceil(n / 16) * 16;
const quantisedBytes = Math.ceil(cellCount / 4) * 16 + 16;
const ringBytes = 16 * Math.ceil(gw / 4) * 48;
/** The five calls in k's scratch area (kernelGrid's regions, laid out here), timed; the pairs' count and digest. */
function run(k: KernelExports): { ms: number; pairs: number; digest: number } {
  // cells, hashes, judged, twins, state, picture (then quantised cells and the hashes' ring), the cell means' ring and
  // columns, the groups' ends (at most 2¹⁸ groups), the entries, the pairs' output.
  const sizes = [
    cellCount * 4 + 16,
    positions * 4 + 16,
    positions + 4,
    positions,
    16,
    Math.max(img.data.length * 4, quantisedBytes + ringBytes),
    cw * 32,
    cw * 8,
    2 ** 18 * 4 + 16,
    positions * 8 + 96,
    16384 * 8,
  ];
  const base = k.scratch(sizes.reduce((t, s) => t + a16(s), 0));
  const at: number[] = [];
  sizes.reduce((next, s) => (at.push(next), next + a16(s)), base);
  const [cells, hashes, judged, twins, state, luma, ring, columns, ends, entries, pairsOut] = at;
  const buffer = k.memory.buffer;
  new Float32Array(buffer, luma, img.data.length).set(img.data);
  new Float64Array(buffer, ring, cw * 5).fill(0);
  new Uint8Array(buffer, twins, positions).fill(0);
  const t0 = performance.now();
  k.copyMoveCellMeans(luma, img.width, img.height, ring, columns, cells);
  k.copyMoveQuantise(cells, cellCount, luma);
  // block-matching.ts MIN_RESIDUAL (16 cells · 3²) and RESIDUAL_SLACK; groupShift.
  const n = k.copyMoveHashRows(cells, luma, cw, gw, gh, 144, 2 ** -15, hashes, judged, luma + quantisedBytes);
  const shift = 32 - Math.min(18, Math.max(8, Math.ceil(Math.log2(n / 4 + 1))));
  k.copyMoveGroups(hashes, positions, shift, ends, entries);
  const s = new Int32Array(buffer, state, 1);
  s[0] = 0;
  let pairs = 0;
  while (s[0] < n)
    pairs += k.copyMovePairs(cells, cw, gw, shift, n, ends, entries, twins, state, 16384, pairsOut, pairsOut + 65536);
  const ms = performance.now() - t0;
  let digest = 0;
  for (const v of new Int32Array(buffer, pairsOut, pairs)) digest = (Math.imul(digest, 31) + v) | 0;
  return { ms, pairs, digest };
}
const times = { base: [] as number[], branch: [] as number[] };
const seen = new Set<string>();
for (let round = 0; round < Number(roundsArg ?? 100); round++)
  for (const name of round % 2 ? (["branch", "base"] as const) : (["base", "branch"] as const)) {
    const { ms, pairs, digest } = run(modules[name]);
    if (round >= 5) times[name].push(ms);
    seen.add(`${pairs}:${digest}`);
  }
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const name of ["base", "branch"] as const)
  console.log(`${name}: median ${med(times[name]).toFixed(2)} ms, min ${Math.min(...times[name]).toFixed(2)}`);
console.log(`pairs alike in every run: ${seen.size === 1} (${[...seen][0]})`);

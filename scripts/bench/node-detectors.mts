// Node timing of every registered image detector on one file, as the pipeline runs them: a fresh copy of the
// bytes per round (no block map reused), planDecode first; the median of rounds 3..n per detector and in total.
// node --expose-gc node_modules/.bin/tsx scripts/bench/node-detectors.mts <image> [rounds]   (docs/benchmarks.md)
import { readFileSync } from "node:fs";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";
const [path, roundsArg] = process.argv.slice(2);
const original = readFileSync(path);
const per = new Map<string, number[]>();
const totals: number[] = [];
for (let round = 0; round < Number(roundsArg ?? 10); round++) {
  const bytes = new Uint8Array(original);
  const file = benchFile(bytes);
  (globalThis as { gc?: () => void }).gc?.();
  const applicable = plannedAnalyzers(file);
  let total = 0;
  for (const a of applicable) {
    const t0 = performance.now();
    await a.analyze(file, benchContext);
    const ms = performance.now() - t0;
    total += ms;
    if (round >= 2) per.set(a.id, [...(per.get(a.id) ?? []), ms]);
  }
  if (round >= 2) totals.push(total);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `total ${med(totals).toFixed(0)} (min ${Math.min(...totals).toFixed(0)}) | ${[...per].map(([k, v]) => `${k} ${med(v).toFixed(0)}`).join(", ")}`,
);

// Garbage collection inside every registered image detector's run on one file, as perf_hooks reports its pauses:
// fresh bytes per round, no forced GC (so a round pays the collections its garbage causes; node-detectors.mts forces
// a full GC between rounds, which a CPU profile counts as `(garbage collector)` though it lies outside the timed run).
// node --import tsx scripts/bench/gc-per-file.mts <image> [rounds]   (docs/benchmarks.md, "Garbage per file")
import { readFileSync } from "node:fs";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";

const [path, roundsArg] = process.argv.slice(2);
const original = readFileSync(path);
const pauses: { start: number; duration: number; major: boolean }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e.detail as { kind: number }).kind;
    pauses.push({ start: e.startTime, duration: e.duration, major: kind === 4 });
  }
}).observe({ entryTypes: ["gc"] });
const cpu: number[] = [];
const gc: number[] = [];
let majors = 0;
for (let round = 0; round < Number(roundsArg ?? 40); round++) {
  const file = benchFile(new Uint8Array(original));
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (const a of plannedAnalyzers(file)) await a.analyze(file, benchContext);
  const used = process.cpuUsage(c0);
  const t1 = performance.now();
  // perf_hooks delivers the round's entries after a turn.
  await new Promise((r) => setImmediate(r));
  const inRound = pauses.splice(0).filter((p) => p.start >= t0 && p.start < t1);
  if (round < 2) continue;
  cpu.push((used.user + used.system) / 1000);
  gc.push(inRound.reduce((s, p) => s + p.duration, 0));
  majors += inRound.filter((p) => p.major).length;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `CPU per file median ${median(cpu).toFixed(1)} ms | GC pauses per file mean ${mean(gc).toFixed(2)} ms | ` +
    `mark-compacts per file ${(majors / gc.length).toFixed(2)} (rounds 3..n: ${gc.length})`,
);

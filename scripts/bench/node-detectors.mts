// Node timing of every registered image detector on one file, as the pipeline runs them: a fresh copy of the
// bytes per round (no block map reused), planDecode first; the median of rounds 3..n per detector and in total,
// wall time and, on a second line, process CPU (where the two differ the detector waited: timers, other processes).
// node --expose-gc node_modules/.bin/tsx scripts/bench/node-detectors.mts <image> [rounds]   (docs/benchmarks.md)
import { readFileSync } from "node:fs";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";

const [path, roundsArg] = process.argv.slice(2);
const original = readFileSync(path);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const per = { wall: new Map<string, number[]>(), cpu: new Map<string, number[]>() };
const totals = { wall: [] as number[], cpu: [] as number[] };
const add = (m: Map<string, number[]>, id: string, ms: number) => m.set(id, [...(m.get(id) ?? []), ms]);
for (let round = 0; round < Number(roundsArg ?? 10); round++) {
  const bytes = new Uint8Array(original);
  const file = benchFile(bytes);
  (globalThis as { gc?: () => void }).gc?.();
  const applicable = plannedAnalyzers(file);
  let roundWall = 0;
  let roundCpu = 0;
  for (const a of applicable) {
    const t0 = performance.now();
    const c0 = cpuMs();
    await a.analyze(file, benchContext);
    const [wall, cpu] = [performance.now() - t0, cpuMs() - c0];
    roundWall += wall;
    roundCpu += cpu;
    if (round >= 2) {
      add(per.wall, a.id, wall);
      add(per.cpu, a.id, cpu);
    }
  }
  if (round >= 2) {
    totals.wall.push(roundWall);
    totals.cpu.push(roundCpu);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const kind of ["wall", "cpu"] as const)
  console.log(
    `${kind === "wall" ? "total" : "cpu total"} ${med(totals[kind]).toFixed(0)} (min ${Math.min(...totals[kind]).toFixed(0)}) | ${[...per[kind]].map(([k, v]) => `${k} ${med(v).toFixed(0)}`).join(", ")}`,
  );

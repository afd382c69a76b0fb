// node-detectors.mts with each detector's process CPU beside its wall time (medians of rounds 3..n): where the two
// differ, the detector waited (timers, other processes), which node-detectors.mts alone cannot tell from work.
// node --expose-gc --import tsx scripts/bench/node-detectors-cpu.mts <image> [rounds]   (docs/benchmarks.md)
import { readFileSync } from "node:fs";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";

const [path, roundsArg] = process.argv.slice(2);
const original = readFileSync(path);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const wall = new Map<string, number[]>();
const cpu = new Map<string, number[]>();
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
    const [w, c] = [performance.now() - t0, cpuMs() - c0];
    roundWall += w;
    roundCpu += c;
    if (round >= 2) {
      add(wall, a.id, w);
      add(cpu, a.id, c);
    }
  }
  if (round >= 2) {
    totals.wall.push(roundWall);
    totals.cpu.push(roundCpu);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, m] of [
  ["wall", wall],
  ["cpu ", cpu],
] as const)
  console.log(
    `${name} total ${med(totals[name.trim() as "wall" | "cpu"]).toFixed(1)} | ${[...m].map(([k, v]) => `${k} ${med(v).toFixed(1)}`).join(", ")}`,
  );

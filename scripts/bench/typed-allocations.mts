// Typed arrays and ArrayBuffers made per file by every registered image detector, by call site: their bytes live
// outside the V8 heap, so a sampling heap profile misses them, yet they are what makes V8 start its mark-compacts
// here (docs/benchmarks.md, "Garbage per file"). Wraps the constructors and slice/map/filter, after 3 warm-up rounds.
// node --import tsx scripts/bench/typed-allocations.mts <image> [rounds] [sites]
import { readFileSync } from "node:fs";

const sites = new Map<string, { bytes: number; count: number }>();
let recording = false;
/** Three frames above the wrapper: the call site and two callers. */
function record(bytes: number): void {
  if (!recording || bytes < 256) return;
  const frames = (new Error().stack ?? "").split("\n").slice(3, 6);
  const site = frames.map((l) =>
    l
      .trim()
      .replace(/^at /, "")
      .replace(/.*\((.*)\)$/, "$1")
      .replace(`${process.cwd()}/`, ""),
  );
  const key = site.join(" < ");
  const s = sites.get(key) ?? { bytes: 0, count: 0 };
  s.bytes += bytes;
  s.count++;
  sites.set(key, s);
}
const kinds = [
  "Uint8Array",
  "Uint8ClampedArray",
  "Int8Array",
  "Uint16Array",
  "Int16Array",
  "Uint32Array",
  "Int32Array",
];
kinds.push("Float32Array", "Float64Array");
const global = globalThis as unknown as Record<string, unknown>;
for (const name of kinds) {
  const Original = global[name] as new (...args: unknown[]) => ArrayBufferView;
  global[name] = new Proxy(Original, {
    construct(target, args, newTarget) {
      const made = Reflect.construct(target, args, newTarget) as ArrayBufferView;
      // A view on an existing buffer allocates no bytes.
      if (!(args[0] instanceof ArrayBuffer)) record(made.byteLength);
      return made;
    },
  });
  const proto = Original.prototype as unknown as Record<string, (...args: unknown[]) => ArrayBufferView>;
  for (const method of ["slice", "map", "filter"]) {
    const original = proto[method];
    proto[method] = function (this: ArrayBufferView, ...args: unknown[]) {
      const made = original.apply(this, args);
      record(made.byteLength);
      return made;
    };
  }
}
global.ArrayBuffer = new Proxy(ArrayBuffer, {
  construct(target, args, newTarget) {
    const made = Reflect.construct(target, args, newTarget) as ArrayBuffer;
    record(made.byteLength);
    return made;
  },
});

const { benchContext, benchFile, plannedAnalyzers } = await import("./bench-file");
const [path, roundsArg, sitesArg] = process.argv.slice(2);
const original = readFileSync(path);
const rounds = Number(roundsArg ?? 5);
for (let round = 0; round < 3 + rounds; round++) {
  recording = round >= 3;
  // The file's bytes are counted too (a request's copy of them).
  const file = benchFile(new Uint8Array(original));
  for (const a of plannedAnalyzers(file)) await a.analyze(file, benchContext);
}
recording = false;
const total = [...sites.values()].reduce((s, v) => s + v.bytes, 0);
console.log(`${(total / rounds / 1024).toFixed(0)} KB per file in typed arrays and ArrayBuffers`);
for (const [site, v] of [...sites].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(sitesArg ?? 30)))
  console.log(
    `${(v.bytes / rounds / 1024).toFixed(1).padStart(8)} KB ${String(v.count / rounds).padStart(5)}× ${site}`,
  );

// The heatmap PNGs' bytes of every image detector on a set of files, planned as record-outputs.mts plans them: their
// sum, and per heatmap (file, detector, pixels, bytes) into <out.json>.
// node --import tsx scripts/bench/heatmap-bytes.mts <out.json> <files or directories…>   (docs/benchmarks.md)
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";
const filesUnder = (p: string): string[] =>
  !statSync(p).isDirectory()
    ? [p]
    : readdirSync(p)
        .sort()
        .flatMap((n) => filesUnder(join(p, n)))
        .filter((f) => /\.(jpe?g|png)$/i.test(f));
const [outPath, ...inputs] = process.argv.slice(2);
const rows: Array<[string, string, number, number]> = [];
let total = 0;
for (const path of inputs.flatMap(filesUnder)) {
  const file = benchFile(new Uint8Array(readFileSync(path)));
  for (const a of plannedAnalyzers(file)) {
    const r = await a.analyze(file, benchContext);
    for (const x of r.attachments ?? [])
      if (x.category === "heatmaps") {
        const v = new DataView(x.bytes.buffer, x.bytes.byteOffset);
        rows.push([path, a.id, v.getUint32(16) * v.getUint32(20), x.bytes.length]);
        total += x.bytes.length;
      }
  }
}
writeFileSync(outPath, JSON.stringify(rows));
console.log(`${rows.length} heatmaps, ${total} bytes`);

// Every image detector's outputs on a set of files, as the pipeline runs them (planDecode first): findings with
// their evidence, metadata, and each attachment's sha256 and decoded-pixel sha256 (a PNG's bytes may change with
// its deflate while its pixels may not). For speed work that must not change results: record before, record after,
// compare. node --import tsx scripts/bench/record-outputs.mts [--parallel N] <out.json> <files or directories…>
//        node --import tsx scripts/bench/record-outputs.mts --compare <before.json> <after.json>
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unzlibSync } from "fflate";
import { isPng, pngChunks } from "../../src/scanner/images/png-chunks";
import { benchContext, benchFile, plannedAnalyzers } from "./bench-file";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The sha256 of a PNG's concatenated IDAT data inflated (its filtered rows), or of the bytes for anything else. */
function pixelsSha(bytes: Uint8Array): string {
  if (!isPng(bytes)) return sha(bytes);
  const parts = pngChunks(bytes)
    .filter((c) => c.type === "IDAT")
    .map((c) => c.data);
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) joined.set(p, (offset += p.length) - p.length);
  return sha(unzlibSync(joined));
}

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)))
    .filter((f) => /\.(jpe?g|png)$/i.test(f));
}

async function outputsOf(path: string) {
  const bytes = new Uint8Array(readFileSync(path));
  const file = benchFile(bytes);
  const out: Record<string, unknown> = {};
  for (const a of plannedAnalyzers(file)) {
    const r = await a.analyze(file, benchContext);
    out[a.id] = {
      assessed: r.assessed,
      findings: r.findings,
      metadata: r.metadata ?? null,
      attachments: (r.attachments ?? []).map((x) => ({
        name: x.name,
        pixels: pixelsSha(x.bytes),
        bytes: sha(x.bytes),
      })),
    };
  }
  return out;
}

const args = process.argv.slice(2);
if (args[0] === "--compare") {
  const [before, after] = args.slice(1).map((p) => JSON.parse(readFileSync(p, "utf8")) as Record<string, unknown>);
  let differing = 0;
  let bytesOnly = 0;
  for (const path of Object.keys(before)) {
    const strip = (v: unknown) => JSON.stringify(v, (k, x) => (k === "bytes" ? undefined : x));
    if (strip(before[path]) !== strip(after[path])) {
      differing++;
      console.log("DIFFERS", path);
    } else if (JSON.stringify(before[path]) !== JSON.stringify(after[path])) bytesOnly++;
  }
  console.log(
    `${Object.keys(before).length} files: ${differing} differ, ${bytesOnly} differ only in PNG bytes (same pixels)`,
  );
  process.exitCode = differing ? 1 : 0;
} else {
  // --parallel N: N files in flight at once, their passes interleaving at every turn they give up, as requests
  // sharing an isolate do (the record must equal the one made file after file).
  const parallel = args[0] === "--parallel" ? Number(args.splice(0, 2)[1]) : 1;
  const [outPath, ...inputs] = args;
  const record: Record<string, unknown> = {};
  const queue = inputs.flatMap(filesUnder);
  const paths = [...queue];
  const worker = async () => {
    for (let path = queue.shift(); path; path = queue.shift()) record[path] = await outputsOf(path);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  // In the order of the paths, so that the records of a run in parallel and one file after file compare.
  const ordered = Object.fromEntries(paths.map((p) => [p, record[p]]));
  writeFileSync(outPath, JSON.stringify(ordered));
  console.log(`${paths.length} files recorded in ${outPath}`);
}

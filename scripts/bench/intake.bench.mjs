#!/usr/bin/env node
// `npm run bench intake`: direct and presigned intake of a 9 MB and a 45 MB ZIP of real photos
// through the real Worker (`wrangler dev`, local D1/R2/DO, migrations applied to a fresh
// persistence dir). Per run: wall time of each HTTP step and the workerd process's peak RSS
// (VmRSS polled every 10 ms) minus its idle RSS. Writes the `scanner-intake` section of
// docs/benchmarks.md.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeDocSection } from "../lib/doc-section.mjs";
import { loadAverage, loadNote } from "../lib/machine-load.mjs";
import { workerdRssMb } from "../lib/workerd-memory.mjs";
import {
  createAccount,
  direct,
  expectOk,
  exposeProxyErrors,
  fmt,
  measured,
  photoZip,
  presigned,
  snapshot,
  startService,
  startWrangler,
  treeInfo,
} from "../lib/service-bench.mjs";

const PORT = 8920; // benches that start the service use 8920–8929 (soak: 8921)
const BASE = `http://127.0.0.1:${PORT}`;

/**
 * Earlier whole-request rows, kept for comparison: the last run before this one (2026-11-28, b8d2d2f: without blur
 * and seams' tone box, before the 2026-11-29 kernels), the per-file execution before most of issue 18's kernels and
 * before jpeg-grid/seams (2026-11-25, abd4a71), and the old execution (the analysis in one JOBS queue consumer).
 */
const BEFORE_ROWS = [
  "| previous (AnalysisUnit per file, 2026-11-28, b8d2d2f, without blur) | direct | 9.0 MB | 21 | scanner 13.95 s | 13.95 s | 179 MB |",
  "| previous (AnalysisUnit per file, 2026-11-28, b8d2d2f, without blur) | presigned | 9.0 MB | 21 | URL 0.02 s, PUT 0.20 s, scanner 13.76 s | 13.98 s | 173 MB |",
  "| previous (AnalysisUnit per file, 2026-11-28, b8d2d2f, without blur) | presigned | 45.0 MB | 73 | URL 0.02 s, PUT 1.29 s, scanner 42.15 s | 43.45 s | 200 MB |",
  "| earlier (AnalysisUnit per file, 2026-11-25, abd4a71) | direct | 9.0 MB | 21 | scanner 21.13 s | 21.13 s | 185 MB |",
  "| earlier (AnalysisUnit per file, 2026-11-25, abd4a71) | presigned | 9.0 MB | 21 | URL 0.03 s, PUT 0.29 s, scanner 18.27 s | 18.58 s | 179 MB |",
  "| earlier (AnalysisUnit per file, 2026-11-25, abd4a71) | presigned | 45.0 MB | 73 | URL 0.02 s, PUT 0.77 s, scanner 47.25 s | 48.05 s | 199 MB |",
  "| before (queue consumer, 2026-11-22) | direct | 9.0 MB | 21 | scanner 70.80 s | 70.80 s | 157 MB |",
  "| before (queue consumer, 2026-11-22) | presigned | 9.0 MB | 21 | URL 0.04 s, PUT 0.52 s, scanner 941.73 s (347× 504/202, repeated) | 942.28 s | 157 MB |",
  "| before (queue consumer, 2026-11-22) | presigned | 45.0 MB | 73 | URL 0.06 s, PUT 1.54 s, scanner 104.38 s | 105.98 s | 391 MB |",
];

const stop = (server) => server.stop();

async function main() {
  const tree = { ...treeInfo(), loadBefore: loadAverage() };
  const cwd = snapshot(["scripts/bench/intake-worker.ts", "scripts/bench/intake.wrangler.toml"], "intake-bench-src-");
  exposeProxyErrors(cwd); // a failed forward shows its real error instead of wrangler's "restarted mid-request"
  const small = photoZip(9 * 1024 * 1024);
  const large = photoZip(45 * 1024 * 1024);
  const persist = mkdtempSync(join(tmpdir(), "intake-bench-"));
  try {
    const intakeRows = await benchIntakeOnly(cwd, persist, small, large);
    const serviceRows = await benchService(cwd, persist, small, large);
    report(intakeRows, serviceRows, tree);
  } finally {
    rmSync(persist, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Intake alone (scripts/bench/intake-worker.ts): both passes, no analyzer. */
async function benchIntakeOnly(cwd, persist, small, large) {
  const wrangler = await startWrangler({
    cwd,
    persist,
    port: PORT,
    args: ["-c", "scripts/bench/intake.wrangler.toml"],
    probePath: "/none",
  });
  try {
    const pid = wrangler.pid;
    const warm = photoZip(300_000).zip;
    await postDirect("/direct", warm);
    const rows = [];
    const idle = workerdRssMb(pid);
    const d = await measured(pid, () => postDirect("/direct", small.zip));
    rows.push({
      mode: "direct",
      mb: small.zip.length / 1048576,
      files: d.value.files,
      steps: `intake ${fmt(d.ms)} (manifest ${d.value.manifestMs} ms, walk ${d.value.walkMs} ms)`,
      totalMs: d.ms,
      peak: d.peakMb - idle,
    });
    for (const zip of [small, large]) {
      const before = workerdRssMb(pid);
      const run = await measured(pid, async () => {
        const t0 = performance.now();
        await expectOk(await fetch(`${BASE}/upload`, { method: "PUT", body: zip.zip }), "upload");
        const t1 = performance.now();
        const result = await expectOk(await fetch(`${BASE}/presigned`, { method: "POST" }), "presigned");
        return { ...result, put: t1 - t0, intake: performance.now() - t1 };
      });
      const v = run.value;
      rows.push({
        mode: "presigned",
        mb: zip.zip.length / 1048576,
        files: v.files,
        steps: `PUT ${fmt(v.put)}, intake ${fmt(v.intake)} (manifest ${v.manifestMs} ms, walk ${v.walkMs} ms)`,
        totalMs: run.ms,
        peak: run.peakMb - Math.min(idle, before),
      });
    }
    return rows;
  } finally {
    await stop(wrangler);
  }
}

async function postDirect(path, zip) {
  const form = new FormData();
  form.append("file", new Blob([zip], { type: "application/zip" }), "claim.zip");
  return expectOk(await fetch(`${BASE}${path}`, { method: "POST", body: form }), path);
}

/** The whole service with every registered analyzer (the real request path). */
async function benchService(cwd, persist, small, large) {
  const server = await startService({ cwd, persist, port: PORT });
  try {
    const key = await createAccount(BASE);
    const warm = await direct(BASE, key, photoZip(300_000).zip, "WARM-0001");
    analyzersRun = Object.keys(warm.result.modelVersions);
    const idle = workerdRssMb(server.pid);
    const rows = [];
    rows.push(await runDirect(server.pid, key, small, idle));
    rows.push(await runPresigned(server.pid, key, small, idle));
    rows.push(await runPresigned(server.pid, key, large, idle));
    return rows;
  } finally {
    await stop(server);
  }
}

let analyzersRun = [];

async function runDirect(pid, key, { zip, files }, idle) {
  const run = await measured(pid, () => direct(BASE, key, zip));
  return {
    mode: "direct",
    mb: zip.length / 1048576,
    files,
    steps: `scanner ${fmt(run.ms)}${waitNote(run.value.waits)}`,
    totalMs: run.ms,
    peak: run.peakMb - idle,
  };
}

async function runPresigned(pid, key, { zip, files }, idle) {
  const run = await measured(pid, () => presigned(BASE, key, zip));
  const v = run.value;
  return {
    mode: "presigned",
    mb: zip.length / 1048576,
    files,
    steps: `URL ${fmt(v.url)}, PUT ${fmt(v.put)}, scanner ${fmt(v.scan)}${waitNote(v.waits)}`,
    totalMs: run.ms,
    peak: run.peakMb - idle,
  };
}

const waitNote = (waits) => (waits ? ` (${waits}× 504/202, repeated)` : "");

const tableOf = (rows, peakTitle) =>
  [
    `| flow | ZIP | files | steps | total | ${peakTitle} |`,
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.mode} | ${r.mb.toFixed(1)} MB | ${r.files} | ${r.steps} | ${fmt(r.totalMs)} | ${r.peak.toFixed(0)} MB |`,
    ),
  ].join("\n");

function report(intakeRows, serviceRows, tree) {
  const date = new Date().toISOString().slice(0, 10);
  const intakeTable = tableOf(intakeRows, "workerd peak RSS above idle");
  const serviceTable = [
    "| execution | flow | ZIP | files | steps | total | workerd peak RSS above idle |",
    "|---|---|---|---|---|---|---|",
    ...serviceRows.map(
      (r) =>
        `| after (AnalysisUnit per file, ${date}) | ${r.mode} | ${r.mb.toFixed(1)} MB | ${r.files} | ${r.steps} | ${fmt(r.totalMs)} | ${r.peak.toFixed(0)} MB |`,
    ),
    ...BEFORE_ROWS,
  ].join("\n");
  const code = `commit ${tree.commit}${tree.dirty.length ? ` plus the uncommitted working-tree changes of that moment in ${tree.dirty.length} files` : ""}`;
  console.log(`${intakeTable}\n\n${serviceTable}`);
  writeDocSection(
    "docs/benchmarks.md",
    "scanner-intake",
    `## File verification intake (\`npm run bench intake\`)

Measured ${date} (${code}) with \`wrangler dev\` (workerd, local R2/D1/Durable Objects) on a shared 2-core machine, load average (1/5/15 min) ${tree.loadBefore} before and ${loadAverage()} after the run (${loadNote(tree.loadBefore)}). ZIPs of real camera JPEGs from \`shared/data/photos\` and \`shared/data/exif-samples/jpg\`, stored (JPEGs do not compress); the 45 MB ZIP reuses photos in \`copyN/\` folders to reach its size. Peak RSS = the highest VmRSS of the workerd process (polled every 10 ms) minus its RSS before the run.

### Intake alone

A bench Worker (\`scripts/bench/intake-worker.ts\`) runs only \`src/scanner/intake\`: the validating manifest (directory checks, every entry inflated, CRC-checked and hashed) and the file-by-file walk — the two passes the service made before the per-file execution (the walk was in the queue consumer); the service now makes one streaming pass that validates, hashes and stages each file in R2 (docs/scanner-api.md, "Execution") — with no analyzer. "PUT" streams the ZIP into R2 as \`PUT /v2/uploads/{storage_key}\` does.

${intakeTable}

### The whole request, every registered analyzer

\`POST /v2/scanner\` (Accept: application/json) against the real Worker with the default \`ANALYSIS_TIMEOUT_S\` (120 s), \`FILE_TIMEOUT_S\` (90 s) and \`ANALYSIS_UNIT_CONCURRENCY\` (3), repeated on 504/202 as spec 7 tells clients (here after 2 s instead of Retry-After), with the analyzers registered at the time of the run: ${analyzersRun.map((a) => `\`${a}\``).join(", ")}. Here time and memory are the detectors' (decoding 2560 × 1600 to 5640 × 3172 photos, ELA, noise maps, thumbnails), not the intake's. "after" = the analysis runs as one \`AnalysisUnit\` Durable Object per file, coordinated by the \`AnalysisGate\` (this run); "previous" = the run of 2026-11-28 (b8d2d2f, before blur, the tone box and the 2026-11-29 kernels); "earlier" = the same execution on 2026-11-25 (abd4a71: before most of issue 18's pixel kernels, without jpeg-grid and seams; load not recorded, other agents were running), kept for comparison; "before" = the whole analysis in one JOBS queue consumer invocation (run of 2026-11-22, kept for comparison). Soak figures (100+ scans, sequential and concurrent): section "soak".

${serviceTable}

Reading: in the presigned flow the archive is never held whole in memory (the PUT is streamed into R2; intake reads the central directory by range request and the entries in one streaming pass, one entry at a time), so intake memory follows the largest entry, not the ZIP. Direct uploads (< 10 MB) are buffered once by the multipart parser. The whole-request peak is set by pixel work on the largest photos (a 17.9 MP photo is 72 MB as RGBA before any copy; locally every unit shares the one workerd process, so up to two decoding units add up): see docs/scanner-api.md, "Memory".`,
    "# Benchmarks",
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

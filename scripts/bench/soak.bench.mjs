#!/usr/bin/env node
// `npm run bench soak`: the real service (`wrangler dev`, default settings, fresh persistence dir)
// under a sequential soak (one client) and a concurrent soak (SOAK_CLIENTS clients in parallel) of
// direct scans — single photos (2560×1600 wallpapers, camera JPEGs), small PDFs and 20-file ZIPs of
// photos, each with its own case number — then the 45 MB presigned ZIP of the intake bench on the same
// process. A client follows spec 7 (repeats on 504/202 after Retry-After) and gives a scan up after
// 10 minutes; each soak stops taking new scans after SOAK_MAX_MIN minutes. Per soak: latency of the first
// answer and until the result, 504s, 202s, other non-200 answers, workerd peak RSS, and what the
// structured `{"event":"analysis.…"}` log lines said. Writes the `soak` section of docs/benchmarks.md;
// wrangler's whole output is kept in a log file (its path is printed and written to the doc).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeDocSection } from "../lib/doc-section.mjs";
import { workerdPids, workerdRssMb } from "../lib/workerd-memory.mjs";
import {
  EXIF,
  PDFS,
  PHOTOS,
  analysisEvents,
  caseNumber,
  createAccount,
  direct,
  exposeProxyErrors,
  fmt,
  measured,
  photoZip,
  presigned,
  retryAfterPause,
  snapshot,
  startService,
  storedZip,
  treeInfo,
} from "../lib/service-bench.mjs";

const PORT = 8921; // benches that start the service use 8920–8929 (intake: 8920)
const BASE = `http://127.0.0.1:${PORT}`;
const SEQUENTIAL = Number(process.env.SOAK_SEQUENTIAL ?? 50);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 4);
const CONCURRENT = Number(process.env.SOAK_CONCURRENT ?? 52);
const GIVE_UP_MS = 10 * 60_000;
const SOAK_MAX_MS = Number(process.env.SOAK_MAX_MIN ?? 30) * 60_000;
const LARGE = process.env.SOAK_LARGE !== "0";
const DIRECT_MAX = 10 * 1024 * 1024;

const jpegsIn = (dir) =>
  readdirSync(dir)
    .filter((n) => /\.jpe?g$/i.test(n))
    .sort()
    .map((n) => join(dir, n));
const sizeOf = (path) => statSync(path).size;

/** The scan corpus: single photos, small PDFs and 20-file photo ZIPs, all below the direct-upload limit. */
function corpus() {
  const wallpapers = jpegsIn(join(PHOTOS, "plasma-workspace-wallpapers"));
  const camera = [
    ...jpegsIn(join(PHOTOS, "mate-backgrounds")).filter((p) => sizeOf(p) < 9_000_000),
    ...["exif-org", "gps", "hdr", "mobile", "orientation"].flatMap((d) => jpegsIn(join(EXIF, d))),
    ...jpegsIn(EXIF).filter((p) => sizeOf(p) > 20_000 && !p.endsWith("corrupted.jpg")),
  ];
  // Photos alternate: a wallpaper, then a camera JPEG.
  const photos = [];
  for (let i = 0; i < Math.max(wallpapers.length, camera.length); i++)
    photos.push(wallpapers[i % wallpapers.length], camera[i % camera.length]);
  // Small PDFs (< 300 KB) of every folder, spread over the sorted list.
  const pdfAll = readFileSync(join(PDFS, "INDEX.tsv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
    .filter(([, bytes]) => Number(bytes) < 300_000)
    .map(([path]) => join(PDFS, path))
    .sort();
  const pdfs = pdfAll.filter((_, i) => i % 5 === 0);
  // 20-file ZIPs: a sliding window over photos below 1.2 MB, kept under 9.5 MB.
  const pool = [...wallpapers, ...camera.filter((p) => sizeOf(p) < 1_200_000)];
  const zipAt = (n) => {
    const entries = {};
    let total = 0;
    for (let k = 0; Object.keys(entries).length < 20 && k < pool.length * 4; k++) {
      const path = pool[(n * 7 + k) % pool.length];
      const name = `${Object.keys(entries).length + 1}-${path.split("/").pop()}`;
      if (total + sizeOf(path) > 9_500_000) continue;
      entries[name] = readFileSync(path);
      total += sizeOf(path);
    }
    return entries;
  };
  return { photos, pdfs, zipAt };
}

/** Scan `i` of the mix: every 8th (from the 6th) a 20-file ZIP, else every 3rd a PDF, else a photo. */
function workItem(c, i, counters) {
  let entries;
  let kind;
  if (i % 8 === 5) (kind = "zip20"), (entries = c.zipAt(counters.zip++));
  else if (i % 3 === 2) {
    kind = "pdf";
    const path = c.pdfs[counters.pdf++ % c.pdfs.length];
    entries = { [path.split("/").slice(-2).join("_")]: readFileSync(path) };
  } else {
    const path = c.photos[counters.photo++ % c.photos.length];
    kind = path.includes("wallpapers") ? "wallpaper" : "camera";
    entries = { [path.split("/").pop()]: readFileSync(path) };
  }
  const zip = storedZip(entries);
  if (zip.length >= DIRECT_MAX) throw new Error(`scan ${i} is ${zip.length} bytes`);
  return {
    kind,
    name: Object.keys(entries).length === 1 ? Object.keys(entries)[0] : `${Object.keys(entries).length} photos`,
    files: Object.keys(entries).length,
    zip,
  };
}

/** One scan as a spec-7 client; never throws. */
async function scanOne(key, item, soak) {
  const cn = caseNumber(`SOAK-${soak}`);
  const startedAt = Date.now();
  const r = await direct(BASE, key, item.zip, cn, { pauseMs: retryAfterPause(), giveUpMs: GIVE_UP_MS, tolerate: true });
  const row = {
    kind: item.kind,
    name: item.name,
    files: item.files,
    mb: item.zip.length / 1048576,
    caseNumber: cn,
    startedAt,
    endedAt: Date.now(),
    status: r.status,
    firstStatus: r.first.status,
    firstMs: r.first.ms,
    totalMs: r.totalMs,
    answers: r.answers,
    n504: r.answers.filter((s) => s === 504).length,
    n202: r.answers.filter((s) => s === 202).length,
    other: r.answers.filter((s) => ![200, 202, 504].includes(s)),
    level: r.result?.suspicion_level,
    resultFiles: r.result ? Object.keys(r.result.Files ?? {}).length : null,
    dashFiles: r.result
      ? Object.values(r.result.Files ?? {})
          .filter((f) => f.suspicion_level === "-")
          .map((f) => (f.findings ?? []).map((x) => x.code ?? x.type).join("+"))
      : [],
    body: r.body ?? r.error,
  };
  console.log(
    `[${soak}] ${row.kind.padEnd(9)} ${row.name.slice(0, 40).padEnd(40)} ${row.mb.toFixed(2)} MB first ${row.firstStatus} ${fmt(row.firstMs)} total ${fmt(row.totalMs)} answers ${row.answers.join(",")}${row.level ? ` level ${row.level}` : ""}${row.body ? ` ${String(row.body).slice(0, 160)}` : ""}`,
  );
  return row;
}

/** `count` scans by `clients` clients taking the next scan of one shared list; bounded by SOAK_MAX_MS. */
async function soak(name, server, key, c, count, clients, offset) {
  const counters = { photo: offset, pdf: offset, zip: offset };
  const items = Array.from({ length: count }, (_, i) => workItem(c, i, counters));
  const idle = workerdRssMb(server.pid);
  const fromLine = server.lines.length;
  const deadline = Date.now() + SOAK_MAX_MS;
  let next = 0;
  const rows = [];
  // workerd restarts (a new workerd pid below wrangler) while the soak runs.
  const seen = new Set(workerdPids(server.pid));
  const restarts = [];
  const watch = setInterval(() => {
    for (const pid of workerdPids(server.pid))
      if (!seen.has(pid)) seen.add(pid), restarts.push({ pid, at: new Date().toISOString() });
  }, 500);
  const run = await measured(
    server.pid,
    () =>
      Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < items.length && Date.now() < deadline) rows.push(await scanOne(key, items[next++], name));
        }),
      ),
    50,
  ).finally(() => clearInterval(watch));
  // Give the log a moment: a unit's last lines can come after the answer.
  await new Promise((r) => setTimeout(r, 3000));
  const lines = server.lines.slice(fromLine);
  // The wrangler lines around every scan that got something else than 200/202/504 (analyzer lines left out).
  for (const r of rows.filter((r) => r.other.length || r.status !== 200)) {
    r.around = lines
      .filter((l) => l.t >= r.startedAt - 3000 && l.t <= r.endedAt + 3000 && !l.text.includes('"analysis.analyzer"'))
      .map((l) => `${new Date(l.t).toISOString().slice(11, 23)} ${l.text.slice(0, 260)}`);
    console.log(`--- wrangler lines around ${r.kind} ${r.name} (${r.answers.join(",")}):\n${r.around.join("\n")}`);
  }
  return {
    name,
    clients,
    rows,
    restarts,
    skipped: items.length - rows.length,
    wallMs: run.ms,
    idleMb: idle,
    peakMb: run.peakMb,
    lines,
  };
}

const pct = (values, p) => {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const secs = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "–");

function summaryRow(label, rows, s) {
  const first = rows.map((r) => r.firstMs);
  const total = rows.filter((r) => r.status === 200).map((r) => r.totalMs);
  const other = rows.reduce((n, r) => n + r.other.length + (r.status === "gave-up" ? 1 : 0), 0);
  return `| ${label} | ${rows.length} | ${secs(pct(first, 50))} / ${secs(pct(first, 95))} / ${secs(Math.max(...first))} | ${rows.reduce((n, r) => n + r.n504, 0)} | ${rows.reduce((n, r) => n + r.n202, 0)} | ${other} | ${secs(pct(total, 50))} / ${secs(pct(total, 95))} / ${secs(total.length ? Math.max(...total) : NaN)} | ${s ? `${s.peakMb.toFixed(0)} MB (+${(s.peakMb - s.idleMb).toFixed(0)})` : ""} |`;
}

function soakTable(s) {
  const head = [
    "| scans | count | first answer p50 / p95 / max | 504 | 202 | other non-200 | until the result p50 / p95 / max | workerd peak RSS (above idle) |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const kinds = ["wallpaper", "camera", "pdf", "zip20"];
  return [
    ...head,
    summaryRow(`**all** (${s.clients} client${s.clients > 1 ? "s" : ""}, ${secs(s.wallMs)} wall)`, s.rows, s),
    ...kinds.map((k) =>
      summaryRow(
        k,
        s.rows.filter((r) => r.kind === k),
        null,
      ),
    ),
  ].join("\n");
}

/** What the structured log lines of a soak's window said. */
function logSummary(s) {
  const events = analysisEvents(s.lines);
  const count = (e) => events.filter((x) => x.event === `analysis.${e}`).length;
  const started = new Set(events.filter((x) => x.event === "analysis.start").map((x) => x.analysisId));
  for (const x of events)
    if (x.event === "analysis.done" || x.event === "analysis.failed") started.delete(x.analysisId);
  const failedAnalyzers = events.filter((x) => x.event === "analysis.analyzer" && x.outcome === "failed");
  const files = events.filter((x) => x.event === "analysis.file");
  const slowest = files.sort((a, b) => b.ms - a.ms)[0];
  const trouble = events.filter((x) =>
    /file-timeout|unit-lost|unit-failed|unit-error|dispatch-failed|analysis\.failed/.test(x.event),
  );
  const errorLines = s.lines.filter(
    (l) => !l.text.includes('{"event":"analysis.') && /\b(error|uncaught|exception|exceeded)\b|✘/i.test(l.text),
  );
  const done = events.filter((x) => x.event === "analysis.done").map((x) => x.ms);
  return {
    text: `${count("start")} analysis.start, ${count("done")} analysis.done (p50 ${secs(pct(done, 50))}, max ${secs(done.length ? Math.max(...done) : NaN)}), ${count("file")} analysis.file (slowest: ${slowest ? `${slowest.kind} ${(slowest.size / 1048576).toFixed(1)} MB, ${secs(slowest.ms)}` : "–"}), ${count("file-timeout")} file-timeout, ${count("unit-lost")} unit-lost, ${count("unit-failed")} unit-failed, ${count("unit-error")} unit-error, ${count("dispatch-failed")} dispatch-failed, ${count("failed")} analysis.failed, ${failedAnalyzers.length} analyzer outcome "failed"${failedAnalyzers.length ? ` (${[...new Set(failedAnalyzers.map((x) => x.analyzer))].join(", ")})` : ""}; ${started.size} started without done/failed; ${errorLines.length} other wrangler lines mentioning an error.`,
    trouble: [...trouble, ...failedAnalyzers]
      .slice(0, 12)
      .map((x) => JSON.stringify(Object.fromEntries(Object.entries(x).filter(([k]) => k !== "t")))),
    errorLines: errorLines.slice(0, 8).map((l) => l.text.slice(0, 300)),
  };
}

async function main() {
  if (process.env.SOAK_DRY) {
    // Lists the scans of both soaks without starting anything.
    const c = corpus();
    for (const [count, offset] of [
      [SEQUENTIAL, 0],
      [CONCURRENT, 3],
    ]) {
      const counters = { photo: offset, pdf: offset, zip: offset };
      for (let i = 0; i < count; i++) {
        const item = workItem(c, i, counters);
        console.log(
          `${item.kind.padEnd(9)} ${item.name.slice(0, 50).padEnd(50)} ${item.files} files ${(item.zip.length / 1048576).toFixed(2)} MB`,
        );
      }
    }
    return;
  }
  const tree = treeInfo();
  const cwd = snapshot([], "soak-bench-src-");
  const proxyPatched = exposeProxyErrors(cwd);
  const persist = mkdtempSync(join(tmpdir(), "soak-bench-"));
  const logFile = join(tmpdir(), `soak-bench-${new Date().toISOString().replace(/[:.]/g, "-")}.log`);
  console.log(`wrangler log: ${logFile}`);
  const c = corpus();
  let server;
  try {
    server = await startService({ cwd, persist, port: PORT, logFile });
    const key = await createAccount(BASE, "Soak");
    const warm = await direct(BASE, key, photoZip(300_000).zip, caseNumber("SOAK-WARM"), { giveUpMs: GIVE_UP_MS });
    const analyzers = Object.keys(warm.result.modelVersions);
    const soaks = [];
    soaks.push(await soak("sequential", server, key, c, SEQUENTIAL, 1, 0));
    soaks.push(await soak("concurrent", server, key, c, CONCURRENT, CLIENTS, 3));
    let large = null;
    if (LARGE) {
      const zip = photoZip(45 * 1024 * 1024);
      const idle = workerdRssMb(server.pid);
      const fromLine = server.lines.length;
      const run = await measured(server.pid, () =>
        presigned(BASE, key, zip.zip, caseNumber("SOAK-LARGE"), { giveUpMs: GIVE_UP_MS, tolerate: true }),
      );
      large = {
        ...run.value,
        files: zip.files,
        mb: zip.zip.length / 1048576,
        ms: run.ms,
        idleMb: idle,
        peakMb: run.peakMb,
        lines: server.lines.slice(fromLine),
      };
      console.log(
        `[large] ${large.mb.toFixed(1)} MB ${large.files} files: ${large.status} ${fmt(run.ms)} answers ${large.answers.join(",")}`,
      );
    }
    report(soaks, large, analyzers, tree, logFile, proxyPatched);
  } finally {
    await server?.stop();
    rmSync(persist, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}

function report(soaks, large, analyzers, tree, logFile, proxyPatched) {
  const date = new Date().toISOString().slice(0, 10);
  const code = `commit ${tree.commit}${tree.dirty.length ? ` plus the uncommitted working-tree changes of that moment in ${tree.dirty.length} files` : ""}`;
  const small504 = soaks
    .flatMap((s) => s.rows)
    .filter((r) => r.mb < 10)
    .reduce((n, r) => n + r.n504, 0);
  const parts = [];
  for (const s of soaks) {
    const log = logSummary(s);
    const bad = s.rows.filter((r) => r.status !== 200 || r.n504 || r.n202);
    const dash = s.rows.filter((r) => r.dashFiles.length);
    parts.push(`### ${s.name === "sequential" ? "Sequential soak (one client)" : `Concurrent soak (${s.clients} clients in parallel)`}

${soakTable(s)}
${s.skipped ? `\n${s.skipped} scans were not sent: the soak's time limit (${SOAK_MAX_MS / 60000} min) was reached.\n` : ""}
Structured log of this soak: ${log.text} workerd restarts seen (a new workerd pid): ${s.restarts.length ? s.restarts.map((x) => `pid ${x.pid} at ${x.at.slice(11, 19)}`).join(", ") : "none"}.
${log.trouble.length ? `\nLog lines of trouble (first ${log.trouble.length}):\n\n${log.trouble.map((l) => `    ${l}`).join("\n")}\n` : ""}${log.errorLines.length ? `\nOther wrangler lines mentioning an error (first ${log.errorLines.length}):\n\n${log.errorLines.map((l) => `    ${l}`).join("\n")}\n` : ""}${
  bad.length
    ? `\nScans that did not get 200 at once (answers; first answer after): ${bad.map((r) => `${r.kind} \`${r.name}\` (${r.mb.toFixed(1)} MB): ${r.answers.join(" → ")}; ${secs(r.firstMs)}`).join(", ")}.\n\nTheir bodies: ${[...new Map(bad.filter((r) => r.body).map((r) => [String(r.body).replace(/\s+/g, " ").slice(0, 400), 0])).keys()].map((b) => `\`${b}\``).join("; ") || "–"}\n${bad
        .filter((r) => r.around?.length)
        .slice(0, 2)
        .map(
          (r) =>
            `\nwrangler lines around ${r.kind} \`${r.name}\` (UTC; analyzer lines left out):\n\n${r.around
              .slice(0, 14)
              .map((l) => `    ${l}`)
              .join("\n")}\n`,
        )
        .join("")}`
    : ""
}${dash.length ? `\nFiles answered \`-\` (not assessed), by finding: ${dash.map((r) => `${r.kind} \`${r.name}\`: ${r.dashFiles.join(", ")}`).join("; ")}.\n` : ""}`);
  }
  const largeText = large
    ? `### The 45 MB ZIP after the soaks (presigned flow, same process)

| ZIP | files | steps | total | 504/202 | workerd peak RSS (above idle) |
|---|---|---|---|---|---|
| ${large.mb.toFixed(1)} MB | ${large.files} | URL ${fmt(large.url)}, PUT ${fmt(large.put)}, scanner ${fmt(large.scan)} (answers ${large.answers.join(", ")}) | ${fmt(large.ms)} | ${large.answers.filter((a) => a === 504).length}/${large.answers.filter((a) => a === 202).length} | ${large.peakMb.toFixed(0)} MB (+${(large.peakMb - large.idleMb).toFixed(0)}) |

Structured log: ${logSummary(large).text} On a fresh process: section "scanner-intake", "The whole request".
`
    : "";
  const md = `## Soak: the per-file execution under load (\`npm run bench soak\`)

Measured ${date} (${code}) by \`scripts/bench/soak.bench.mjs\` against the real service under \`wrangler dev\` (workerd, local D1/R2/Durable Objects, fresh persistence dir) with the default settings (\`ANALYSIS_TIMEOUT_S\` 120, \`FILE_TIMEOUT_S\` 90, \`ANALYSIS_UNIT_CONCURRENCY\` 3) and the analyzers ${analyzers.map((a) => `\`${a}\``).join(", ")}. Shared 2-core machine; other agents (test suites, other \`wrangler dev\` instances) were running at the same time, so times are upper bounds and vary with their load. Every scan is a direct upload (all ZIPs below 10 MB) with its own case number: single photos (2560×1600 wallpapers from \`photos/plasma-workspace-wallpapers\`; camera JPEGs from \`photos/mate-backgrounds\` and \`exif-samples/jpg\`), small PDFs (< 300 KB, every fifth of \`shared/data/pdf/*/\`) and 20-file ZIPs of photos below 1.2 MB each (≈ 2–9.5 MB), each in a ZIP, in a fixed mix (every 8th scan a 20-file ZIP, else every 3rd a PDF). ${proxyPatched ? "wrangler's dev proxy labels every failed forward of a POST as 503 \"Your worker restarted mid-request\" (it compares the request URL, path included, with the Worker's origin); the bench's snapshot has that text replaced by the real error (`exposeProxyErrors` in scripts/lib/service-bench.mjs). " : ""}A client follows spec 7: on 504 or 202 it sends the identical request again after \`Retry-After\` (30 s) and gives up after 10 minutes. "First answer" = the time of the first response; "until the result" = until the 200 (repeats included). Peak RSS = highest VmRSS of the workerd process during the soak (polled every 50 ms); "above idle" = minus its RSS when the soak began (after a warm-up scan and, for the concurrent soak, after the sequential one).

**Must-hold, 504s on ZIPs under 10 MB: ${small504}.**

${parts.join("\n")}
${largeText}
The complete wrangler output of this run was kept in \`${logFile}\` (not committed).`;
  console.log(md);
  writeDocSection("docs/benchmarks.md", "soak", md, "# Benchmarks");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

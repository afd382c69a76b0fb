// `npm run bench reports`: the report PDFs of cases with 3, 20 and 70 files (spec 2.6, issue 15).
// 1. The real service (`wrangler dev`, default analyzers) analyses each case through the presigned flow
//    for an account with presignedDownload and pdfReportMapping; the reports unit's own time comes from its
//    `analysis.reports` log line (workerd), the report sizes and page counts from attachments.zip.
// 2. The same reports are built again in Node from that result and its attachments, with the JS heap +
//    ArrayBuffers sampled every 2 ms above a collected baseline: the reports' own peak memory (the
//    isolate's 128 MB is what it must stay under; workerd runs the same V8 code).
// Writes the `reports` section of docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { unzipSync } from "fflate";
import { writeDocSection } from "../lib/doc-section.mjs";
import {
  ADMIN_TOKEN,
  EXIF,
  PHOTOS,
  analysisEvents,
  caseNumber,
  expectOk,
  presigned,
  snapshot,
  startService,
  storedZip,
  treeInfo,
} from "../lib/service-bench.mjs";
import { buildReports } from "../reports/node-reports";

const PORT = 8924;
const BASE = `http://127.0.0.1:${PORT}`;
const SIZES = (process.env.REPORT_SIZES ?? "3,20,70").split(",").map(Number);

/** Real photos (small and mid-size camera JPEGs), the generated invoices with revisions, one damaged JPEG. */
function corpus(): [string, Uint8Array][] {
  const jpegs = (dir: string) =>
    readdirSync(dir)
      .filter((n) => /\.jpe?g$/i.test(n))
      .sort()
      .map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))] as [string, Uint8Array]);
  const invoices = join(tmpdir(), "report-bench-invoices");
  spawnSync("node", ["--import", "tsx", "scripts/datagen/pdf/generate.ts", invoices, "1"], { stdio: "ignore" });
  const pdfs = readdirSync(invoices)
    .filter((n) => n.endsWith(".pdf"))
    .sort()
    .map((n) => [n, new Uint8Array(readFileSync(join(invoices, n)))] as [string, Uint8Array]);
  const photos = [
    ...jpegs(join(PHOTOS, "opencv-doc")),
    ...jpegs(EXIF),
    ...jpegs(join(PHOTOS, "plasma-workspace-wallpapers")),
  ];
  const damaged: [string, Uint8Array] = ["damaged.jpg", photos[0][1].subarray(0, 5000)];
  // Interleaved so that every case size has photos, PDFs and the damaged file.
  const files: [string, Uint8Array][] = [photos[0], pdfs[1], damaged];
  for (let i = 1; files.length < 70; i++) {
    const pdf = pdfs[i % pdfs.length];
    files.push(
      i % 6 === 0 ? [`p${i}-${pdf[0]}`, pdf] : [`p${i}-${photos[i % photos.length][0]}`, photos[i % photos.length][1]],
    );
  }
  return files.map(([name, bytes]) => [name, bytes]);
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function nodeRebuild(result: Record<string, unknown>, attachments: Record<string, Uint8Array>) {
  gc();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const base = used();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 2);
  const t0 = performance.now();
  const built = await buildReports(result as never, "de", async (ref) => attachments[ref] ?? null);
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, used());
  return { ms, peakMb: (peak - base) / 1048576, pages: built.analysis.pages };
}

const files = corpus();
const cwd = snapshot([], "report-bench-src-");
const persist = mkdtempSync(join(tmpdir(), "report-bench-persist-"));
const logFile = join(tmpdir(), `report-bench-wrangler-${Date.now()}.log`);
const service = await startService({ cwd, persist, port: PORT, logFile });
const rows: string[] = [];
try {
  const { apiKey } = await expectOk(
    await fetch(`${BASE}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Report bench",
        communicationMode: "eigenversand",
        features: { presignedDownload: true, pdfReportMapping: true },
      }),
    }),
    "account",
  );
  for (const n of SIZES) {
    const entries = Object.fromEntries(files.slice(0, n));
    const zip = storedZip(entries);
    const scan = await presigned(BASE, apiKey, zip, caseNumber("REPORT-BENCH"), { giveUpMs: 30 * 60_000 });
    if (scan.status !== 200) throw new Error(`scan of ${n} files: ${scan.status} ${scan.body ?? ""}`);
    const result = scan.result;
    const outer = unzipSync(new Uint8Array(await (await fetch(result.attachmentDownloadUrl)).arrayBuffer()));
    const attachments: Record<string, Uint8Array> = {};
    for (const [bundle, bytes] of Object.entries(outer)) {
      const category = bundle === "reverse_search_downloads.zip" ? "downloads" : bundle.replace(/\.zip$/, "");
      for (const [name, entry] of Object.entries(unzipSync(bytes))) attachments[`${category}/${name}`] = entry;
    }
    const analysis = attachments["analysis_report/analysis_report.pdf"];
    const enfsi = attachments["enfsi_report/enfsi_report.pdf"];
    const event = analysisEvents(service.lines).findLast((e: { event: string }) => e.event === "analysis.reports");
    const dir = mkdtempSync(join(tmpdir(), "report-bench-pdf-"));
    writeFileSync(join(dir, "a.pdf"), analysis);
    writeFileSync(join(dir, "e.pdf"), enfsi);
    const pages = (f: string) =>
      /Pages:\s+(\d+)/.exec(spawnSync("pdfinfo", [join(dir, f)], { encoding: "utf8" }).stdout)?.[1];
    const [analysisPages, enfsiPages] = [pages("a.pdf"), pages("e.pdf")];
    rmSync(dir, { recursive: true, force: true });
    const node = await nodeRebuild(result, attachments);
    const heatmaps = Object.keys(attachments).filter((k) => k.startsWith("heatmaps/")).length;
    const row = `| ${n} | ${Object.keys(result.Files).length} | ${heatmaps} | ${event?.ms ?? "?"} ms | ${(scan.totalMs / 1000).toFixed(1)} s | ${analysisPages} / ${enfsiPages} | ${mb(analysis.length)} MB / ${(enfsi.length / 1024).toFixed(0)} KB | ${node.ms.toFixed(0)} ms | ${node.peakMb.toFixed(0)} MB |`;
    console.log(row);
    rows.push(row);
  }
} finally {
  await service.stop();
  rmSync(cwd, { recursive: true, force: true });
  rmSync(persist, { recursive: true, force: true });
}

const { commit, dirty } = treeInfo();
writeDocSection(
  "docs/benchmarks.md",
  "reports",
  `## Report PDFs (\`npm run bench reports\`)

Measured ${new Date().toISOString().slice(0, 10)} (${commit}${dirty.length ? ", with uncommitted changes" : ""}) on the shared 2-core machine (other work ran at the same time: times are upper bounds). Cases of real photos (\`shared/data/photos/opencv-doc\`, \`exif-samples/jpg\`, wallpapers), generated invoices with incremental updates and one damaged JPEG, language de, analysed by \`wrangler dev\` with every detector (presigned flow, \`attachments.zip\`). *Reports unit*: the \`analysis.reports\` log line of the unit that builds both PDFs (workerd, one invocation). *Node rebuild*: both reports built again in Node from the same result and attachments; peak = JS heap + ArrayBuffers above a collected baseline, sampled every 2 ms (the isolate's share of the 128 MB).

| files in the ZIP | files in the result | heatmaps | reports unit (workerd) | whole scan | pages analysis / ENFSI | size analysis / ENFSI | Node rebuild | Node peak |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

wrangler's output: \`${logFile}\`.`,
);

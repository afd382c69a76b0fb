// `npm run bench pdf`: our revision splitting and image extraction against qpdf and poppler's
// pdfimages on the same files in the same run. Ratios > 1 mean we are slower. The external tools
// run as processes, so their times include process start; the start-up of `qpdf --version` /
// `pdfimages -v` is measured too and a start-up-corrected ratio is given beside the raw one.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeDocSection } from "../lib/doc-section.mjs";
import { dataRoot, listFiles } from "../pdf/cross-check";
import { runPdfDetectors } from "../pdf/run-detectors"; // also the Node polyfill for pdf.js
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { extractPageImages } from "../../src/scanner/pdf/images";
import { splitRevisions } from "../../src/scanner/pdf/revisions";
import { PDFDocument, ParseSpeeds } from "pdf-lib";
import { whiteBoxIncrementally } from "../datagen/pdf/edits";

const ROUNDS = 3;
const files = listFiles().map((f) => ({ path: f.path, bytes: new Uint8Array(readFileSync(join(dataRoot, f.path))) }));
const ms = (t0: number) => performance.now() - t0;
const best = (fn: () => number) => Math.min(...Array.from({ length: ROUNDS }, fn));
const spawnMs = (cmd: string, args: string[]) => {
  const t0 = performance.now();
  spawnSync(cmd, args, { stdio: "ignore" });
  return ms(t0);
};

// Revision splitting: our xref-chain walk vs `qpdf --show-xref` (qpdf reads the same chain).
const ours = best(() => {
  const t0 = performance.now();
  for (const f of files) splitRevisions(f.bytes);
  return ms(t0);
});
const qpdf = best(() => files.reduce((sum, f) => sum + spawnMs("qpdf", ["--show-xref", join(dataRoot, f.path)]), 0));
const qpdfStart = best(() => files.reduce((sum) => sum + spawnMs("qpdf", ["--version"]), 0));

// Image extraction on files that have images: ours (pdf-lib parse, raw JPEGs, pdf.js decode, PNG)
// vs `pdfimages -all` (originals for JPEG/JPX/JBIG2/CCITT, PNG otherwise) into a temp dir.
const withImages = files
  .filter(
    (f) =>
      spawnSync("pdfimages", ["-list", join(dataRoot, f.path)], { encoding: "utf8" }).stdout.split("\n").length > 3,
  )
  .slice(0, 40);
let imagesOurs = 0;
async function timeOurImages(): Promise<number> {
  let total = 0;
  imagesOurs = 0;
  for (const f of withImages) {
    const copy = f.bytes.slice(); // fresh bytes: no parse caches between rounds
    const t0 = performance.now();
    const doc = await PDFDocument.load(copy, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
      parseSpeed: ParseSpeeds.Fastest,
    }).catch(() => null);
    if (doc) imagesOurs += (await extractPageImages(doc, copy).catch(() => ({ images: [] }))).images.length;
    total += ms(t0);
  }
  return total;
}
const imageRounds: number[] = [];
for (let r = 0; r < ROUNDS; r++) imageRounds.push(await timeOurImages());
const ourImageMs = Math.min(...imageRounds);
const popplerImageMs = best(() => {
  const dir = mkdtempSync(join(tmpdir(), "pdfimages-"));
  try {
    return withImages.reduce(
      (sum, f, i) => sum + spawnMs("pdfimages", ["-all", join(dataRoot, f.path), join(dir, `f${i}`)]),
      0,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
const popplerStart = best(() => withImages.reduce((sum) => sum + spawnMs("pdfimages", ["-v"]), 0));

// Memory: all five PDF detectors on the largest files, JS heap + ArrayBuffers above a collected
// baseline, sampled every 2 ms (Node; workerd's isolate holds the same objects).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const largest = [...files].sort((a, b) => b.bytes.length - a.bytes.length).slice(0, 3);
largest.push({ path: "generated: 16 MB photo scan + incremental white box", bytes: await largeEditedScan() });
const memoryRows: string[] = [];
for (const f of largest) {
  gc();
  const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const base = used();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, used())), 2);
  const t0 = performance.now();
  const run = await runPdfDetectors(f.path, f.bytes.slice());
  clearInterval(timer);
  peak = Math.max(peak, used());
  memoryRows.push(
    `| \`${f.path}\` | ${(f.bytes.length / 1048576).toFixed(1)} MB | ${ms(t0).toFixed(0)} ms | ${((peak - base) / 1048576).toFixed(0)} MB | ${run.level} |`,
  );
}
console.log(memoryRows.join("\n"));

/** A 17.9 MP camera JPEG (16.4 MB) as a full-page scan, then a white box appended as an update. */
async function largeEditedScan(): Promise<Uint8Array> {
  const jpeg = new Uint8Array(readFileSync("../shared/data/photos/mate-backgrounds/Elephants_5640x3172.jpg"));
  const doc = await PDFDocument.create();
  const page = doc.addPage([842, 595]);
  page.drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: 842, height: 595 });
  return whiteBoxIncrementally(await doc.save(), { x: 100, y: 100, w: 200, h: 30 }, "1.000,00 EUR");
}

const ratio = (a: number, b: number) => (b > 0.5 ? (a / b).toFixed(2) : "n/a (tool time ≈ start-up)");
const rows = [
  `| revision splitting (${files.length} files) | ${ours.toFixed(1)} ms | qpdf --show-xref ${qpdf.toFixed(0)} ms (start-up ${qpdfStart.toFixed(0)} ms) | ${ratio(ours, qpdf)} | ${ratio(ours, Math.max(1e-3, qpdf - qpdfStart))} |`,
  `| image extraction (${withImages.length} files, ${imagesOurs} images) | ${ourImageMs.toFixed(0)} ms | pdfimages -all ${popplerImageMs.toFixed(0)} ms (start-up ${popplerStart.toFixed(0)} ms) | ${ratio(ourImageMs, popplerImageMs)} | ${ratio(ourImageMs, Math.max(1e-3, popplerImageMs - popplerStart))} |`,
];
console.log(rows.join("\n"));
writeDocSection(
  "docs/benchmarks.md",
  "pdf",
  `## PDF forensics (\`npm run bench pdf\`, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, best of ${ROUNDS})

Same files (\`../shared/data/pdf\`), same run. Ratio = ours / tool; below 1 we are faster. The tools run as
processes, so their time includes process start; the last column subtracts the start-up time measured with
\`qpdf --version\` / \`pdfimages -v\` on the same number of calls.

| task | ours | reference tool | ratio | ratio without tool start-up |
|---|---|---|---|---|
${rows.join("\n")}

All five PDF detectors on the largest shared PDFs (peak JS heap + ArrayBuffers above the baseline, sampled
every 2 ms; the isolate limit is 128 MB):

| file | size | time | peak memory | level |
|---|---|---|---|---|
${memoryRows.join("\n")}

Our image extraction includes parsing the whole file with pdf-lib and decoding non-JPEG images with pdf.js
(PNG re-encoding); pdfimages writes JPEG/JPX/JBIG2/CCITT streams as they are. JPX/JBIG2 images are not decoded
by our serverless pdf.js build (reported as a finding), so on scans in those formats we do less work than pdfimages.`,
  "# Benchmarks",
);
process.exit(0);

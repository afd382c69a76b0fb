/**
 * Mutation fuzzing of every decoder and detector (README "Tests", docs/forensics.md "Malformed files"): small
 * real files of each format (JPEG baseline and progressive, PNG of every colour type, WebP, HEIC, TIFF, PDF) with
 * bytes flipped, ranges overwritten, chunks repeated or the file cut, through every default analyzer that applies
 * (the models excepted: they read the same decoders) and through the analyzers of what image-pages and pdf-images
 * extract. A case fails when an analyzer throws, or hangs: the cases run in a worker thread that is ended when one
 * case takes longer than the watchdog, so a synchronous endless loop is caught too.
 *
 * Usage: node --import tsx scripts/fuzz/decoders.mts [cases per file = 40] [seed = 1] [watchdog s = 60]
 */
import { readFileSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { seededRandom } from "../../test/support/seeded-random";

const SEEDS = [
  "../shared/data/photos/opencv-doc/leuvenA.jpg",
  "test/fixtures/generated/progressive/p420-restart.jpg",
  "test/fixtures/generated/png/rgb-8bit-interlaced.png",
  "test/fixtures/generated/png/palette-4bit-trns.png",
  "test/fixtures/generated/png/gray-16bit.png",
  "test/fixtures/generated/png/rgba-8bit.png",
  "test/fixtures/formats/leuven.webp",
  "test/fixtures/formats/xmp-edited.webp",
  "test/fixtures/formats/leuven.heic",
  "test/fixtures/formats/xmp-edited.heic",
  "test/fixtures/formats/pages.tiff",
  "test/fixtures/formats/scan-a4.tiff",
  "test/fixtures/formats/tiled-24mp.heic",
  "test/fixtures/generated/restart-interval.jpg",
  "test/fixtures/generated/progressive/arithmetic.jpg",
  "../shared/data/pdf/pypdf/form.pdf",
  "../shared/data/pdf/pypdf/crazyones.pdf",
];

/** One mutation of `bytes` (the first 12 bytes, the signature, kept so that the file keeps its kind). */
export function mutate(bytes: Uint8Array, seed: number): { bytes: Uint8Array; how: string } {
  const r = seededRandom(seed);
  const at = (min = 12) => min + Math.floor(r() * Math.max(1, bytes.length - min));
  const out = Uint8Array.from(bytes);
  switch (Math.floor(r() * 5)) {
    case 0: {
      const n = 1 + Math.floor(r() * 16);
      for (let i = 0; i < n; i++) out[at()] = Math.floor(r() * 256);
      return { bytes: out, how: `${n} bytes changed` };
    }
    case 1: {
      const end = at();
      return { bytes: bytes.slice(0, end), how: `cut at ${end}` };
    }
    case 2: {
      const from = at();
      const length = Math.min(out.length - from, 1 + Math.floor(r() * 64));
      const value = r() < 0.5 ? 0 : 0xff;
      out.fill(value, from, from + length);
      return { bytes: out, how: `${length} bytes from ${from} set to ${value}` };
    }
    case 3: {
      const from = at();
      const length = Math.min(bytes.length - from, 1 + Math.floor(r() * 4096));
      const into = at();
      const grown = new Uint8Array(bytes.length + length);
      grown.set(bytes.subarray(0, into));
      grown.set(bytes.subarray(from, from + length), into);
      grown.set(bytes.subarray(into), into + length);
      return { bytes: grown, how: `${length} bytes from ${from} repeated at ${into}` };
    }
    default: {
      // A length or size field made huge: a 32-bit big- or little-endian 0x7fffffff-ish value.
      const where = at();
      const view = new DataView(out.buffer);
      if (where + 4 <= out.length) view.setUint32(where, 0x7fff0000 + Math.floor(r() * 0xffff), r() < 0.5);
      return { bytes: out, how: `huge 32-bit value at ${where}` };
    }
  }
}

type Report = { case: number; file: string; how: string; outcome: string; ms: number };

async function runWorker(): Promise<void> {
  // Not the registry: it imports the models' .onnx files, which only the Worker's bundler loads.
  const { sniffKind, mimeTypes } = await import("../../src/scanner/intake/sniff");
  const analyzers = [
    (await import("../../src/scanner/forensics/file-type")).fileTypeAnalyzer,
    (await import("../../src/scanner/forensics/thumbnail")).thumbnailAnalyzer,
    (await import("../../src/scanner/forensics/pdf-revisions")).pdfRevisions,
    (await import("../../src/scanner/forensics/pdf-structure")).pdfStructure,
    (await import("../../src/scanner/forensics/pdf-signatures")).pdfSignatures,
    (await import("../../src/scanner/forensics/pdf-images")).pdfImages,
    (await import("../../src/scanner/forensics/image-pages")).imagePages,
    (await import("../../src/scanner/forensics/pdf-diffs")).pdfDiffs,
    (await import("../../src/scanner/forensics/pdf-fields")).pdfFields,
    ...(await import("../../src/scanner/forensics/image-analyzers")).imageAnalyzers,
  ];
  const context = {
    language: "en" as const,
    issueDate: null,
    now: new Date("2026-11-29T00:00:00Z"),
    caseNumber: "FUZZ",
  };
  type ScanFile = import("../../src/scanner/types").ScanFile;
  const analyse = async (file: ScanFile, depth: number): Promise<string[]> => {
    const problems: string[] = [];
    for (const a of analyzers) {
      if (!a.appliesTo(file)) continue;
      try {
        const result = await a.analyze(file, context);
        if (depth === 0) for (const x of result.extracted ?? []) problems.push(...(await analyse(x, 1)));
      } catch (err) {
        problems.push(`${a.id} threw on ${file.name}: ${(err as Error).stack?.split("\n").slice(0, 3).join(" | ")}`);
      }
    }
    return problems;
  };
  const { seeds, perFile, seed } = workerData as { seeds: string[]; perFile: number; seed: number };
  const originals = seeds.map((path) => new Uint8Array(readFileSync(path)));
  parentPort?.on("message", async (i: number) => {
    const f = Math.floor(i / perFile);
    const { bytes, how } = mutate(originals[f], seed * 100_003 + i);
    const kind = sniffKind(bytes);
    parentPort?.postMessage({ started: i, how });
    const t = performance.now();
    const file: ScanFile = {
      name: seeds[f].split("/").pop() as string,
      bytes,
      kind,
      mimeType: mimeTypes[kind],
      sha256: "",
      size: bytes.length,
    };
    const problems = await analyse(file, 0);
    parentPort?.postMessage({ done: i, problems, ms: performance.now() - t });
  });
}

async function main(): Promise<void> {
  const [perFile = 40, seed = 1, watchdogS = 60] = process.argv.slice(2).map(Number);
  const total = SEEDS.length * perFile;
  const failures: Report[] = [];
  let next = 0;
  let slowest = { ms: 0, what: "" };
  while (next < total) {
    const worker = new Worker(new URL("./tsx-worker.mjs", import.meta.url), {
      workerData: { module: import.meta.url, seeds: SEEDS, perFile, seed },
    });
    await new Promise<void>((resolve) => {
      let current = { i: -1, how: "", at: Date.now() };
      const watchdog = setInterval(() => {
        if (current.i >= 0 && Date.now() - current.at > watchdogS * 1000) {
          failures.push({
            case: current.i,
            file: SEEDS[Math.floor(current.i / perFile)],
            how: current.how,
            outcome: `no answer in ${watchdogS} s`,
            ms: Date.now() - current.at,
          });
          console.log(`HANG case ${current.i} ${SEEDS[Math.floor(current.i / perFile)]} (${current.how})`);
          next = current.i + 1;
          clearInterval(watchdog);
          worker.terminate().then(() => resolve());
        }
      }, 1000);
      worker.on("message", (m: { started?: number; how?: string; done?: number; problems?: string[]; ms?: number }) => {
        if (m.started !== undefined) current = { i: m.started, how: m.how ?? "", at: Date.now() };
        if (m.done === undefined) return;
        const file = SEEDS[Math.floor(m.done / perFile)];
        if ((m.ms ?? 0) > slowest.ms) slowest = { ms: m.ms ?? 0, what: `${file} (${current.how})` };
        for (const p of m.problems ?? []) {
          failures.push({ case: m.done, file, how: current.how, outcome: p, ms: m.ms ?? 0 });
          console.log(`THREW case ${m.done} ${file} (${current.how}): ${p}`);
        }
        next = m.done + 1;
        if (next % 40 === 0) console.log(`${next}/${total}`);
        if (next >= total) {
          clearInterval(watchdog);
          worker.terminate().then(() => resolve());
        } else worker.postMessage(next);
      });
      worker.on("error", (err) => {
        if (current.i < 0) throw err;
        failures.push({
          case: current.i,
          file: SEEDS[Math.floor(current.i / perFile)],
          how: current.how,
          outcome: `worker died: ${err.message}`,
          ms: 0,
        });
        console.log(`DIED case ${current.i}: ${err.message}`);
        next = current.i + 1;
        clearInterval(watchdog);
        resolve();
      });
      worker.postMessage(next);
    });
  }
  console.log(`${total} cases, ${failures.length} failures; slowest ${Math.round(slowest.ms)} ms: ${slowest.what}`);
  process.exitCode = failures.length ? 1 : 0;
}

if (isMainThread) await main();
else await runWorker();

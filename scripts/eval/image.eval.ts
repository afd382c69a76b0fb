/**
 * `npm run eval` section for the image detectors. Runs every image detector on
 *   - untouched camera photos (EXIF Software empty or camera firmware) from ../shared/data,
 *   - editor-resaved files (GIMP/Photoshop/Lightroom/Fireworks per EXIF, the GIMP-downscaled
 *     exif-samples/jpg/*.jpg, and the generated "resave" set),
 *   - generated manipulations (scripts/datagen/generate.py: splice, copy-move, blur, brightness),
 * and prints/writes per detector: false-positive rate, detection rates, and for map detectors
 * whether the flagged region overlaps the true one. Also re-checks the INDEX.tsv fields on every
 * file (including the 16 MB one the workerd tests cannot load).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeDocSection } from "../lib/doc-section.mjs";
import { sameAsExiftool } from "../lib/exiftool-values";
import { editorIn } from "../../src/scanner/images/editors";
import { editEvidence, exiftoolRecords } from "./camera-originals";
import { imageAnalyzers } from "../../src/scanner/forensics/image-analyzers";
import type { Analyzer, FileKind, Finding, ScanFile } from "../../src/scanner/types";
import { COPY_MOVE_MIN_BLOCKS, COPY_MOVE_RED_BLOCKS } from "../../src/scanner/forensics/copy-move";
import { SEAM_MIN_SIDE, SEAM_STEP } from "../../src/scanner/forensics/seam-search";
import { CONFIRMED_FRAME_THRESHOLDS, SEAM_THRESHOLDS, TONE_BOX_THRESHOLDS } from "../../src/scanner/forensics/seams";
import { INTERIOR_THRESHOLDS } from "../../src/scanner/forensics/frame-interior";
import { BLUR_THRESHOLDS } from "../../src/scanner/forensics/blur";
import { CONFIRMED_BLUR_THRESHOLDS } from "../../src/scanner/forensics/blur-interior";
import { BLUR_MIN_SIDE } from "../../src/scanner/forensics/blur-search";
import { ELA_THRESHOLDS } from "../../src/scanner/forensics/ela";
import {
  DOUBLE_COMPRESSION_MIN_BINS,
  DOUBLE_COMPRESSION_THRESHOLD,
  THUMBNAIL_CORRELATION_THRESHOLD,
  THUMBNAIL_CROP_CORRELATION,
} from "../../src/scanner/forensics/jpeg-structure";
import { DQ_MIN_FREQUENCIES, DQ_THRESHOLDS } from "../../src/scanner/forensics/jpeg-dq";
import { GHOST_THRESHOLDS } from "../../src/scanner/forensics/jpeg-ghost";
import { GRID_REST_SCORE, GRID_THRESHOLDS } from "../../src/scanner/forensics/jpeg-grid";
import { DATE_GAP_MINUTES } from "../../src/scanner/forensics/metadata";
import { NOISE_THRESHOLDS } from "../../src/scanner/forensics/noise";
import { FUSION_SCALES, FUSION_THRESHOLDS } from "../../src/scanner/forensics/region-fusion";

const DATA = "../shared/data";
const GENERATED = ".tmp/generated";
/**
 * Further generated sets, never used to choose a threshold: other crops, rectangles, patches and qualities. The
 * second was made on 2026-11-29 after seams 1.2 was chosen, when the first had been looked at for years of sessions;
 * the third on 2026-11-29 after blur 1.1 was chosen (whose diagnostic printed the first two), the fourth after blur 1.2
 * (whose diagnostic printed the third).
 */
const HELD_OUT = [
  { dir: ".tmp/generated-heldout", seed: 20261125 },
  { dir: ".tmp/generated-heldout-2", seed: 20261129 },
  { dir: ".tmp/generated-heldout-3", seed: 20261130 },
  { dir: ".tmp/generated-heldout-4", seed: 20261201 },
];

type Case = { file: string; kind: string; region: Outcome["truth"] };
/** The generated cases in `dir` (made by scripts/datagen/generate.py with `seed` when missing). */
function generatedCases(dir: string, seed?: number): Case[] {
  if (!existsSync(join(dir, "manifest.json"))) {
    const args = ["scripts/datagen/generate.py", dir, ...(seed ? ["--seed", String(seed)] : [])];
    const r = spawnSync("/usr/bin/python3", args, { stdio: "inherit" });
    if (r.status !== 0) throw new Error("datagen failed (needs Debian python3-opencv)");
  }
  return (JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { cases: Case[] }).cases;
}

type Row = Record<string, string>;
function index(folder: string): Row[] {
  const [header, ...lines] = readFileSync(join(DATA, folder, "INDEX.tsv"), "utf8")
    .trim()
    .split("\n");
  const cols = header.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i], v])));
}

function kindOf(b: Uint8Array): FileKind {
  if (b[0] === 0xff && b[1] === 0xd8) return "jpeg";
  if (b[0] === 0x89 && b[1] === 0x50) return "png";
  if ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)) return "tiff";
  if (String.fromCharCode(...b.subarray(4, 8)) === "ftyp") return "heic";
  return "unknown";
}

function scanFile(path: string): ScanFile {
  const bytes = new Uint8Array(readFileSync(path));
  const kind = kindOf(bytes);
  return {
    name: path.split("/").pop() as string,
    bytes,
    kind,
    mimeType: `image/${kind}`,
    sha256: "",
    size: bytes.length,
  };
}

const ctx = { language: "en" as const, issueDate: null, now: new Date("2026-11-22T00:00:00Z"), caseNumber: "EVAL" };
const flagged = (fs: Finding[]) => fs.some((f) => f.level === "Yellow" || f.level === "Red");

interface Outcome {
  file: string;
  set: string;
  perDetector: Record<
    string,
    {
      flagged: boolean;
      assessed: boolean;
      codes: string[];
      region?: { x: number; y: number; width: number; height: number } | null;
      regions?: { x: number; y: number; width: number; height: number }[];
    }
  >;
  truth?: { x: number; y: number; w: number; h: number } | null;
}

async function run(path: string, set: string, truth?: Outcome["truth"]): Promise<Outcome> {
  const file = scanFile(path);
  const perDetector: Outcome["perDetector"] = {};
  for (const a of imageAnalyzers as Analyzer[]) {
    if (!a.appliesTo(file)) continue;
    const r = await a.analyze(file, ctx);
    const regionFinding = r.findings.find(
      (f) =>
        f.evidence &&
        typeof f.evidence === "object" &&
        "region" in f.evidence &&
        (f.level === "Yellow" || f.level === "Red"),
    );
    type Box = NonNullable<Outcome["perDetector"][string]["region"]>;
    const regions = [regionFinding?.evidence.region, regionFinding?.evidence.source].filter(Boolean) as Box[];
    perDetector[a.id] = {
      flagged: flagged(r.findings),
      assessed: r.assessed,
      codes: r.findings.filter((f) => f.level === "Yellow" || f.level === "Red").map((f) => f.code),
      region: regions[0] ?? null,
      regions,
    };
  }
  return { file: path, set, perDetector, truth };
}

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  t: { x: number; y: number; w: number; h: number },
): boolean {
  return a.x < t.x + t.w && t.x < a.x + a.width && a.y < t.y + t.h && t.y < a.y + a.height;
}

function overlapsSource(a: { x: number; y: number; width: number; height: number }, t: Outcome["truth"]): boolean {
  const src = (t as { source?: { x: number; y: number } } | null)?.source;
  return Boolean(t && src && overlaps(a, { x: src.x, y: src.y, w: t.w, h: t.h }));
}

function sets(): { untouched: string[]; edited: Map<string, string[]>; resaved: string[] } {
  const camera: string[] = [];
  const resaved: string[] = [];
  for (const folder of ["photos", "exif-samples"]) {
    for (const row of index(folder)) {
      const p = join(DATA, folder, row.path);
      if (!/\.jpe?g$/i.test(p) || /invalid|corrupted|xmp\//.test(p)) continue;
      const gimpDownscaled = folder === "exif-samples" && /^jpg\/[^/]+$/.test(row.path);
      if (editorIn(row.Software) || gimpDownscaled) resaved.push(p);
      else if (row.Make !== "-") camera.push(p);
    }
  }
  // Untouched by evidence that is not ours (exiftool, camera-originals.ts); the rest is "camera, edited".
  const records = exiftoolRecords(camera);
  const edited = new Map<string, string[]>();
  for (const p of camera) {
    const record = records.get(p);
    if (!record) throw new Error(`exiftool did not read ${p}`);
    const why = editEvidence(record);
    if (why.length) edited.set(p, why);
  }
  return { untouched: camera.filter((p) => !edited.has(p)), edited, resaved };
}

/** Make/Model/Software/DateTimeOriginal/width/height vs exiftool on every indexed file (the workerd test cannot load > 12 MB). */
async function indexAgreement(): Promise<{ files: number; mismatches: string[] }> {
  const metadata = (imageAnalyzers as Analyzer[]).find((a) => a.id === "metadata") as Analyzer;
  const mismatches: string[] = [];
  let files = 0;
  for (const folder of ["photos", "exif-samples"]) {
    for (const row of index(folder)) {
      const r = await metadata.analyze(scanFile(join(DATA, folder, row.path)), ctx);
      files++;
      const m = r.metadata ?? {};
      for (const [col, key] of [
        ["Make", "make"],
        ["Model", "model"],
        ["Software", "software"],
        ["DateTimeOriginal", "dateTimeOriginal"],
        ["width", "width"],
        ["height", "height"],
      ]) {
        const expected = row[col] === "-" ? null : row[col];
        const actual = m[key] === null || m[key] === undefined ? null : String(m[key]).trim();
        if (!sameAsExiftool(expected, actual))
          mismatches.push(`${folder}/${row.path} ${col}: exiftool ${expected} / ours ${actual}`);
      }
    }
  }
  return { files, mismatches };
}

/** A 0–1 threshold as a percentage without binary-fraction noise (0.55 → 55). */
const percentOf = (share: number) => Number((share * 100).toFixed(1));

async function main(): Promise<void> {
  const manifest = { cases: generatedCases(GENERATED) };
  const heldOutCases = HELD_OUT.map((h) => generatedCases(h.dir, h.seed));
  const agreement = await indexAgreement();
  console.log(`INDEX.tsv agreement: ${agreement.files} files, ${agreement.mismatches.length} field mismatches`);
  for (const m of agreement.mismatches) console.log(`  ${m}`);
  const { untouched, edited, resaved } = sets();
  const outcomes: Outcome[] = [];
  for (const p of untouched) outcomes.push(await run(p, "untouched"));
  for (const p of edited.keys()) outcomes.push(await run(p, "camera-edited"));
  for (const p of resaved) outcomes.push(await run(p, "resaved-real"));
  for (const c of manifest.cases)
    outcomes.push(
      await run(join(GENERATED, c.file), c.kind === "resave" ? "resaved-generated" : `manip-${c.kind}`, c.region),
    );
  const heldOut: Outcome[][] = [];
  for (const [i, cases] of heldOutCases.entries()) {
    heldOut.push([]);
    for (const c of cases)
      heldOut[i].push(
        await run(
          join(HELD_OUT[i].dir, c.file),
          c.kind === "resave" ? "resaved-generated" : `manip-${c.kind}`,
          c.region,
        ),
      );
  }
  // Per-file outcomes for threshold sweeps (scripts/eval/fusion-sweep.ts): not committed.
  writeFileSync(join(".tmp", "image-eval-outcomes.json"), JSON.stringify(outcomes));
  heldOut.forEach((h, i) =>
    writeFileSync(join(".tmp", `image-eval-heldout${i ? `-${i + 1}` : ""}.json`), JSON.stringify(h)),
  );
  const detectors = [...new Set(outcomes.flatMap((o) => Object.keys(o.perDetector)))];
  const setNames = [...new Set(outcomes.map((o) => o.set))];
  // OpenCV writes no EXIF: the metadata detector on generated files measures the generator, not the edit.
  const counts = (o: Outcome, d: string) => !(d === "metadata" && o.file.startsWith(GENERATED));
  const rate = (os: Outcome[], d: string) => {
    const applicable = os.filter((o) => o.perDetector[d] && counts(o, d));
    if (!applicable.length && os.some((o) => o.perDetector[d])) return "n/a";
    const n = applicable.filter((o) => o.perDetector[d].flagged).length;
    return applicable.length ? `${((100 * n) / applicable.length).toFixed(0)} % (${n}/${applicable.length})` : "–";
  };
  const anyFlag = (o: Outcome) => Object.entries(o.perDetector).some(([d, v]) => v.flagged && counts(o, d));
  const overall = (os: Outcome[]) =>
    `${((100 * os.filter(anyFlag).length) / Math.max(1, os.length)).toFixed(0)} % (${os.filter(anyFlag).length}/${os.length})`;
  const header = `| detector | ${setNames.join(" | ")} |\n|---|${setNames.map(() => "---").join("|")}|`;
  const lines = detectors.map(
    (d) =>
      `| ${d} | ${setNames
        .map((s) =>
          rate(
            outcomes.filter((o) => o.set === s),
            d,
          ),
        )
        .join(" | ")} |`,
  );
  lines.push(`| **any detector** | ${setNames.map((s) => overall(outcomes.filter((o) => o.set === s))).join(" | ")} |`);
  // The must-hold counts a manipulation as found when a Yellow/Red region lies on the true one (issue 17).
  const onTruth = (o: Outcome) =>
    Object.values(o.perDetector).some(
      (v) =>
        v.flagged &&
        (v.regions ?? []).some(
          (r) => overlaps(r, o.truth as NonNullable<Outcome["truth"]>) || overlapsSource(r, o.truth),
        ),
    );
  const share = (n: number, of: number) => `${((100 * n) / of).toFixed(0)} % (${n}/${of})`;
  const locatedIn = (from: Outcome[], s: string) => {
    const os = from.filter((o) => o.set === s && o.truth);
    return s.startsWith("manip") && os.length ? share(os.filter(onTruth).length, os.length) : "–";
  };
  lines.push(
    `| **located** (a Yellow/Red region on the true one) | ${setNames.map((s) => locatedIn(outcomes, s)).join(" | ")} |`,
  );
  // The same generator with another seed: thresholds were chosen on the first set only.
  const generatedSets = setNames.filter((s) => s.startsWith("manip") || s === "resaved-generated");
  const heldOutTable = [
    `| held-out | ${generatedSets.join(" | ")} |`,
    `|---|${generatedSets.map(() => "---").join("|")}|`,
    ...HELD_OUT.flatMap((h, i) => [
      `| **any detector**, seed ${h.seed} | ${generatedSets.map((s) => overall(heldOut[i].filter((o) => o.set === s))).join(" | ")} |`,
      `| **located**, seed ${h.seed} | ${generatedSets.map((s) => locatedIn(heldOut[i], s)).join(" | ")} |`,
    ]),
    // Sets of 26 swing by ± 15 points; the pooled rate is the steadier estimate.
    `| **located**, all ${HELD_OUT.length} pooled | ${generatedSets.map((s) => locatedIn(heldOut.flat(), s)).join(" | ")} |`,
  ].join("\n");
  console.log(heldOutTable);
  const located: string[] = [];
  for (const d of [
    "ela",
    "noise",
    "jpeg-dq",
    "jpeg-ghost",
    "jpeg-grid",
    "region-fusion",
    "copy-move",
    "seams",
    "blur",
  ]) {
    const hits = outcomes.filter(
      (o) => o.set.startsWith("manip") && o.truth && o.perDetector[d]?.flagged && o.perDetector[d].region,
    );
    // Copy-move reports both places (copy and source); either may be the one the generator calls the region.
    const ok = hits.filter((o) =>
      (o.perDetector[d].regions ?? []).some(
        (r) => overlaps(r, o.truth as NonNullable<Outcome["truth"]>) || overlapsSource(r, o.truth),
      ),
    );
    located.push(
      `- ${d}: ${ok.length}/${hits.length} flagged manipulations have the reported region overlapping the true one`,
    );
  }
  const table = [header, ...lines].join("\n");
  // Which findings make up the false positives (the "untouched" label only means "no editor named").
  const fpCodes = new Map<string, number>();
  for (const o of outcomes.filter((x) => x.set === "untouched"))
    for (const v of Object.values(o.perDetector))
      for (const c of new Set(v.codes)) fpCodes.set(c, (fpCodes.get(c) ?? 0) + 1);
  const fpBreakdown = [...fpCodes.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(", ");
  console.log(`untouched, Yellow/Red findings by code: ${fpBreakdown}`);
  // Each untouched file that is Yellow/Red, with its codes: the reader judges whether the finding is right.
  const flaggedCodes = (o: Outcome) => [
    ...new Set(
      Object.entries(o.perDetector)
        .filter(([d, v]) => v.flagged && counts(o, d))
        .flatMap(([, v]) => v.codes),
    ),
  ];
  const fpFiles = outcomes
    .filter((o) => o.set === "untouched" && anyFlag(o))
    .map((o) => `- ${o.file.replace(`${DATA}/`, "")}: ${flaggedCodes(o).join(", ")}`);
  console.log(table);
  console.log(located.join("\n"));
  for (const o of outcomes.filter((x) => x.set === "untouched")) {
    const why = Object.entries(o.perDetector)
      .filter(([, v]) => v.flagged)
      .map(([k, v]) => `${k}:${v.codes.join(",")}`);
    if (why.length) console.log(`FP ${o.file}: ${why.join(" ")}`);
  }
  const md = `### Image detectors: evaluation (\`npm run eval\`, scripts/eval/image.eval.ts)

Rows: share of files with at least one Yellow/Red finding from the detector. Columns:
\`untouched\` = ${untouched.length} camera photos that exiftool shows unedited (false-positive rate; the rule, applied to
every camera JPEG alike, is in scripts/eval/camera-originals.ts: EXIF Software, XMP CreatorTool and history, and
Photoshop's image resources name no editor, and the EXIF pixel size, where recorded, is the picture's own),
\`camera-edited\` = ${edited.size} camera photos that fail the rule (listed below with exiftool's evidence),
\`resaved-real\` = ${resaved.length} files saved by GIMP/Photoshop/Lightroom/Fireworks (EXIF) or GIMP-downscaled,
\`resaved-generated\` = generated crops re-saved with OpenCV at quality 80–95, \`manip-*\` = generated local manipulations
(scripts/datagen/generate.py, seed 20261122; ${manifest.cases.length} files). \`metadata\` is n/a on generated files
(OpenCV writes no EXIF, so "no camera metadata" would fire on every one of them); "any detector" excludes it there.

INDEX.tsv check (Make, Model, Software, DateTimeOriginal, width, height vs exiftool, all ${agreement.files} indexed files
incl. the 16 MB one): ${agreement.mismatches.length} mismatches${agreement.mismatches.length ? `:\n${agreement.mismatches.map((m) => `- ${m}`).join("\n")}` : "."}
Values that both parse as numbers are compared as numbers: INDEX.tsv went through \`exiftool -j\`, whose JSON
turned Software "1.00" (jpg/tests/35-empty.jpg) into 1.0. Make/Model/DateTimeOriginal that only vendor blocks hold
are read as exiftool reads them (src/scanner/images/vendor/): Canon CIFF in APP0 (sony-powershota5.jpg),
APP12 "Picture Info" (olympus-d320l.jpg) and the Reconyx maker note (Reconyx_HC500_Hyperfire.jpg).

${table}

The same detectors on ${HELD_OUT.length} further generated sets (\`scripts/datagen/generate.py --seed ${HELD_OUT.map((h) => h.seed).join("`, `--seed ")}\`:
other crops, edit rectangles, pasted patches and qualities from the same source photos), which no threshold was chosen on
(the second was made on 2026-11-29 after seams 1.2 was chosen; blur 1.1's diagnostic printed the first two beside the
seed, blur 1.2's the third; the fourth was made after both, on 2026-11-29, and looked at only in this table):

${heldOutTable}

Yellow/Red findings on the untouched set, by code (files): ${fpBreakdown}. The files (what each one is:
section "Untouched photos that stay Yellow or Red" above):
${fpFiles.join("\n")}

The \`camera-edited\` files, exiftool's evidence, and what the detectors say (Yellow/Red codes):
${[...edited.entries()].map(([p, why]) => `- ${p.replace(`${DATA}/`, "")}: ${why.join("; ")} → ${flaggedCodes(outcomes.find((o) => o.file === p) as Outcome).join(", ") || "Green"}`).join("\n")}

Thresholds in force for this run: ELA block score ${ELA_THRESHOLDS.blockScore}, region ≥ ${ELA_THRESHOLDS.minShare * 100} % / ${ELA_THRESHOLDS.minBlocks} blocks, Red ≥ ${ELA_THRESHOLDS.redScore};
noise (against blocks of the same texture) block score ${NOISE_THRESHOLDS.blockScore}, region ≥ ${NOISE_THRESHOLDS.minShare * 100} % / ${NOISE_THRESHOLDS.minBlocks} blocks, Red ≥ ${NOISE_THRESHOLDS.redScore};
double quantisation (≥ ${DQ_MIN_FREQUENCIES} fitted frequencies; 9 × 9-block window z) block score ${DQ_THRESHOLDS.blockScore}, region ≥ ${DQ_THRESHOLDS.minShare * 100} % / ${DQ_THRESHOLDS.minBlocks} blocks with mean ≥ ${DQ_THRESHOLDS.minMeanScore}, Red ≥ ${DQ_THRESHOLDS.redScore};
fusion: two families at ≥ ${FUSION_THRESHOLDS.blockScore} of their own block scores (ELA's other direction at −${FUSION_SCALES.elaLow}, double quantisation at ${FUSION_SCALES.dq}), region ≥ ${FUSION_THRESHOLDS.minShare * 100} % / ${FUSION_THRESHOLDS.minBlocks} blocks, Red ≥ ${FUSION_THRESHOLDS.redScore};
JPEG ghosts block score ${GHOST_THRESHOLDS.blockScore}, region ≥ ${GHOST_THRESHOLDS.minShare * 100} % / ${GHOST_THRESHOLDS.minBlocks} blocks with mean ≥ ${GHOST_THRESHOLDS.minMeanScore}, Red ≥ ${GHOST_THRESHOLDS.redScore};
earlier JPEG grid (window score, a neighbour on the same offset) block score ${GRID_THRESHOLDS.blockScore}, region ≥ ${GRID_THRESHOLDS.minShare * 100} % / ${GRID_THRESHOLDS.minBlocks} blocks with mean ≥ ${GRID_THRESHOLDS.minMeanScore}, Red ≥ ${GRID_THRESHOLDS.redScore}, not when the rest of the picture scores ≥ ${GRID_REST_SCORE} on the same grid;
copy-move ≥ ${COPY_MOVE_MIN_BLOCKS} copied block positions (Red ≥ ${COPY_MOVE_RED_BLOCKS}); cut edges: a rectangle (sides ≥ ${SEAM_MIN_SIDE} px) whose weakest side is a one-pixel step of ≥ ${SEAM_STEP} grey levels along ≥ ${percentOf(SEAM_THRESHOLDS.yellow)} % of it (Red ≥ ${percentOf(SEAM_THRESHOLDS.red)} %), or whose four sides are one-pixel tone steps of one sign, each with a step residual t ≥ ${TONE_BOX_THRESHOLDS.yellow} along it (Red ≥ ${TONE_BOX_THRESHOLDS.red}), or a weaker frame (≥ ${percentOf(CONFIRMED_FRAME_THRESHOLDS.frame)} %) or tone box (t ≥ ${CONFIRMED_FRAME_THRESHOLDS.toneBox}) whose inside is the highest area of its size on one family map (mean ≥ ${INTERIOR_THRESHOLDS.minMean}, ≥ ${INTERIOR_THRESHOLDS.minWindows} windows; Yellow only); blurred rectangles: a rectangle (sides ≥ ${BLUR_MIN_SIDE} px) whose weakest side is a sharpness step facing inwards along ≥ ${percentOf(BLUR_THRESHOLDS.yellow)} % of it (Red ≥ ${percentOf(BLUR_THRESHOLDS.red)} %), or a weaker one (≥ ${percentOf(CONFIRMED_BLUR_THRESHOLDS.minScore)} %) whose inside has ≥ ${CONFIRMED_BLUR_THRESHOLDS.ringRatio} × less one-pixel detail than the ring outside each side (Yellow only); double compression > ${DOUBLE_COMPRESSION_THRESHOLD} over ≥ ${DOUBLE_COMPRESSION_MIN_BINS} bins;
EXIF preview correlation < ${THUMBNAIL_CORRELATION_THRESHOLD} (a crop when a window of the preview matches ≥ ${THUMBNAIL_CROP_CORRELATION}); date gap > ${DATE_GAP_MINUTES} min. (Why these values: section "Thresholds and the figures behind them" above.)

Localisation (generated cases with a known region):
${located.join("\n")}
`;
  writeDocSection("docs/forensics.md", "image-eval", md, "# Forensics");
}

await main();

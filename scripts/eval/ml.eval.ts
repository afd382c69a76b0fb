#!/usr/bin/env node
// `npm run eval ml`: reproduces the learned detectors' held-out figures from the COMMITTED models.
// 1. /usr/bin/python3 models/training/export_heldout.py regenerates the held-out sets (fixed seeds,
//    only source photos never used in training) as raw arrays;
// 2. the committed .onnx files run on them through onnxruntime-web (Node build, same wasm kernels);
// 3. the Worker's own decode and preprocessing (src/scanner/ml/raster.ts, *-input.ts) scores every real
//    photo of ../shared/data as a whole image, for the false-alarm rates the thresholds rest on.
// Writes the `ml-models` section of docs/forensics.md. Needs Debian python3-opencv + python3-torch.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ort from "onnxruntime-web";
import { writeDocSection } from "../lib/doc-section.mjs";
import { JpegDataError } from "../../src/scanner/images/jpeg-strip-decoder";
import { decodeToSource } from "../../src/scanner/ml/raster";
import { aggregatePatchScores, PATCH, recapturePatches } from "../../src/scanner/ml/recapture-input";
import { modelScale, tiles } from "../../src/scanner/ml/manipulation-input";
import { MANIPULATION_YELLOW, RECAPTURE_THRESHOLDS } from "../../src/scanner/ml/thresholds";

ort.env.wasm.numThreads = 1;
const manifest = JSON.parse(readFileSync("models/manifest.json", "utf8"));
const card = (key: string) => JSON.parse(readFileSync(`models/${key}.metrics.json`, "utf8"));

function auc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const idx = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  const ranks = new Float64Array(scores.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && scores[idx[j + 1]] === scores[idx[i]]) j++;
    for (let k = i; k <= j; k++) ranks[idx[k]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  let pos = 0;
  let rankSum = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i]) pos++, (rankSum += ranks[i]);
  const neg = labels.length - pos;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

const rate = (xs: number[], t: number) => (xs.length ? xs.filter((x) => x >= t).length / xs.length : NaN);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const f4 = (x: number) => x.toFixed(4);

/** NHWC uint8 patch i → NCHW float 0–1, as the Worker feeds it. */
function nchw(x: Uint8Array, i: number, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  const base = i * plane * 3;
  for (let p = 0; p < plane; p++) for (let c = 0; c < 3; c++) out[c * plane + p] = x[base + p * 3 + c] / 255;
  return out;
}

async function heldoutRecapture(dir: string, meta: { count: number; size: number; sourcePhotos: number }) {
  const session = await ort.InferenceSession.create(readFileSync("models/recapture.onnx"));
  const x = new Uint8Array(readFileSync(join(dir, "recapture-x.u8")));
  const y = new Uint8Array(readFileSync(join(dir, "recapture-y.u8")));
  const scores = new Float32Array(meta.count);
  const batch = 16;
  for (let start = 0; start < meta.count; start += batch) {
    const n = Math.min(batch, meta.count - start);
    const data = new Float32Array(n * 3 * meta.size * meta.size);
    for (let i = 0; i < n; i++) data.set(nchw(x, start + i, meta.size), i * 3 * meta.size * meta.size);
    const out = await session.run({ image: new ort.Tensor("float32", data, [n, 3, meta.size, meta.size]) });
    scores.set(out.probability.data as Float32Array, start);
  }
  const neg = Array.from(scores).filter((_, i) => !y[i]);
  const pos = Array.from(scores).filter((_, i) => y[i]);
  return {
    auc: auc(scores, y),
    accuracy: Array.from(scores).filter((s, i) => s >= 0.5 === (y[i] === 1)).length / meta.count,
    fprYellow: rate(neg, RECAPTURE_THRESHOLDS.yellow),
    fprRed: rate(neg, RECAPTURE_THRESHOLDS.red),
    tprYellow: rate(pos, RECAPTURE_THRESHOLDS.yellow),
    tprRed: rate(pos, RECAPTURE_THRESHOLDS.red),
    session,
  };
}

async function heldoutManipulation(dir: string, meta: { count: number; size: number; sourcePhotos: number }) {
  const session = await ort.InferenceSession.create(readFileSync("models/manipulation.onnx"));
  const x = new Uint8Array(readFileSync(join(dir, "manipulation-x.u8")));
  const y = new Uint8Array(readFileSync(join(dir, "manipulation-y.u8")));
  const cellsTruth = new Uint8Array(readFileSync(join(dir, "manipulation-cells.u8")));
  const cellCount = (meta.size / 4) ** 2;
  const scores = new Float32Array(meta.count);
  const pixelScores: number[] = [];
  const pixelTruth: number[] = [];
  const ious: number[] = [];
  for (let i = 0; i < meta.count; i++) {
    const out = await session.run({
      image: new ort.Tensor("float32", nchw(x, i, meta.size), [1, 3, meta.size, meta.size]),
    });
    scores[i] = (out.score.data as Float32Array)[0];
    if (!y[i]) continue;
    const heat = out.heatmap.data as Float32Array;
    let inter = 0;
    let union = 0;
    for (let c = 0; c < cellCount; c++) {
      const truth = cellsTruth[i * cellCount + c];
      pixelScores.push(heat[c]);
      pixelTruth.push(truth);
      const pred = heat[c] >= 0.5 ? 1 : 0;
      inter += pred & truth;
      union += pred | truth;
    }
    ious.push(union ? inter / union : 1);
  }
  const neg = Array.from(scores).filter((_, i) => !y[i]);
  const pos = Array.from(scores).filter((_, i) => y[i]);
  return {
    auc: auc(scores, y),
    accuracy: Array.from(scores).filter((s, i) => s >= 0.5 === (y[i] === 1)).length / meta.count,
    pixelAuc: auc(pixelScores, pixelTruth),
    meanIou: ious.reduce((a, b) => a + b, 0) / ious.length,
    fprYellow: rate(neg, MANIPULATION_YELLOW),
    tprYellow: rate(pos, MANIPULATION_YELLOW),
    session,
  };
}

/** Whole real photos through the Worker's preprocessing: image-level false-alarm rates. */
async function realPhotos(paths: string[], recapture: ort.InferenceSession, manipulation: ort.InferenceSession) {
  const rows: Array<{ path: string; recapture: number | null; manipulation: number }> = [];
  for (const path of paths) {
    let source: ReturnType<typeof decodeToSource>;
    try {
      source = decodeToSource(new Uint8Array(readFileSync(path)));
    } catch {
      undecodable.push(path); // the header is unusable: in the Worker the thumbnail gate stops it first
      continue;
    }
    try {
      let recaptureScore: number | null = null;
      if (source.width >= PATCH && source.height >= PATCH) {
        const { tensor, origins } = recapturePatches(source);
        if (origins.length) {
          const out = await recapture.run({
            image: new ort.Tensor("float32", tensor, [origins.length, 3, PATCH, PATCH]),
          });
          recaptureScore = aggregatePatchScores(out.probability.data as Float32Array);
        }
      }
      const scaled = modelScale(source);
      let manipulationScore = 0;
      for (const tile of tiles(scaled)) {
        const out = await manipulation.run({
          image: new ort.Tensor("float32", tile.tensor, [1, 3, tile.height, tile.width]),
        });
        manipulationScore = Math.max(manipulationScore, (out.score.data as Float32Array)[0]);
      }
      rows.push({ path, recapture: recaptureScore, manipulation: manipulationScore });
    } catch (error) {
      if (!(error instanceof JpegDataError)) throw error;
      undecodable.push(path); // damaged behind the header (found while streaming): the thumbnail gate stops it first
    } finally {
      source.close();
    }
  }
  return rows;
}

const undecodable: string[] = [];
// ML_HELDOUT_DIR keeps the regenerated sets between runs (they take minutes to synthesise).
const cached = process.env.ML_HELDOUT_DIR;
const dir = cached ?? mkdtempSync(join(tmpdir(), "ml-eval-"));
try {
  if (!existsSync(join(dir, "meta.json"))) {
    console.log("regenerating held-out sets (python) …");
    const py = spawnSync("/usr/bin/python3", ["models/training/export_heldout.py", dir], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (py.status !== 0) throw new Error("export_heldout.py failed (needs Debian python3-opencv, python3-torch)");
  }
  const meta = JSON.parse(readFileSync(join(dir, "meta.json"), "utf8"));
  const rec = await heldoutRecapture(dir, meta.recapture);
  const man = await heldoutManipulation(dir, meta.manipulation);
  const held = await realPhotos(meta.heldoutPhotos, rec.session, man.session);
  const train = await realPhotos(meta.trainPhotos, rec.session, man.session);
  const summary = (rows: typeof held) => {
    const r = rows.map((x) => x.recapture).filter((x): x is number => x !== null);
    const m = rows.map((x) => x.manipulation);
    return {
      n: rows.length,
      recYellow: rate(r, RECAPTURE_THRESHOLDS.yellow),
      recRed: rate(r, RECAPTURE_THRESHOLDS.red),
      manYellow: rate(m, MANIPULATION_YELLOW),
    };
  };
  const h = summary(held);
  const t = summary(train);
  const rc = card("recapture");
  const mc = card("manipulation");
  const figures = {
    recapture: { auc: rec.auc, accuracy: rec.accuracy },
    manipulation: { auc: man.auc, accuracy: man.accuracy, pixelAuc: man.pixelAuc, meanIou: man.meanIou },
  };
  console.log(JSON.stringify(figures, null, 1));
  const md = `
## Learned detectors (held-out figures)

Generated by \`npm run eval ml\` (scripts/eval/ml.eval.ts) from the committed models
(recapture ${manifest.recapture.version}, sha256 ${manifest.recapture.sha256.slice(0, 12)}; manipulation
${manifest.manipulation.version}, sha256 ${manifest.manipulation.sha256.slice(0, 12)}). The held-out sets are
regenerated with the training code's seeds from **source photos never used in training**
(${meta.recapture.sourcePhotos} photos; split by a hash of the photo name, see models/training/common.py).
"Training run" is the figure the training script logged (models/*.metrics.json); the two must agree.

### Screen/print recapture (models/recapture.md)

| held-out patches (${meta.recapture.count}, half simulated recaptures) | this run | training run |
|---|---|---|
| ROC AUC | ${f4(rec.auc)} | ${rc.auc} |
| accuracy at 0.5 | ${f4(rec.accuracy)} | ${rc.accuracy_at_0_5} |
| real/confounder patches ≥ Yellow (${RECAPTURE_THRESHOLDS.yellow}) | ${pct(rec.fprYellow)} | |
| real/confounder patches ≥ Red (${RECAPTURE_THRESHOLDS.red}) | ${pct(rec.fprRed)} | |
| simulated recaptures ≥ Yellow / ≥ Red | ${pct(rec.tprYellow)} / ${pct(rec.tprRed)} | |

### Manipulation localisation (models/manipulation.md)

| held-out 128 px tiles (${meta.manipulation.count}, half with a synthetic edit) | this run | training run |
|---|---|---|
| image-level ROC AUC | ${f4(man.auc)} | ${mc.image_auc} |
| image-level accuracy at 0.5 | ${f4(man.accuracy)} | ${mc.image_accuracy_at_0_5} |
| pixel-level ROC AUC (heatmap cells of edited tiles) | ${f4(man.pixelAuc)} | ${mc.pixel_auc} |
| mean IoU at 0.5 (edited tiles) | ${f4(man.meanIou)} | ${mc.mean_iou_at_0_5} |
| clean tiles ≥ Yellow (${MANIPULATION_YELLOW}) | ${pct(man.fprYellow)} | |
| edited tiles ≥ Yellow | ${pct(man.tprYellow)} | |

### Whole real photos through the Worker's preprocessing (false alarms)

Every JPEG the split uses, scored as a whole image exactly as the analyzers do (the Worker's decoder: streamed strips for
baseline JPEGs, identical to photon's pixels; patch grid / box-downscale + tiles). None shows a screen; none is known to be locally manipulated (some were
globally edited in GIMP/Photoshop, see shared/data/MANIFEST.md), so every Yellow/Red here is a false alarm.

| photos | n | recapture ≥ Yellow | recapture ≥ Red | manipulation ≥ Yellow |
|---|---|---|---|---|
| held-out | ${h.n} | ${pct(h.recYellow)} | ${pct(h.recRed)} | ${pct(h.manYellow)} |
| training | ${t.n} | ${pct(t.recYellow)} | ${pct(t.recRed)} | ${pct(t.manYellow)} |

${undecodable.length ? `Not decodable (skipped here; in the Worker the thumbnail gate reports them as \`-\`): ${undecodable.map((p) => p.split("/").pop()).join(", ")}.` : ""}

Highest whole-photo scores (held-out): ${held
    .slice()
    .sort((a, b) => (b.recapture ?? 0) - (a.recapture ?? 0))
    .slice(0, 3)
    .map((r) => `${r.path.split("/").pop()} recapture ${(r.recapture ?? 0).toFixed(2)}`)
    .join("; ")}; ${held
    .slice()
    .sort((a, b) => b.manipulation - a.manipulation)
    .slice(0, 3)
    .map((r) => `${r.path.split("/").pop()} manipulation ${r.manipulation.toFixed(2)}`)
    .join("; ")}.
`;
  writeDocSection("docs/forensics.md", "ml-models", md, "# Forensics");
  console.log(md);
} finally {
  if (!cached) rmSync(dir, { recursive: true, force: true });
}

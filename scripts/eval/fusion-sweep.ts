/**
 * Threshold sweep for the region detectors and their fusion (docs/forensics.md, "Thresholds"): reads the
 * per-file outcomes of the last `npm run eval image` (.tmp/image-eval-outcomes.json), computes every file's
 * ELA, noise, double-quantisation and ghost maps once (cached in .tmp/fusion-maps/), and prints, for each
 * setting, the files flagged per set (union with the other detectors' Yellow/Red) and the manipulations
 * located (a region on the true one). Usage: node --import tsx scripts/eval/fusion-sweep.ts [outcomes.json]
 * (default .tmp/image-eval-outcomes.json; .tmp/image-eval-heldout.json is the held-out seed).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blockMaps } from "../../src/scanner/images/block-analysis";
import { anomalyRegions } from "../../src/scanner/images/anomaly";
import { FUSION_SCALES, FUSION_THRESHOLDS, fusedScores, fusionInput } from "../../src/scanner/forensics/region-fusion";
import type { ScanFile } from "../../src/scanner/types";

type Box = { x: number; y: number; width: number; height: number };
interface Outcome {
  file: string;
  set: string;
  perDetector: Record<string, { flagged: boolean; regions?: Box[] }>;
  truth?: { x: number; y: number; w: number; h: number; source?: { x: number; y: number } } | null;
}
interface Maps {
  w: number;
  h: number;
  ela: Float32Array;
  noise: Float32Array;
  dq: Float32Array | null;
  ghost: Float32Array | null;
}

const CACHE = ".tmp/fusion-maps";

async function mapsOf(path: string): Promise<Maps | null> {
  const key = join(CACHE, `${path.replace(/[^a-zA-Z0-9]+/g, "_")}.json`);
  if (existsSync(key)) {
    const j = JSON.parse(readFileSync(key, "utf8"));
    const f = (v: number[] | null) => (v ? Float32Array.from(v, (x) => (x === null ? Number.NaN : x)) : null);
    return { w: j.w, h: j.h, ela: f(j.ela)!, noise: f(j.noise)!, dq: f(j.dq), ghost: f(j.ghost) };
  }
  const bytes = new Uint8Array(readFileSync(path));
  const bm = await blockMaps(bytes);
  if (!bm.ok) return null;
  const file = { name: path, bytes, kind: "jpeg", mimeType: "image/jpeg", sha256: "", size: bytes.length } as ScanFile;
  const maps: Maps = { w: bm.maps.blocksWide, h: bm.maps.blocksHigh, ...(await fusionInput(bm.maps, file)) };
  const arr = (a: Float32Array | null) =>
    a ? Array.from(a, (x) => (Number.isNaN(x) ? null : Number(x.toFixed(3)))) : null;
  writeFileSync(
    key,
    JSON.stringify({
      w: maps.w,
      h: maps.h,
      ela: arr(maps.ela),
      noise: arr(maps.noise),
      dq: arr(maps.dq),
      ghost: arr(maps.ghost),
    }),
  );
  return maps;
}

const overlaps = (a: Box, t: { x: number; y: number; w: number; h: number }) =>
  a.x < t.x + t.w && t.x < a.x + a.width && a.y < t.y + t.h && t.y < a.y + a.height;
function onTruth(r: Box, t: NonNullable<Outcome["truth"]>): boolean {
  return overlaps(r, t) || Boolean(t.source && overlaps(r, { x: t.source.x, y: t.source.y, w: t.w, h: t.h }));
}

async function main() {
  mkdirSync(CACHE, { recursive: true });
  const outcomes = JSON.parse(readFileSync(process.argv[2] ?? ".tmp/image-eval-outcomes.json", "utf8")) as Outcome[];
  const maps = new Map<string, Maps | null>();
  for (const o of outcomes) maps.set(o.file, await mapsOf(o.file));
  // Baseline (detectors as they are; metadata does not count on generated files).
  const counts = (o: Outcome, d: string) => !(d === "metadata" && o.file.startsWith(".tmp/"));
  // The other detectors as the last eval ran them (the fusion's own outcome left out).
  const others = (o: Outcome) => Object.entries(o.perDetector).filter(([d]) => d !== "region-fusion" && counts(o, d));
  const baseFlag = (o: Outcome) => others(o).some(([, v]) => v.flagged);
  const baseLocated = (o: Outcome) =>
    others(o).some(([, v]) => v.flagged && (v.regions ?? []).some((r) => onTruth(r, o.truth!)));
  const sets = [...new Set(outcomes.map((o) => o.set))];
  // Settings: the ones in force first, then a grid (ELA's other direction, agreement score, region size).
  const grid = [{ elaLow: FUSION_SCALES.elaLow, ...FUSION_THRESHOLDS }];
  for (const elaLow of [Number.POSITIVE_INFINITY, 1, 1.2, 1.5, 2])
    for (const blockScore of [0.5, 0.6, 0.7, 0.8])
      for (const minBlocks of [24, 48]) grid.push({ ...FUSION_THRESHOLDS, elaLow, blockScore, minBlocks });
  for (const t of grid) {
    const row: string[] = [];
    for (const s of sets) {
      const os = outcomes.filter((o) => o.set === s);
      let flagged = 0;
      let located = 0;
      let own = 0;
      for (const o of os) {
        const m = maps.get(o.file);
        const scores = m ? fusedScores(m, { ...FUSION_SCALES, elaLow: t.elaLow }) : null;
        const r =
          scores &&
          anomalyRegions(scores, m!.w, m!.h, t.blockScore).find(
            (x) => x.share <= t.maxShare && x.blocks >= t.minBlocks && x.share >= t.minShare,
          );
        const box = r ? { x: r.x * 8, y: r.y * 8, width: r.width * 8, height: r.height * 8 } : null;
        if (box) own++;
        if (baseFlag(o) || box) flagged++;
        if (o.truth && (baseLocated(o) || (box && onTruth(box, o.truth)))) located++;
      }
      row.push(s.startsWith("manip") ? `${s.slice(6)} located ${located}` : `${s} ${flagged}/${os.length}`);
      row[row.length - 1] += ` (fusion ${own})`;
    }
    console.log(`elaLow ${t.elaLow} agree ${t.blockScore} minBlocks ${t.minBlocks}: ${row.join(" | ")}`);
  }
}

await main();

#!/usr/bin/env node
// `npm run bench`: runs every scripts/bench/*.bench.{mjs,ts} in name order (TypeScript through tsx).
// Each script prints its figures and writes its own section of the docs (scripts/lib/doc-section.mjs).
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";

const only = process.argv[2];
const scripts = readdirSync("scripts/bench")
  .filter((f) => /\.bench\.(mjs|ts)$/.test(f) && (!only || f.includes(only)))
  .sort();
if (scripts.length === 0) console.log("no bench scripts found");
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script}`);
  const run = spawnSync("node", ["--import", "tsx", `scripts/bench/${script}`], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

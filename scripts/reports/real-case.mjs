#!/usr/bin/env node
// A real case through the real service: photos from ../shared/data, an edited invoice with an incremental
// update (scripts/datagen/pdf), a truncated JPEG and a file with German and Polish characters in its name,
// scanned with `language` de (or argv[3]) and Accept: application/json. Writes the JSON result and every
// attachment to the output folder (argv[2], default /tmp/report-case), so the reports can be rendered with
// poppler and looked at (docs/reports.md).
//   node scripts/reports/real-case.mjs /tmp/report-case de
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tmpdir } from "node:os";
import {
  PHOTOS,
  caseNumber,
  createAccount,
  expectOk,
  snapshot,
  startService,
  storedZip,
} from "../lib/service-bench.mjs";

const out = process.argv[2] ?? "/tmp/report-case";
const language = process.argv[3] ?? "de";
const port = Number(process.env.PORT ?? 8931);
const invoices = join(tmpdir(), "report-case-invoices");
if (!existsSync(join(invoices, "invoice-01-amount.pdf")))
  spawnSync("node", ["--import", "tsx", "scripts/datagen/pdf/generate.ts", invoices, "1"], { stdio: "inherit" });

const photo = (path) => readFileSync(join(PHOTOS, path));
const entries = {
  "Schadenfoto_Küche_äöüß.jpg": photo("opencv-doc/ela_modified.jpg"),
  "zdjęcie_łazienka_ąęłśż.jpg": photo("opencv-doc/ela_original.jpg"),
  "board.jpg": photo("opencv-doc/board.jpg"),
  "Rechnung_geändert.pdf": readFileSync(join(invoices, "invoice-01-whitebox.pdf")),
  "beschädigt.jpg": photo("opencv-doc/leuvenA.jpg").subarray(0, 20000),
};

const cwd = snapshot();
const persist = join(cwd, ".persist");
const service = await startService({ cwd, persist, port, logFile: join(tmpdir(), "report-case-wrangler.log") });
try {
  const base = `http://127.0.0.1:${port}`;
  const key = await createAccount(base, "Report case");
  const form = new FormData();
  form.append("file", new Blob([storedZip(entries)], { type: "application/zip" }), "claim.zip");
  const started = performance.now();
  const res = await fetch(`${base}/v2/scanner`, {
    method: "POST",
    headers: { "x-api-key": key, caseNumber: caseNumber("SCHADEN-2026"), language, accept: "application/json" },
    body: form,
  });
  const scan = { result: await expectOk(res, "scanner") };
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const { attachments = {}, ...result } = scan.result;
  writeFileSync(join(out, "result.json"), JSON.stringify(result, null, 2));
  for (const [category, list] of Object.entries(attachments)) {
    mkdirSync(join(out, category), { recursive: true });
    for (const a of list) writeFileSync(join(out, category, a.name), Buffer.from(a.data, "base64"));
  }
  console.log(
    `${Object.keys(result.Files).length} files, level ${result.suspicion_level}, ${((performance.now() - started) / 1000).toFixed(1)} s → ${out}`,
  );
} finally {
  await service.stop();
  rmSync(cwd, { recursive: true, force: true });
}

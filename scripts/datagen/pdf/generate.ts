// `node --import tsx scripts/datagen/pdf/generate.ts [outDir] [count]`: writes the generated
// invoices (untouched and edited) and the signed-then-modified files, plus an INDEX.tsv.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateInvoices, signedSources, signedThenModified } from "./corpus";

const outDir = process.argv[2] ?? "/tmp/pdf-datagen";
const count = Number(process.argv[3] ?? 10);
mkdirSync(outDir, { recursive: true });
const files = await generateInvoices(count);
for (const path of signedSources)
  files.push(
    await signedThenModified(path.split("/")[1], new Uint8Array(readFileSync(join("../shared/data/pdf", path)))),
  );
for (const f of files) writeFileSync(join(outDir, f.name), f.bytes);
writeFileSync(
  join(outDir, "INDEX.tsv"),
  `${["name\tedit\tnote", ...files.map((f) => `${f.name}\t${f.edit}\t${f.note}`)].join("\n")}\n`,
);
console.log(`${files.length} files written to ${outDir}`);

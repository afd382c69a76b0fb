#!/usr/bin/env node
// Compiles the AssemblyScript pixel kernels (wasm/assembly/*.ts) into wasm/kernels.wasm, which the
// Worker imports as a CompiledWasm module (wrangler.toml [[rules]]; src/scanner/images/wasm-kernels.ts).
// The module is committed, so `wrangler dev`, `wrangler deploy` and vitest work without a build step;
// it carries the SHA-256 of its sources in a custom section ("sources-sha256"), which
// test/unit/wasm-kernels.test.ts compares with the sources inside workerd (docs/wasm.md).
//
//   node scripts/build-wasm.mjs           rebuild when the sources' digest differs from the module's (npm install/start/test)
//   node scripts/build-wasm.mjs --force   rebuild unconditionally
//   node scripts/build-wasm.mjs --check   rebuild in memory and compare byte for byte; exit 1 when different (npm run typecheck)
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = join(root, "wasm/assembly");
const outFile = join(root, "wasm/kernels.wasm");
const DIGEST_SECTION = "sources-sha256";
/** SIMD (v128) on, optimised; no runtime (the kernels allocate nothing), no assertions (no imports). */
const ASC_FLAGS = ["--enable", "simd", "-O3", "--runtime", "stub", "--noAssert", "--baseDir", "wasm"];

/** SHA-256 over every source file (name, NUL, content, NUL; sorted by name), as scripts/build-browser.mjs. */
export function sourceDigest(files) {
  const hash = createHash("sha256");
  for (const [name, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    hash.update(`${name}\0${text}\0`);
  return hash.digest("hex");
}

function sources() {
  return readdirSync(sourceDir)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => [name, readFileSync(join(sourceDir, name), "utf8")]);
}

/** A wasm custom section (id 0): size, name length, name, payload (LEB128 lengths). */
function customSection(name, payload) {
  const leb = (n) => {
    const out = [];
    do {
      let byte = n & 0x7f;
      n >>>= 7;
      if (n) byte |= 0x80;
      out.push(byte);
    } while (n);
    return out;
  };
  const nameBytes = Buffer.from(name, "utf8");
  const body = Buffer.concat([Buffer.from(leb(nameBytes.length)), nameBytes, Buffer.from(payload, "utf8")]);
  return Buffer.concat([Buffer.from([0]), Buffer.from(leb(body.length)), body]);
}

async function build() {
  const asc = (await import("assemblyscript/asc")).default;
  let binary = null;
  const stderr = asc.createMemoryStream();
  const { error } = await asc.main(["assembly/index.ts", "--outFile", "kernels.wasm", ...ASC_FLAGS], {
    stdout: asc.createMemoryStream(),
    stderr,
    writeFile(name, contents) {
      if (name.endsWith("kernels.wasm")) binary = Buffer.from(contents);
    },
  });
  if (error || !binary) {
    console.error(stderr.toString());
    throw new Error(`asc failed: ${error?.message ?? "no output"}`);
  }
  return Buffer.concat([binary, customSection(DIGEST_SECTION, sourceDigest(sources()))]);
}

/** The digest recorded in a built module, or null. */
function recordedDigest(bytes) {
  try {
    const [section] = WebAssembly.Module.customSections(new WebAssembly.Module(bytes), DIGEST_SECTION);
    return section ? Buffer.from(section).toString("utf8") : null;
  } catch {
    return null;
  }
}

function readFileSafe(path) {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

process.chdir(root);
const rel = (p) => relative(process.cwd(), p) || p;
const mode = process.argv[2] ?? "";
const current = readFileSafe(outFile);

if (mode === "--check") {
  const expected = await build();
  if (!current || !expected.equals(current)) {
    console.error(
      `${rel(outFile)} is not what ${rel(sourceDir)}/ produces: run \`node scripts/build-wasm.mjs\` and commit the result.`,
    );
    process.exit(1);
  }
} else if (mode === "" || mode === "--force") {
  if (mode === "--force" || !current || recordedDigest(current) !== sourceDigest(sources())) {
    writeFileSync(outFile, await build());
    console.log(`[build-wasm] wrote ${rel(outFile)}`);
  }
} else {
  console.error(`unknown option ${mode} (use --check or --force)`);
  process.exit(2);
}

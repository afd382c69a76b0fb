import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The rule of the lazy module graph (README "Pluggable parts"): the detectors, decoders, models, PDF
 * code and report layout load with `import()` on first use, never with the Worker's entry — every
 * request, page, Durable Object and test file would otherwise start two thirds of the Worker's modules.
 */
const HEAVY = [
  "src/scanner/forensics/",
  "src/scanner/images/",
  "src/scanner/pdf/",
  "src/scanner/ml/",
  "src/scanner/reports/",
  "src/capture/checks/recapture",
];
/** The report texts are shared with the pipeline's own findings: plain strings, no imports. */
const LIGHT = ["src/scanner/reports/i18n.ts"];
const HEAVY_PACKAGES = [
  "pdf-lib",
  "@pdf-lib/fontkit",
  "unpdf",
  "onnxruntime-web",
  "@cf-wasm/photon",
  "libheif-js",
  "utif2",
];

/** Modules `text` imports as values, statically: type-only imports and `import()` are not followed. */
function staticImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)"/gm)) {
    const [, typeOnly, clause, from] = m;
    const names = clause.match(/\{([^}]*)\}/)?.[1];
    const onlyTypes =
      names !== undefined &&
      !/^[\w$]+\s*,/.test(clause) &&
      names
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith("type "));
    if (!typeOnly && !onlyTypes) found.push(from);
  }
  for (const m of text.matchAll(/^import\s+"([^"]+)"/gm)) found.push(m[1]);
  return found;
}

function resolve(from: string, specifier: string): string | null {
  const base = normalize(join(dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")])
    if (candidate.endsWith(".ts") || candidate.endsWith(".tsx") || candidate.endsWith(".js"))
      if (existsSync(candidate)) return candidate;
  return null;
}

/** Every source file and package the entry loads before any request runs. */
function startUpGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.tsx?$/.test(file)) continue;
    for (const specifier of staticImports(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) {
        const target = resolve(file, specifier);
        if (target) pending.push(target);
      } else
        packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);
    }
  }
  return { files, packages };
}

describe("the Worker's entry loads no detector, decoder, model or report code", () => {
  const { files, packages } = startUpGraph("src/index.ts");

  it("reaches the routes, pages and Durable Objects (the walk is not blind)", () => {
    for (const file of ["src/scanner/execution/analysis-unit.ts", "src/pages/board/index.ts", "src/capture/photos.ts"])
      expect(files).toContain(file);
    expect(packages).toContain("hono");
  });

  it("none of the heavy modules is imported statically from the entry", () => {
    const heavy = [...files].filter((file) => HEAVY.some((prefix) => file.startsWith(prefix)) && !LIGHT.includes(file));
    expect(heavy).toEqual([]);
    expect([...packages].filter((name) => HEAVY_PACKAGES.includes(name))).toEqual([]);
  });

  it("the analysis still reaches them, through import()", () => {
    const { files: unit } = startUpGraph("src/scanner/execution/run-unit.ts");
    expect(unit).toContain("src/scanner/analysis/pipeline.ts");
    expect(readFileSync("src/scanner/analysis/analyzer-sets.ts", "utf8")).toContain('import("../forensics/registry")');
  });

  it("type-only imports are not followed, value imports are", () => {
    expect(staticImports('import type { A } from "./a";\nimport { type B } from "./b";')).toEqual([]);
    expect(staticImports('import { type B, c } from "./b";\nimport d from "./d";\nimport "./e";')).toEqual([
      "./b",
      "./d",
      "./e",
    ]);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findingCodeList, findingCodesTable } from "../../src/scanner/finding-codes";

/** Every .ts file under src/ except the registry itself. */
function sources(dir = "src"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") && path !== join("src", "scanner", "finding-codes.ts") ? [path] : [];
  });
}

describe("the finding-code registry (src/scanner/finding-codes.ts)", () => {
  it("docs/forensics.md shows its table (regenerate: node --import tsx scripts/docs/finding-codes.ts)", () => {
    const doc = readFileSync("docs/forensics.md", "utf8");
    const section = doc.slice(
      doc.indexOf("<!-- section:finding-codes -->"),
      doc.indexOf("<!-- /section:finding-codes -->"),
    );
    expect(section).toContain(`${findingCodesTable()}\n`);
  });

  it("lists no code that no detector emits any more", () => {
    const code = sources()
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    // A code is emitted as a literal, or built from a literal prefix (`${code}_NOT_ASSESSED`, ml/findings.ts).
    const emitted = (c: string) =>
      code.includes(`"${c}"`) ||
      [...c.matchAll(/_/g)].some(
        (m) => code.includes(`"${c.slice(0, m.index)}"`) && code.includes(`}${c.slice(m.index)}\``),
      );
    expect(findingCodeList.filter((c) => !emitted(c))).toEqual([]);
  });
});

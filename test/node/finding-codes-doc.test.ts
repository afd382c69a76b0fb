import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findingCodesTable } from "../../src/scanner/finding-codes";

describe("docs/forensics.md lists the finding codes of the registry", () => {
  it("its finding-code table is the registry's (regenerate: node --import tsx scripts/docs/finding-codes.ts)", () => {
    const doc = readFileSync("docs/forensics.md", "utf8");
    const section = doc.slice(
      doc.indexOf("<!-- section:finding-codes -->"),
      doc.indexOf("<!-- /section:finding-codes -->"),
    );
    expect(section).toContain(`${findingCodesTable()}\n`);
  });
});

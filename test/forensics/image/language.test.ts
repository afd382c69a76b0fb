import { describe, expect, it } from "vitest";
import { imageAnalyzers } from "../../../src/scanner/forensics/image-analyzers";
import { languages } from "../../../src/scanner/types";
import { context, generatedFile, scanFile } from "./fixtures";

describe("findings are written in the request's language", () => {
  it("every image detector answers in de, en and pl with distinct texts and the same codes and evidence", async () => {
    const bytes = await generatedFile("copymove/Dune.jpg");
    const byLanguage = [];
    for (const language of languages) {
      const findings = [];
      for (const a of imageAnalyzers)
        findings.push(...(await a.analyze(scanFile("d.jpg", bytes), context({ language }))).findings);
      byLanguage.push(findings);
    }
    const [de, en, pl] = byLanguage;
    expect(de.map((f) => f.code)).toEqual(en.map((f) => f.code));
    expect(pl.map((f) => f.evidence)).toEqual(en.map((f) => f.evidence));
    for (let i = 0; i < en.length; i++) {
      expect(de[i].title, en[i].code).not.toBe(en[i].title);
      expect(pl[i].title, en[i].code).not.toBe(en[i].title);
      expect(de[i].explanation.length, en[i].code).toBeGreaterThan(20);
    }
  });
});

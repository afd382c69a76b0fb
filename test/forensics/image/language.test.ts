import { describe, expect, it } from "vitest";
import { imageAnalyzers } from "../../../src/scanner/forensics/image-analyzers";
import { encodePng } from "../../../src/scanner/images/png-encode";
import { languages } from "../../../src/scanner/types";
import { withC2pa } from "./c2pa-builder";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

/** Words only English has: none may stand in a German or Polish explanation (names and numbers may). */
const ENGLISH =
  /\b(the|and|of|could|image|picture|decoded?|damaged|too|small|large|error|unexpected|invalid|found|matches|does)\b/i;

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

  it("damaged, tiny and C2PA-signed pictures are explained in German and Polish without English fragments", async () => {
    const grey = new Uint8Array(40 * 40).map((_, i) => (i * 37) % 251);
    const files = [
      scanFile("corrupted.jpg", await sharedFile("exif-samples/jpg/corrupted.jpg")),
      scanFile("tiny.png", encodePng(grey, 40, 40, 1)),
      scanFile(
        "signed.jpg",
        await withC2pa(await sharedFile("photos/opencv-doc/leuvenA.jpg"), [{ action: "c2pa.opened" }]),
      ),
    ];
    const codes = new Set<string>();
    for (const language of ["de", "pl"] as const)
      for (const file of files)
        for (const a of imageAnalyzers.filter((x) => x.appliesTo(file)))
          for (const f of (await a.analyze(file, context({ language }))).findings) {
            codes.add(f.code);
            expect(f.explanation, `${language} ${file.name} ${f.code}`).not.toMatch(ENGLISH);
          }
    expect([...codes]).toEqual(
      expect.arrayContaining(["JPEG_DAMAGED", "ELA_NOT_ASSESSED", "NOISE_NOT_ASSESSED", "PROV_C2PA_PRESENT"]),
    );
  });
});

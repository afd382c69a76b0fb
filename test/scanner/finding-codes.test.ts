import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../../src/scanner/analysis/pipeline";
import { FINDING_CODE_PATTERN, findingCodeList, findingCodes } from "../../src/scanner/finding-codes";
import { analyzers } from "../../src/scanner/forensics/registry";
import { intakeArchive, memorySource } from "../../src/scanner/intake";
import type { ScanContext } from "../../src/scanner/types";
import { generatedFile, sharedFile } from "../forensics/image/fixtures";
import { sharedPdf } from "../forensics/pdf/fixtures";
import { BASE } from "../helpers";
import { expectRegisteredFindings } from "../support/finding-codes";
import { samples, zip } from "./fixtures";

describe("finding codes: one UPPER_SNAKE registry (src/scanner/finding-codes.ts)", () => {
  it("every registered code is AREA_WHAT in upper snake case, with a detector, its levels and a meaning", () => {
    expect(findingCodeList.length).toBeGreaterThan(100);
    for (const code of findingCodeList) {
      const info = findingCodes[code];
      expect(code).toMatch(FINDING_CODE_PATTERN);
      expect(info.detector).not.toBe("");
      expect(info.levels.length).toBeGreaterThan(0);
      expect(info.meaning).toMatch(/^[A-Z].*\.$/);
    }
  });

  it("real analyses of photos, edited pictures and PDFs emit only registered codes at registered levels", async () => {
    const ctx: ScanContext = {
      language: "de",
      issueDate: new Date("2020-01-01T00:00:00Z"),
      now: new Date("2026-11-25T00:00:00Z"),
      caseNumber: "CODES-1",
    };
    const files = {
      "canon.jpg": samples.canon,
      "nikon.jpg": samples.nikon,
      "broken.jpg": samples.corruptJpeg,
      "ela_modified.jpg": await sharedFile("photos/opencv-doc/ela_modified.jpg"),
      "copymove.jpg": await generatedFile("copymove/Wood.jpg"),
      "minimal.pdf": samples.pdf,
      "form.pdf": await sharedPdf("qpdf/form-filled-by-acrobat.pdf"),
      "commented.pdf": await sharedPdf("pypdf/commented.pdf"),
      "signed.pdf": await sharedPdf("pyhanko/minimal-two-fields-signed-twice.pdf"),
    };
    const result = await runPipeline(intakeArchive(memorySource(zip(files))), ctx, async (a) => a.name, analyzers);
    const all = Object.values(result.Files).flatMap((f) => f.findings);
    expect(new Set(all.map((f) => f.code)).size).toBeGreaterThan(15);
    expectRegisteredFindings(all);
  });

  it("/openapi.json lists every code with its levels and meaning, and the finding schemas use that list", async () => {
    const res = await SELF.fetch(`${BASE}/openapi.json`);
    const doc = await res.json<{ components: { schemas: Record<string, Record<string, unknown>> } }>();
    const schema = doc.components.schemas.FindingCode as { enum: string[]; description: string };
    expect(schema.enum).toEqual(findingCodeList);
    for (const code of findingCodeList) {
      const { detector, levels, meaning } = findingCodes[code];
      const row = `| \`${code}\` | ${detector} | ${levels.map((l) => (l === "-" ? "`-`" : l)).join(", ")} | ${meaning} |`;
      expect(schema.description).toContain(row);
    }
    const refs =
      JSON.stringify(doc.components.schemas.FileResult) + JSON.stringify(doc.components.schemas.CrossFileFinding);
    expect(refs.match(/#\/components\/schemas\/FindingCode/g)?.length).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { copyMoveAnalyzer } from "../../../src/scanner/forensics/copy-move";
import { provenanceAnalyzer } from "../../../src/scanner/forensics/provenance";
import manifest from "../../fixtures/generated/manifest.json";
import { withC2pa, withDigitalSourceType } from "./c2pa-builder";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

const AI = "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia";

describe("C2PA content credentials", () => {
  it("a manifest declaring AI generation is Red; the hash binding is checked and matches", async () => {
    const photo = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const signed = await withC2pa(photo, [{ action: "c2pa.created", digitalSourceType: AI }]);
    const r = await provenanceAnalyzer.analyze(scanFile("ai.jpg", signed), context());
    expect(r.findings.map((f) => [f.code, f.level])).toEqual([
      ["PROV_AI_GENERATED", "Red"],
      ["PROV_C2PA_PRESENT", "Green"],
    ]);
    expect(r.findings[1].evidence).toMatchObject({
      claimGenerator: "TestGen/1.0",
      hashMatches: true,
      signaturePresent: true,
    });
  });

  it("editing actions are listed; a byte changed after signing breaks the binding (Red)", async () => {
    const photo = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const signed = await withC2pa(photo, [
      { action: "c2pa.opened" },
      { action: "c2pa.edited", softwareAgent: "Photo Editor 2" },
    ]);
    signed[signed.length - 100] ^= 0xff;
    const r = await provenanceAnalyzer.analyze(scanFile("edited.jpg", signed), context({ language: "pl" }));
    const codes = r.findings.map((f) => [f.code, f.level]);
    expect(codes).toContainEqual(["PROV_C2PA_HASH_MISMATCH", "Red"]);
    expect(codes).toContainEqual(["PROV_C2PA_EDITED", "Yellow"]);
    expect(r.findings.find((f) => f.code === "PROV_C2PA_EDITED")?.explanation).toContain("edited (Photo Editor 2)");
  });
});

describe("IPTC DigitalSourceType", () => {
  it("trainedAlgorithmicMedia in XMP is Red", async () => {
    const tagged = withDigitalSourceType(await sharedFile("photos/opencv-doc/leuvenA.jpg"), AI);
    const r = await provenanceAnalyzer.analyze(scanFile("x.jpg", tagged), context());
    expect(r.findings[0]).toMatchObject({
      code: "PROV_AI_GENERATED",
      level: "Red",
      evidence: { digitalSourceType: AI },
    });
  });

  it("an ordinary camera photo has no provenance data and says so in Green", async () => {
    const r = await provenanceAnalyzer.analyze(
      scanFile("p.jpg", await sharedFile("photos/opencv-doc/leuvenB.jpg")),
      context(),
    );
    expect(r.findings.map((f) => f.code)).toEqual(["PROV_NONE"]);
  });
});

describe("copy-move", () => {
  it("finds the copied area of a generated case, with the shift and both places", async () => {
    const c = (
      manifest as {
        cases: {
          file: string;
          region: { x: number; y: number; w: number; h: number; source: { x: number; y: number } };
        }[];
      }
    ).cases.find((x) => x.file === "copymove/Dune.jpg")!;
    const r = await copyMoveAnalyzer.analyze(scanFile("Dune.jpg", await generatedFile(c.file)), context());
    const f = r.findings[0];
    expect(f.code).toBe("COPY_MOVE_FOUND");
    const shift = f.evidence.shift as { dx: number; dy: number };
    // The shift relates the two places (source → copy or copy → source).
    expect(Math.abs(Math.abs(shift.dx) - Math.abs(c.region.x - c.region.source.x))).toBeLessThanOrEqual(4);
    expect(Math.abs(Math.abs(shift.dy) - Math.abs(c.region.y - c.region.source.y))).toBeLessThanOrEqual(4);
    expect(r.attachments?.[0].name).toBe("Dune.jpg.copy-move.png");
  });

  it("an untouched photo has no copied area", async () => {
    for (const p of ["photos/opencv-doc/leuvenA.jpg", "exif-samples/jpg/gps/DSCN0021.jpg"]) {
      const r = await copyMoveAnalyzer.analyze(scanFile("p.jpg", await sharedFile(p)), context());
      expect(r.findings[0].code, p).toBe("COPY_MOVE_NONE");
    }
  });
});

import { describe, expect, it } from "vitest";
import { copyMoveAnalyzer } from "../../../src/scanner/forensics/copy-move";
import { encodeRgbaPngStreamed } from "../../../src/scanner/images/png-encode";
import { provenanceAnalyzer } from "../../../src/scanner/forensics/provenance";
import manifest from "../../fixtures/generated/manifest.json";
import { withC2pa, withDigitalSourceType } from "./c2pa-builder";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";
import { texturedPicture } from "./seam-pictures";

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

type CopyMoveCase = {
  file: string;
  kind: string;
  region: { x: number; y: number; w: number; h: number; source: { x: number; y: number } };
};
type Box = { x: number; y: number; width: number; height: number };
const overlaps = (b: Box, x: number, y: number, w: number, h: number) =>
  b.x < x + w && x < b.x + b.width && b.y < y + h && y < b.y + b.height;

describe("copy-move", () => {
  const cases = (manifest as { cases: CopyMoveCase[] }).cases;

  for (const name of ["Dune", "leuvenA", "leuvenB"])
    it(`finds the copied area of the generated ${name} case, with the shift and both places on the truth`, async () => {
      const c = cases.find((x) => x.file === `copymove/${name}.jpg`)!;
      const r = await copyMoveAnalyzer.analyze(scanFile(`${name}.jpg`, await generatedFile(c.file)), context());
      const f = r.findings[0];
      expect(f.code).toBe("COPY_MOVE_FOUND");
      const shift = f.evidence.shift as { dx: number; dy: number };
      // The shift relates the two places (source → copy or copy → source), to a pixel or two.
      expect(Math.abs(Math.abs(shift.dx) - Math.abs(c.region.x - c.region.source.x))).toBeLessThanOrEqual(2);
      expect(Math.abs(Math.abs(shift.dy) - Math.abs(c.region.y - c.region.source.y))).toBeLessThanOrEqual(2);
      // One reported place lies on the copy, the other on its source.
      const { region, source } = f.evidence as { region: Box; source: Box };
      const { x, y, w, h, source: from } = c.region;
      const onCopy = (b: Box) => overlaps(b, x, y, w, h);
      const onSource = (b: Box) => overlaps(b, from.x, from.y, w, h);
      expect((onCopy(region) && onSource(source)) || (onCopy(source) && onSource(region))).toBe(true);
      expect(r.attachments?.[0].name).toBe(`${name}.jpg.copy-move.png`);
    });

  it("names the shift by its direction in each language (leuvenA's copy lies up and to the right of its source)", async () => {
    const c = cases.find((x) => x.file === "copymove/leuvenA.jpg")!;
    const bytes = await generatedFile(c.file);
    const said = async (language: "de" | "en" | "pl") =>
      (await copyMoveAnalyzer.analyze(scanFile("leuvenA.jpg", bytes), context({ language }))).findings[0];
    const en = await said("en");
    const { dx, dy } = en.evidence.shift as { dx: number; dy: number };
    expect(dx).toBeLessThan(0);
    expect(dy).toBeGreaterThan(0);
    expect(en.explanation).toContain(`shifted by ${-dx} px to the left and ${dy} px down`);
    expect((await said("de")).explanation).toContain(`um ${-dx} px nach links und ${dy} px nach unten verschoben`);
    expect((await said("pl")).explanation).toContain(`przesunięty o ${-dx} px w lewo i ${dy} px w dół`);
  });

  it("a plain surface copied onto itself (Wood: under 1 % of its blocks have detail) leaves nothing to compare", async () => {
    const r = await copyMoveAnalyzer.analyze(scanFile("Wood.jpg", await generatedFile("copymove/Wood.jpg")), context());
    expect(r.findings[0].code).toBe("COPY_MOVE_NONE");
    expect(r.findings[0].evidence.judgedShare).toBeLessThan(0.01);
  });

  it("the same crops re-saved or with a patch from another photo have no copied area", async () => {
    for (const kind of ["resave", "splice"])
      for (const name of ["Dune", "leuvenA", "leuvenB"]) {
        const file = `${kind}/${name}.jpg`;
        const r = await copyMoveAnalyzer.analyze(scanFile(`${name}.jpg`, await generatedFile(file)), context());
        expect(r.findings[0].code, file).toBe("COPY_MOVE_NONE");
      }
  });

  it("untouched photos have no copied area", async () => {
    for (const p of ["photos/opencv-doc/leuvenA.jpg", "exif-samples/jpg/gps/DSCN0021.jpg"]) {
      const r = await copyMoveAnalyzer.analyze(scanFile("p.jpg", await sharedFile(p)), context());
      expect(r.findings[0].code, p).toBe("COPY_MOVE_NONE");
    }
  });
});

/** A 480 × 320 PNG: `background` (grey per pixel) with one detailed 120 × 96 "logo" pasted at two places. */
function twoLogos(background: (x: number, y: number) => number): Uint8Array {
  const [width, height] = [480, 320];
  const logo = texturedPicture(120, 96, 60);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = Math.round(background(x, y));
      rgba.set([v, v, v, 255], (y * width + x) * 4);
    }
  for (const [ox, oy] of [
    [40, 40],
    [300, 180],
  ])
    for (let y = 0; y < logo.height; y++)
      for (let x = 0; x < logo.width; x++) {
        const v = Math.max(0, Math.min(255, Math.round(logo.data[y * logo.width + x])));
        rgba.set([v, v, v, 255], ((oy + y) * width + ox + x) * 4);
      }
  return encodeRgbaPngStreamed(rgba, width, height);
}

describe("copy-move does not judge pictures drawn by a computer", () => {
  it("a page with the same logo twice on white is not assessed, saying why; the same logos on a photo are found", async () => {
    const page = await copyMoveAnalyzer.analyze(
      scanFile(
        "page.png",
        twoLogos(() => 255),
      ),
      context(),
    );
    expect(page.findings[0]).toMatchObject({ code: "COPY_MOVE_NOT_ASSESSED", level: "-" });
    expect(page.findings[0].evidence.equalNeighbourShare).toBeGreaterThan(0.8);
    expect(page.findings[0].explanation).toContain("repeat by design");
    const de = await copyMoveAnalyzer.analyze(
      scanFile(
        "page.png",
        twoLogos(() => 255),
      ),
      context({ language: "de" }),
    );
    expect(de.findings[0].explanation).toContain("von einem Computer gezeichnet");
    const photo = texturedPicture(480, 320, 3);
    const onPhoto = await copyMoveAnalyzer.analyze(
      scanFile(
        "photo.png",
        twoLogos((x, y) => photo.data[y * 480 + x]),
      ),
      context(),
    );
    expect(onPhoto.findings[0]).toMatchObject({ code: "COPY_MOVE_FOUND" });
  });
});

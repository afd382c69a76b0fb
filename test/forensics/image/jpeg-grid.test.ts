import { describe, expect, it } from "vitest";
import { jpegGridAnalyzer } from "../../../src/scanner/forensics/jpeg-grid";
import type { Finding } from "../../../src/scanner/types";
import manifest from "../../fixtures/generated/grid/manifest.json";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

// Fixtures: scripts/datagen/grid_splice.py (a camera crop with a patch of a coarsely saved JPEG pasted so that
// the patch's grid lies 3 px right and 5 px lower; a crop of that JPEG itself off its grid) and
// scripts/datagen/localised_jpeg.py (the camera crop saved again as it is).
type Box = { x: number; y: number; w: number; h: number };
const truth = manifest.cases.find((c) => c.file === "splice-shifted.jpg")?.region as Box;

async function run(name: string, bytes: Uint8Array, language: "en" | "de" | "pl" = "en") {
  return jpegGridAnalyzer.analyze(scanFile(name, bytes), context({ language }));
}

function overlaps(f: Finding, t: Box): boolean {
  const r = f.evidence.region as { x: number; y: number; width: number; height: number };
  return r.x < t.x + t.w && t.x < r.x + r.width && r.y < t.y + t.h && t.y < r.y + r.height;
}

describe("JPEG_GRID_REGION: an area carrying an earlier JPEG grid at another offset than the rest", () => {
  it("marks the pasted patch where the truth is, with the offset of its earlier grid and a heatmap", async () => {
    const r = await run("splice-shifted.jpg", await generatedFile("grid/splice-shifted.jpg"));
    const f = r.findings[0];
    expect(f.code).toBe("JPEG_GRID_REGION");
    expect(["Yellow", "Red"]).toContain(f.level);
    expect(overlaps(f, truth)).toBe(true);
    expect(f.evidence.earlierGrid).toMatchObject({ dx: 3, dy: 5 });
    expect(f.explanation).toContain("3 px to the right and 5 px lower");
    const png = r.attachments?.[0];
    expect(png).toMatchObject({ category: "heatmaps", name: "splice-shifted.jpg.grid.png", contentType: "image/png" });
    expect([...(png?.bytes.subarray(1, 4) ?? [])]).toEqual([0x50, 0x4e, 0x47]);
  });

  it("says it in German and Polish entirely in that language", async () => {
    const bytes = await generatedFile("grid/splice-shifted.jpg");
    const de = (await run("s.jpg", bytes, "de")).findings[0];
    const pl = (await run("s.jpg", bytes, "pl")).findings[0];
    expect(de.explanation).toContain("3 px weiter rechts und 5 px tiefer");
    expect(pl.explanation).toContain("o 3 px dalej w prawo i o 5 px niżej");
    for (const f of [de, pl]) expect(`${f.title} ${f.explanation}`).not.toMatch(/\b(the|area|grid|save|pasted)\b/);
  });
});

describe("JPEG_GRID_UNIFORM: originals, re-saves and pictures whose earlier grid is everywhere are Green", () => {
  it("a camera original saved once", async () => {
    const f = (await run("DSCN0010.jpg", await sharedFile("exif-samples/jpg/gps/DSCN0010.jpg"))).findings[0];
    expect(f).toMatchObject({ code: "JPEG_GRID_UNIFORM", level: "Green" });
  });

  it("the camera crop saved again without an edit, and the generated re-saves", async () => {
    for (const path of [
      "localised/resave.jpg",
      "resave/Dune.jpg",
      "resave/Wood.jpg",
      "resave/leuvenA.jpg",
      "resave/leuvenB.jpg",
    ]) {
      const f = (await run("r.jpg", await generatedFile(path))).findings[0];
      expect(f).toMatchObject({ code: "JPEG_GRID_UNIFORM", level: "Green" });
    }
  });

  it("a crop off the earlier grid has that grid everywhere: named as the picture's own, no area", async () => {
    const f = (await run("crop.jpg", await generatedFile("grid/crop-shifted.jpg"))).findings[0];
    expect(f).toMatchObject({ code: "JPEG_GRID_UNIFORM", level: "Green" });
    expect(f.evidence.pictureEarlierGrid).toMatchObject({ dx: 5, dy: 3 });
  });
});

describe("JPEG_GRID_NOT_ASSESSED: files without a readable JPEG grid are `-` with the reason", () => {
  it("a PNG is not a JPEG (German)", async () => {
    const r = await run("rgb.png", await generatedFile("png/rgb-8bit.png"), "de");
    expect(r.assessed).toBe(false);
    expect(r.findings[0]).toMatchObject({ code: "JPEG_GRID_NOT_ASSESSED", level: "-" });
    expect(r.findings[0].explanation).toContain("kein JPEG");
  });

  it("a truncated JPEG is damaged (Polish)", async () => {
    const whole = await generatedFile("grid/splice-shifted.jpg");
    const f = (await run("cut.jpg", whole.slice(0, whole.length >> 1), "pl")).findings[0];
    expect(f).toMatchObject({ code: "JPEG_GRID_NOT_ASSESSED", level: "-" });
    expect(f.explanation).toContain("nie da się odczytać");
  });
});

import { describe, expect, it } from "vitest";
import type { GrayImage } from "../../../src/scanner/images/gray";
import { searchSeams } from "../../../src/scanner/forensics/seam-search";
import { DRAWN_SHARE, equalNeighbourShare } from "../../../src/scanner/images/drawn-picture";
import { encodeRgbaPngStreamed } from "../../../src/scanner/images/png-encode";
import { SEAM_THRESHOLDS, seamsAnalyzer } from "../../../src/scanner/forensics/seams";
import manifest from "../../fixtures/generated/manifest.json";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";
import { type Box, brighter, retone, texturedPicture } from "./seam-pictures";

/** Multiplies the rectangle by 1.2 and adds 10 (a brightness edit); `feather` px of linear blend at its border. */
const brighten = (img: GrayImage, r: Box, feather = 0) => retone(img, r, brighter, feather);

const overlaps = (a: Box, t: { x: number; y: number; w: number; h: number }) =>
  a.x < t.x + t.w && t.x < a.x + a.width && a.y < t.y + t.h && t.y < a.y + a.height;

describe("cut edges (seams)", () => {
  it("a rectangle brightened with hard edges is found exactly, also on a picture of odd size", () => {
    const rect = { x: 61, y: 37, width: 90, height: 70 };
    const found = searchSeams(brighten(texturedPicture(203, 157), rect));
    expect(found).toMatchObject(rect);
    expect(found?.score).toBeGreaterThanOrEqual(SEAM_THRESHOLDS.red);
  });

  it("the same change with soft (feathered) edges, and the untouched picture, give no rectangle at the threshold", () => {
    const rect = { x: 61, y: 37, width: 90, height: 70 };
    for (const img of [brighten(texturedPicture(203, 157), rect, 4), texturedPicture(203, 157)])
      expect(searchSeams(img)?.score ?? 0).toBeLessThan(SEAM_THRESHOLDS.yellow);
  });

  it("a picture smaller than a rectangle's shortest side plus its margins is not searched", () => {
    expect(searchSeams(brighten(texturedPicture(67, 200), { x: 2, y: 10, width: 60, height: 100 }))).toBeNull();
  });

  it("the generated pastes and brightness changes: flagged regions lie on the true ones; re-saves stay Green", async () => {
    const found: string[] = [];
    for (const c of manifest.cases.filter((x) => ["splice", "bright", "resave"].includes(x.kind))) {
      const r = await seamsAnalyzer.analyze(scanFile(c.file, await generatedFile(c.file)), context());
      const f = r.findings[0];
      if (!c.region) {
        expect([c.file, f.code, f.level]).toEqual([c.file, "SEAM_NONE", "Green"]);
        continue;
      }
      if (f.code !== "SEAM_RECTANGLE") continue;
      expect(overlaps((f.evidence as { region: Box }).region, c.region)).toBe(true);
      found.push(c.file);
    }
    // Hard-edged rectangles in textured or flat surroundings; leuvenA's pasted patch blends in (its best rectangle is under 0.5).
    expect(found).toEqual(
      expect.arrayContaining([
        "splice/Dune.jpg",
        "bright/Dune.jpg",
        "splice/Wood.jpg",
        "bright/Wood.jpg",
        "splice/leuvenB.jpg",
      ]),
    );
    expect(found).not.toContain("splice/leuvenA.jpg");
  });

  it("the pasted patch is named with its place and size in each language", async () => {
    const bytes = await generatedFile("splice/Wood.jpg");
    const en = await seamsAnalyzer.analyze(scanFile("w.jpg", bytes), context());
    expect(en.findings[0]).toMatchObject({
      code: "SEAM_RECTANGLE",
      level: "Red",
      evidence: { region: { x: 254, y: 108, width: 122, height: 78 } },
    });
    expect(en.findings[0].explanation).toContain("122 × 78 px");
    expect(en.attachments?.[0]).toMatchObject({ name: "w.jpg.seams.png", contentType: "image/png" });
    const de = await seamsAnalyzer.analyze(scanFile("w.jpg", bytes), context({ language: "de" }));
    expect(de.findings[0].title).toBe("Bereich mit harten Schnittkanten");
    const pl = await seamsAnalyzer.analyze(scanFile("w.jpg", bytes), context({ language: "pl" }));
    expect(pl.findings[0].title).toBe("Obszar otoczony ostrymi krawędziami cięcia");
  });

  it("a page drawn by a computer (a filled box on white) is not judged: its edges are sharp by nature", async () => {
    const [width, height] = [300, 200];
    const rgba = new Uint8Array(width * height * 4).fill(255);
    for (let y = 50; y < 130; y++) for (let x = 40; x < 220; x++) rgba.set([30, 60, 160, 255], (y * width + x) * 4);
    const r = await seamsAnalyzer.analyze(scanFile("page.png", encodeRgbaPngStreamed(rgba, width, height)), context());
    expect(r.findings[0]).toMatchObject({ code: "SEAM_NOT_ASSESSED", level: "-" });
    expect(r.findings[0].explanation).toContain("drawn by a computer");
    // The box is a perfect rectangle of one-pixel steps: that is why such pictures are left out.
    const gray = { width, height, data: Float32Array.from({ length: width * height }, (_, i) => rgba[i * 4]) };
    expect(searchSeams(gray)?.score).toBe(1);
    expect(equalNeighbourShare(gray)).toBeGreaterThanOrEqual(DRAWN_SHARE);
    expect(equalNeighbourShare(texturedPicture(203, 157))).toBeLessThan(DRAWN_SHARE);
  });

  it("untouched camera photos with façades, signs and text stay Green", async () => {
    for (const path of ["photos/opencv-doc/scenetext06.jpg", "exif-samples/jpg/gps/DSCN0040.jpg"]) {
      const r = await seamsAnalyzer.analyze(scanFile(path, await sharedFile(path)), context());
      expect([path, r.findings[0].code, r.findings[0].level]).toEqual([path, "SEAM_NONE", "Green"]);
    }
  });
});

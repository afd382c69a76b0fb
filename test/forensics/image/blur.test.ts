import { describe, expect, it } from "vitest";
import { BLUR_THRESHOLDS, blurAnalyzer } from "../../../src/scanner/forensics/blur";
import { searchBlurRectangle } from "../../../src/scanner/forensics/blur-search";
import { encodeRgbaPngStreamed } from "../../../src/scanner/images/png-encode";
import manifest from "../../fixtures/generated/manifest.json";
import { type Box, blurInside, detailedPicture } from "./blur-pictures";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";

const overlaps = (a: Box, t: { x: number; y: number; w: number; h: number }) =>
  a.x < t.x + t.w && t.x < a.x + a.width && a.y < t.y + t.h && t.y < a.y + a.height;

describe("blurred rectangles (blur)", () => {
  const rect = { x: 67, y: 41, width: 90, height: 70 };

  it("a rectangle blurred with σ 2.5 and 4 is found within 3 px (the sides are judged on 5 px windows), also on a picture of odd size", () => {
    for (const sigma of [2.5, 4]) {
      const found = searchBlurRectangle(blurInside(detailedPicture(211, 163), rect, sigma));
      expect(found?.score).toBeGreaterThanOrEqual(BLUR_THRESHOLDS.red);
      for (const k of ["x", "y", "width", "height"] as const)
        expect([sigma, k, Math.abs((found?.[k] ?? -99) - rect[k]) <= 3]).toEqual([sigma, k, true]);
    }
  });

  it("the untouched picture and a flat dark box on it (an object, not a blur) give no rectangle at the threshold", () => {
    const untouched = detailedPicture(211, 163);
    const box = { ...untouched, data: Float32Array.from(untouched.data) };
    for (let y = rect.y; y < rect.y + rect.height; y++)
      box.data.fill(25, y * 211 + rect.x, y * 211 + rect.x + rect.width);
    for (const img of [untouched, box])
      expect(searchBlurRectangle(img)?.score ?? 0).toBeLessThan(BLUR_THRESHOLDS.yellow);
  });

  it("a picture smaller than a rectangle's shortest side plus its margins is not searched", () => {
    expect(searchBlurRectangle(detailedPicture(59, 200))).toBeNull();
  });

  it("the generated blurs: flagged regions lie on the true ones; re-saves stay Green", async () => {
    const found: string[] = [];
    for (const c of manifest.cases.filter((x) => ["blur", "resave", "splice", "bright"].includes(x.kind))) {
      const r = await blurAnalyzer.analyze(scanFile(c.file, await generatedFile(c.file)), context());
      const f = r.findings[0];
      if (c.kind !== "blur") {
        expect([c.file, f.code, f.level]).toEqual([c.file, "BLUR_NONE", "Green"]);
        continue;
      }
      if (f.code === "BLUR_NONE") continue;
      expect(overlaps((f.evidence as { region: Box }).region, c.region as NonNullable<typeof c.region>)).toBe(true);
      found.push(`${c.file} ${f.code}`);
    }
    expect(found).toEqual(BLURS_FOUND);
  });

  it("the blurred area is named with its place and size in each language, with a heatmap", async () => {
    const img = blurInside(detailedPicture(211, 163), rect, 3);
    const rgba = new Uint8Array(211 * 163 * 4).fill(255);
    img.data.forEach((v, i) => rgba.fill(Math.round(Math.min(255, Math.max(0, v))), i * 4, i * 4 + 3));
    const bytes = encodeRgbaPngStreamed(rgba, 211, 163);
    const en = await blurAnalyzer.analyze(scanFile("b.png", bytes), context());
    expect(en.findings[0]).toMatchObject({ code: "BLUR_RECTANGLE", level: "Red" });
    const region = (en.findings[0].evidence as { region: Box }).region;
    expect(en.findings[0].explanation).toContain(`${region.width} × ${region.height} px`);
    expect(en.attachments?.[0]).toMatchObject({ name: "b.png.blur.png", contentType: "image/png" });
    const de = await blurAnalyzer.analyze(scanFile("b.png", bytes), context({ language: "de" }));
    expect(de.findings[0].title).toBe("Nachträglich weichgezeichnetes Rechteck");
    const pl = await blurAnalyzer.analyze(scanFile("b.png", bytes), context({ language: "pl" }));
    expect(pl.findings[0].title).toBe("Prostokąt rozmyty po wykonaniu zdjęcia");
  });

  it("a page drawn by a computer is not judged", async () => {
    const [width, height] = [300, 200];
    const rgba = new Uint8Array(width * height * 4).fill(255);
    for (let y = 60; y < 140; y++) for (let x = 50; x < 230; x++) rgba.set([200, 40, 40, 255], (y * width + x) * 4);
    const r = await blurAnalyzer.analyze(scanFile("page.png", encodeRgbaPngStreamed(rgba, width, height)), context());
    expect(r.findings[0]).toMatchObject({ code: "BLUR_NOT_ASSESSED", level: "-" });
  });

  it("untouched camera photos with façades, a circuit board's chip and a game screenshot stay Green", async () => {
    for (const path of [
      "exif-samples/jpg/gps/DSCN0040.jpg",
      "photos/opencv-doc/board.jpg",
      "exif-samples/jpg/tests/45-gps_ifd.jpg",
    ]) {
      const r = await blurAnalyzer.analyze(scanFile(path, await sharedFile(path)), context());
      expect([path, r.findings[0].code, r.findings[0].level]).toEqual([path, "BLUR_NONE", "Green"]);
    }
  });
});

/** The fixtures' blurs (512 × 384 crops) found: two at the threshold, leuvenA's confirmed by its inside; Wood's not. */
const BLURS_FOUND = [
  "blur/Dune.jpg BLUR_RECTANGLE",
  "blur/leuvenA.jpg BLUR_RECTANGLE_CONFIRMED",
  "blur/leuvenB.jpg BLUR_RECTANGLE",
];

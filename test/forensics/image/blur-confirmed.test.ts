import { describe, expect, it } from "vitest";
import { BLUR_THRESHOLDS, blurAnalyzer } from "../../../src/scanner/forensics/blur";
import {
  CONFIRMED_BLUR_THRESHOLDS,
  confirmedByInterior,
  interiorDetail,
} from "../../../src/scanner/forensics/blur-interior";
import type { GrayImage } from "../../../src/scanner/images/gray";
import { encodeRgbaPngStreamed } from "../../../src/scanner/images/png-encode";
import { searchBlurRectangle } from "../../../src/scanner/forensics/blur-search";
import { type Box, blurInside, detailedPicture } from "./blur-pictures";
import { context, scanFile } from "./fixtures";

const [W, H] = [211, 163];
const rect = { x: 67, y: 41, width: 90, height: 70 };

/** `img` with the whole picture's σ-3 blur copied into the horizontal band `rows` and the vertical band `columns`. */
function softBands(img: GrayImage, rows: [number, number], columns: [number, number]): GrayImage {
  const soft = blurInside(img, { x: 0, y: 0, width: W, height: H }, 3);
  const data = Float32Array.from(img.data);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      if ((y >= rows[0] && y < rows[1]) || (x >= columns[0] && x < columns[1])) data[y * W + x] = soft.data[y * W + x];
  return { ...img, data };
}

/** A blurred rectangle whose sides run through soft bands along about half their length (too weak alone). */
const weakBlur = () => softBands(blurInside(detailedPicture(W, H), rect, 3), [60, 90], [80, 120]);

function png(img: GrayImage): Uint8Array {
  const rgba = new Uint8Array(img.width * img.height * 4).fill(255);
  img.data.forEach((v, i) => rgba.fill(Math.round(Math.min(255, Math.max(0, v))), i * 4, i * 4 + 3));
  return encodeRgbaPngStreamed(rgba, img.width, img.height);
}

describe("blurred rectangles confirmed by their inside (blur 1.1.0)", () => {
  it("a blurred rectangle's inside has a fraction of the one-pixel detail just outside each side; the untouched area's does not", () => {
    const blurred = interiorDetail(blurInside(detailedPicture(W, H), rect, 3), { ...rect, score: 0.4 });
    expect(blurred.sides.every((s) => s !== null && s > 5 * blurred.inside)).toBe(true);
    expect(blurred.ratio).toBeGreaterThanOrEqual(CONFIRMED_BLUR_THRESHOLDS.ringRatio);
    const untouched = interiorDetail(detailedPicture(W, H), { ...rect, score: 0.4 });
    expect(untouched.ratio).toBeLessThan(2);
  });

  it("a soft area that borders on another soft area along one side is not confirmed (natural softness has no four-sided outline)", () => {
    const img = blurInside(blurInside(detailedPicture(W, H), rect, 3), { x: 40, y: 30, width: 30, height: 100 }, 3);
    const detail = interiorDetail(img, { ...rect, score: 0.4 });
    expect(detail.ratio).toBeLessThan(CONFIRMED_BLUR_THRESHOLDS.ringRatio);
    expect(confirmedByInterior({ ...rect, score: 0.4 }, detail)).toBe(false);
  });

  it("only rectangles from the floor score are confirmed", () => {
    const detail = interiorDetail(blurInside(detailedPicture(W, H), rect, 3), { ...rect, score: 0 });
    expect(confirmedByInterior({ ...rect, score: CONFIRMED_BLUR_THRESHOLDS.minScore }, detail)).toBe(true);
    expect(confirmedByInterior({ ...rect, score: CONFIRMED_BLUR_THRESHOLDS.minScore - 0.01 }, detail)).toBe(false);
  });

  it("a blur whose sides are steps along only half their length is reported Yellow as confirmed, with the ring figures, in each language", async () => {
    const bytes = png(weakBlur());
    const en = await blurAnalyzer.analyze(scanFile("weak.png", bytes), context());
    expect(en.findings[0]).toMatchObject({ code: "BLUR_RECTANGLE_CONFIRMED", level: "Yellow" });
    const evidence = en.findings[0].evidence as {
      region: Box;
      strongest: { score: number };
      interior: { ratio: number; ring: number[] };
    };
    expect(evidence.strongest.score).toBeGreaterThanOrEqual(CONFIRMED_BLUR_THRESHOLDS.minScore);
    expect(evidence.strongest.score).toBeLessThan(BLUR_THRESHOLDS.yellow);
    for (const k of ["x", "y", "width", "height"] as const)
      expect(Math.abs(evidence.region[k] - rect[k])).toBeLessThanOrEqual(3);
    expect(evidence.interior.ring).toHaveLength(4);
    expect(en.findings[0].explanation).toContain(`at least ${Math.floor(evidence.interior.ratio)} times weaker`);
    const de = await blurAnalyzer.analyze(scanFile("weak.png", bytes), context({ language: "de" }));
    expect(de.findings[0].title).toBe("Wahrscheinlich nachträglich weichgezeichnetes Rechteck");
    expect(de.findings[0].explanation).toContain(`mindestens ${Math.floor(evidence.interior.ratio)}-mal schwächer`);
    const pl = await blurAnalyzer.analyze(scanFile("weak.png", bytes), context({ language: "pl" }));
    expect(pl.findings[0].title).toBe("Prostokąt prawdopodobnie rozmyty po wykonaniu zdjęcia");
  });

  it("the same picture without the blur, soft bands included, stays Green", async () => {
    const untouched = softBands(detailedPicture(W, H), [60, 90], [80, 120]);
    const r = await blurAnalyzer.analyze(scanFile("bands.png", png(untouched)), context());
    expect(r.findings[0]).toMatchObject({ code: "BLUR_NONE", level: "Green" });
  });

  it("on a soft picture (camera-like: each pixel doubled, then σ 1) a σ 5 blur shows only at half size, and is confirmed there (blur 1.2.0)", async () => {
    const [w, h] = [2 * W, 2 * H];
    const doubled = { width: w, height: h, data: new Float32Array(w * h) };
    const sharp = detailedPicture(W, H);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) doubled.data[y * w + x] = sharp.data[(y >> 1) * W + (x >> 1)];
    const soft = blurInside(doubled, { x: 0, y: 0, width: w, height: h }, 1);
    const area = { x: 134, y: 82, width: 180, height: 140 };
    const blurred = blurInside(soft, area, 5);
    expect(searchBlurRectangle(blurred)).toBeNull();
    const r = await blurAnalyzer.analyze(scanFile("soft.png", png(blurred)), context());
    expect(r.findings[0]).toMatchObject({ code: "BLUR_RECTANGLE_CONFIRMED", level: "Yellow" });
    const evidence = r.findings[0].evidence as { region: Box; halfSize: { width: number } };
    expect(evidence.halfSize.width).toBe(W);
    for (const k of ["x", "y", "width", "height"] as const)
      expect(Math.abs(evidence.region[k] - area[k])).toBeLessThanOrEqual(10);
    expect(r.findings[0].explanation).toContain("reduced to half its size");
    const untouched = await blurAnalyzer.analyze(scanFile("soft.png", png(soft)), context());
    expect(untouched.findings[0]).toMatchObject({ code: "BLUR_NONE", level: "Green" });
  });
});

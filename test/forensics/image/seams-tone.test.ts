import { describe, expect, it } from "vitest";
import { searchSeams } from "../../../src/scanner/forensics/seam-search";
import { SEAM_THRESHOLDS, seamsAnalyzer, TONE_BOX_THRESHOLDS } from "../../../src/scanner/forensics/seams";
import { searchToneBox } from "../../../src/scanner/forensics/tone-box";
import { encodeRgbaPngStreamed } from "../../../src/scanner/images/png-encode";
import { context, scanFile } from "./fixtures";
import { brighter, retone, texturedPicture } from "./seam-pictures";

const darker = (v: number) => (v - 10) / 1.2;
// A picture of odd size whose grain hides the step at single pixels.
const rect = { x: 61, y: 37, width: 150, height: 110 };
const grainy = () => texturedPicture(301, 233, 36);

describe("cut edges: the tone box (seams 1.1)", () => {
  it("a brightness change across texture that hides its step at single pixels is found by its sides' t", () => {
    const img = retone(grainy(), rect, brighter);
    expect(searchSeams(img)?.score ?? 0).toBeLessThan(SEAM_THRESHOLDS.yellow);
    const found = searchToneBox(img);
    expect(found).toMatchObject({ ...rect, sign: 1 });
    expect(found?.score).toBeGreaterThanOrEqual(TONE_BOX_THRESHOLDS.yellow);
  });

  it("a darkened box is found with the opposite sign", () => {
    expect(searchToneBox(retone(grainy(), rect, darker))).toMatchObject({ ...rect, sign: -1 });
  });

  it("the untouched picture, soft (feathered) edges and an edge spread over two pixels stay under the threshold", () => {
    for (const img of [grainy(), retone(grainy(), rect, brighter, 4), retone(grainy(), rect, brighter, 2)])
      expect(searchToneBox(img)?.score ?? 0).toBeLessThan(TONE_BOX_THRESHOLDS.yellow);
  });

  it("a box whose sides step by unlike amounts (brighter towards one side, as a lit sign) is no tone change", () => {
    const quiet = texturedPicture(301, 233);
    const lit = retone(quiet, rect, (v, dx) => v + 10 + 0.8 * dx);
    // Every side is a one-pixel step (the step-share search frames it), but left steps by 10, right by ≈ 130.
    expect(searchSeams(lit)?.score).toBeGreaterThanOrEqual(SEAM_THRESHOLDS.yellow);
    expect(searchToneBox(lit)).toBeNull();
    expect(searchToneBox(retone(quiet, rect, brighter))).toMatchObject({ ...rect, sign: 1 });
  });

  it("the analyzer reports the box as brighter than its surroundings, in each language", async () => {
    const img = retone(grainy(), rect, brighter);
    const rgba = new Uint8Array(img.width * img.height * 4);
    img.data.forEach((v, i) =>
      rgba.set(
        [v, v, v, 255].map((c) => Math.max(0, Math.min(255, Math.round(c)))),
        i * 4,
      ),
    );
    const bytes = encodeRgbaPngStreamed(rgba, img.width, img.height);
    const en = await seamsAnalyzer.analyze(scanFile("box.png", bytes), context());
    expect(en.findings[0]).toMatchObject({ code: "SEAM_RECTANGLE", level: "Yellow", evidence: { region: rect } });
    expect((en.findings[0].evidence as { strongest: { score: number } }).strongest.score).toBeLessThan(
      SEAM_THRESHOLDS.yellow,
    );
    expect(en.findings[0].explanation).toContain("brighter than its surroundings");
    const de = await seamsAnalyzer.analyze(scanFile("box.png", bytes), context({ language: "de" }));
    expect(de.findings[0].explanation).toContain("heller als seine Umgebung");
    const pl = await seamsAnalyzer.analyze(scanFile("box.png", bytes), context({ language: "pl" }));
    expect(pl.findings[0].explanation).toContain("jaśniejszy od otoczenia");
  });
});

import { describe, expect, it } from "vitest";
import { elaAnalyzer, elaScores } from "../../../src/scanner/forensics/ela";
import { noiseAnalyzer, noiseScores } from "../../../src/scanner/forensics/noise";
import { blockMaps } from "../../../src/scanner/images/block-analysis";
import { context, generatedFile, scanFile, sharedFile } from "./fixtures";
import manifest from "../../fixtures/generated/manifest.json";

type Case = {
  file: string;
  kind: string;
  region: { x: number; y: number; w: number; h: number } | null;
  width: number;
  height: number;
};
const cases = (manifest as { cases: Case[] }).cases;

/** Mean score of judged blocks inside vs outside the true region. */
function insideOutside(
  scores: Float32Array,
  blocksWide: number,
  region: NonNullable<Case["region"]>,
): { inside: number; outside: number } {
  let si = 0,
    ni = 0,
    so = 0,
    no = 0;
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (Number.isNaN(v)) continue;
    const x = (i % blocksWide) * 8 + 4;
    const y = Math.floor(i / blocksWide) * 8 + 4;
    const inside = x >= region.x && x < region.x + region.w && y >= region.y && y < region.y + region.h;
    if (inside) {
      si += v;
      ni++;
    } else {
      so += v;
      no++;
    }
  }
  return { inside: si / Math.max(1, ni), outside: so / Math.max(1, no) };
}

async function pngSize(bytes: Uint8Array): Promise<[number, number]> {
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  return [v.getUint32(16), v.getUint32(20)];
}

describe("ELA heatmap", () => {
  it("is a PNG named <file>.ela.png, at most 4 px per block, same result on every run", async () => {
    const bytes = await sharedFile("photos/opencv-doc/leuvenA.jpg");
    const a = await elaAnalyzer.analyze(scanFile("leuvenA.jpg", bytes), context());
    const b = await elaAnalyzer.analyze(scanFile("leuvenA.jpg", bytes.slice()), context());
    const png = a.attachments?.[0];
    expect(png).toMatchObject({ category: "heatmaps", name: "leuvenA.jpg.ela.png", contentType: "image/png" });
    // 751×563 rounded up to whole 8×8 blocks (94 × 71), drawn at 4 px per block (twice its 1/4-scale background)
    expect(await pngSize(png!.bytes)).toEqual([376, 284]);
    expect(png!.bytes).toEqual(b.attachments?.[0].bytes);
    expect(a.findings[0]).toMatchObject({ code: "ELA_UNIFORM", level: "Green" });
  });

  it("spliced regions score higher than the rest on most generated cases", async () => {
    const higher: string[] = [];
    const splices = cases.filter((x) => x.kind === "splice");
    for (const c of splices) {
      const maps = await blockMaps(await generatedFile(c.file));
      if (!maps.ok) throw new Error(maps.reason);
      const { inside, outside } = insideOutside(elaScores(maps.maps), maps.maps.blocksWide, c.region!);
      if (inside > outside) higher.push(c.file);
    }
    // 3 of 4: a patch from a photo with the same camera and quality (leuvenA into leuvenB) is invisible to ELA.
    expect(higher.length).toBeGreaterThanOrEqual(splices.length - 1);
  });
});

describe("noise heatmap", () => {
  it("blurred regions score higher (less noise) than the rest on most generated cases", async () => {
    const higher: string[] = [];
    const blurs = cases.filter((x) => x.kind === "blur");
    for (const c of blurs) {
      const maps = await blockMaps(await generatedFile(c.file));
      if (!maps.ok) throw new Error(maps.reason);
      const { inside, outside } = insideOutside(noiseScores(maps.maps), maps.maps.blocksWide, c.region!);
      if (inside > outside) higher.push(c.file);
    }
    // 3 of 4: blur over coarse wood grain leaves mostly edge blocks, which the noise map does not judge.
    expect(higher.length).toBeGreaterThanOrEqual(blurs.length - 1);
  });

  it("compares grain with equally smooth blocks: plain walls next to textured stone are no area of missing noise", async () => {
    // Nikon COOLPIX originals (no editor, camera size): against equally bright stone the painted walls read
    // as 5-8× less noise; against equally smooth blocks they do not stand out.
    for (const name of ["DSCN0038.jpg", "DSCN0040.jpg", "DSCN0042.jpg"]) {
      const bytes = await sharedFile(`exif-samples/jpg/gps/${name}`);
      const r = await noiseAnalyzer.analyze(scanFile(name, bytes), context());
      expect(r.findings[0], name).toMatchObject({ code: "NOISE_UNIFORM", level: "Green" });
    }
  });

  it("attaches <file>.noise.png and marks what it could not judge", async () => {
    const bytes = await generatedFile("blur/leuvenA.jpg");
    const r = await noiseAnalyzer.analyze(scanFile("blur.jpg", bytes), context());
    expect(r.attachments?.[0].name).toBe("blur.jpg.noise.png");
    expect(r.findings[0].evidence.judgedShare).toBeGreaterThan(0);
    expect(r.findings[0].evidence.judgedShare).toBeLessThan(1);
  });
});

describe("pixel detectors on files they cannot read", () => {
  it("a truncated JPEG is '-' with a reason", async () => {
    const r = await elaAnalyzer.analyze(
      scanFile("c.jpg", await sharedFile("exif-samples/jpg/corrupted.jpg")),
      context(),
    );
    expect(r).toMatchObject({ assessed: false, findings: [{ code: "ELA_NOT_ASSESSED", level: "-" }] });
    const n = await noiseAnalyzer.analyze(
      scanFile("c.jpg", await sharedFile("exif-samples/jpg/corrupted.jpg")),
      context(),
    );
    expect(n.findings[0].level).toBe("-");
  });
});

describe("copy-move heatmap", () => {
  it("is deterministic, at half the searched picture's size (as the cut edges' and blur's)", async () => {
    const { copyMoveAnalyzer } = await import("../../../src/scanner/forensics/copy-move");
    const bytes = await generatedFile("copymove/Dune.jpg");
    const a = await copyMoveAnalyzer.analyze(scanFile("d.jpg", bytes), context());
    const b = await copyMoveAnalyzer.analyze(scanFile("d.jpg", bytes.slice()), context());
    expect(await pngSize(a.attachments![0].bytes)).toEqual([256, 192]);
    expect(a.attachments![0].bytes).toEqual(b.attachments![0].bytes);
  });
});

describe("PNG input goes through the pixel path", () => {
  it("ELA and noise assess a PNG made from a camera photo", async () => {
    const { PhotonImage } = await import("@cf-wasm/photon");
    const jpeg = PhotonImage.new_from_byteslice(await sharedFile("photos/opencv-doc/leuvenA.jpg"));
    const png = jpeg.get_bytes();
    jpeg.free();
    const ela = await elaAnalyzer.analyze(scanFile("a.png", png), context());
    expect(ela).toMatchObject({ assessed: true, metadata: { source: "pixels" } });
    expect(ela.attachments?.[0].name).toBe("a.png.ela.png");
    const noise = await noiseAnalyzer.analyze(scanFile("a.png", png), context());
    expect(noise.assessed).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { imageAnalyzers } from "../../../src/scanner/forensics/image-analyzers";
import { analyzers } from "../../../src/scanner/forensics/registry";
import { encodePng } from "../../../src/scanner/images/png-encode";
import { crc32 } from "../../../src/lib/crc32";
import type { ScanFile } from "../../../src/scanner/types";
import { context, scanFile, sharedFile } from "./fixtures";

const BROKEN = [
  "exif-samples/jpg/corrupted.jpg",
  ...["image00971", "image01088", "image01137", "image01551", "image01713", "image01980", "image02206"].map(
    (n) => `exif-samples/jpg/invalid/${n}.jpg`,
  ),
];

async function runAll(file: ScanFile) {
  const out = [];
  for (const a of imageAnalyzers)
    if (a.appliesTo(file)) out.push({ id: a.id, result: await a.analyze(file, context()) });
  return out;
}

describe("malformed images: every image detector answers with findings, never throws", () => {
  it("broken and truncated files from exif-samples", async () => {
    for (const path of BROKEN) {
      for (const { id, result } of await runAll(scanFile(path, await sharedFile(path)))) {
        expect(result.findings.length, `${id} on ${path}`).toBeGreaterThan(0);
        if (!result.assessed)
          expect(
            result.findings.some((f) => f.level === "-"),
            `${id} on ${path}`,
          ).toBe(true);
      }
    }
  }, 60_000);

  it("a JPEG signature followed by noise, an empty PNG and a PNG cut after its header", async () => {
    const noise = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
    noise.set([0xff, 0xd8, 0xff]);
    const png = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6,
      0, 0, 0,
    ]);
    for (const [name, bytes] of [
      ["noise.jpg", noise],
      ["cut.png", png],
      ["empty.png", png.subarray(0, 8)],
    ] as const) {
      const results = await runAll(scanFile(name, bytes));
      expect(results.length, name).toBeGreaterThan(0);
      const pixel = results.filter((r) => ["ela", "noise", "copy-move"].includes(r.id));
      for (const r of pixel)
        expect(r.result, `${r.id} on ${name}`).toMatchObject({ assessed: false, findings: [{ level: "-" }] });
    }
  });
});

/** A valid 4 × 4 PNG whose IHDR (CRC fixed up) then claims `side` × `side` pixels. */
function pngClaiming(side: number): Uint8Array {
  const png = encodePng(new Uint8Array(4 * 4 * 4).fill(200), 4, 4);
  const view = new DataView(png.buffer);
  view.setUint32(16, side);
  view.setUint32(20, side);
  view.setUint32(29, crc32(png.subarray(12, 29)));
  return png;
}

describe("a header that declares a huge picture never reaches a full decode", () => {
  it("a 100-byte PNG claiming 60000 × 60000 pixels: every pixel analyzer says `-` instead of decoding", async () => {
    const file = scanFile("huge.png", pngClaiming(60_000));
    const pixelAnalyzers = ["thumbnail", "recapture-model", "manipulation-model", "ela", "noise", "copy-move"];
    for (const analyzer of analyzers.filter((a) => pixelAnalyzers.includes(a.id))) {
      expect(analyzer.appliesTo(file), analyzer.id).toBe(true);
      const result = await analyzer.analyze(file, context());
      expect(
        result.findings.some((f) => f.level === "-"),
        `${analyzer.id}: ${JSON.stringify(result.findings)}`,
      ).toBe(true);
    }
  });
});

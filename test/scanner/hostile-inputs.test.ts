/**
 * Issue 20 / issue 19 item 5: heavy and hostile inputs, built in memory (test/support/hostile-inputs.ts),
 * run through every detector that applies. Each must finish without a throw, and where a budget
 * stops the work the finding says so (level "-"). Timing is not asserted (a busy machine must not
 * fail a test); the budgets make each input cost milliseconds to a few seconds (docs/forensics.md).
 */
import { describe, expect, it } from "vitest";
import { fileTypeAnalyzer } from "../../src/scanner/forensics/file-type";
import { analyzers } from "../../src/scanner/forensics/registry";
import { inflateWithin } from "../../src/scanner/images/bounded-inflate";
import { MAX_BLOCK_MAP_PIXELS } from "../../src/scanner/images/pixel-budget";
import { pdfLimits } from "../../src/scanner/pdf/limits";
import { streamBudget } from "../../src/scanner/pdf/stream-budget";
import type { AnalyzerResult, Language, ScanFile } from "../../src/scanner/types";
import * as H from "../support/hostile-inputs";

const MB = 1024 * 1024;

function file(name: string, bytes: Uint8Array): ScanFile {
  const kind = name.endsWith(".pdf") ? "pdf" : name.endsWith(".png") ? "png" : "jpeg";
  return {
    name,
    bytes,
    kind,
    mimeType: kind === "pdf" ? "application/pdf" : `image/${kind}`,
    sha256: "0".repeat(64),
    size: bytes.length,
  };
}

/** Every registered detector that applies, in registry order, keyed by id. */
async function runAll(f: ScanFile, language: Language = "en"): Promise<Record<string, AnalyzerResult>> {
  const out: Record<string, AnalyzerResult> = {};
  for (const a of analyzers)
    if (a.appliesTo(f))
      out[a.id] = await a.analyze(f, {
        language,
        issueDate: null,
        now: new Date("2026-01-01T00:00:00Z"),
        caseNumber: "HOSTILE",
      });
  return out;
}

const codes = (r: AnalyzerResult) => r.findings.map((f) => `${f.code}:${f.level}`);

describe("generators: what they build is what they claim", () => {
  it("a deflate run inflates to the size asked for, from ≈ 1/160 of it", () => {
    const data = H.zlibRun(5 * MB);
    expect(data.length).toBeLessThan(H.deflateRunSize(5 * MB) / 150);
    const all = inflateWithin(data, 64 * MB);
    expect(all.over).toBe(false);
    expect(all.damaged).toBe(false);
    expect(all.size).toBeGreaterThanOrEqual(5 * MB);
  });
  it("the flat 20000 × 20000 JPEG is 1.6 MB", () => {
    expect(H.flatJpeg(20_000, 20_000).length).toBeLessThan(1.7 * MB);
  });
});

describe("bounded inflate", () => {
  it("stops at the budget and keeps at most the budget", () => {
    const r = inflateWithin(H.zlibRun(300 * 1000 * 1000), MB);
    expect(r.over).toBe(true);
    expect(r.bytes.length).toBe(MB);
    expect(r.size).toBeLessThan(20 * MB); // one step past the budget at most
  });
  it("counting only keeps nothing", () => {
    const r = inflateWithin(H.zlibRun(50 * MB), MB, false);
    expect(r).toMatchObject({ over: true, bytes: new Uint8Array(0) });
  });
});

describe("JPEGs over the pixel budget are refused before anything is allocated", () => {
  for (const [name, bytes] of [
    ["a 141-byte JPEG claiming 20000 × 20000", () => H.lyingJpeg(20_000, 20_000)],
    ["a real flat 20000 × 20000 baseline JPEG (1.6 MB)", () => H.flatJpeg(20_000, 20_000)],
    ["a JPEG claiming 65535 × 65535 (2.2 GB of block maps)", () => H.lyingJpeg(65_535, 65_535)],
  ] as const)
    it(name, async () => {
      const r = await runAll(file("big.jpg", bytes()));
      expect(codes(r.thumbnail)).toContain("THUMBNAIL_TOO_LARGE:-");
      for (const [id, code] of [
        ["ela", "ELA_NOT_ASSESSED"],
        ["noise", "NOISE_NOT_ASSESSED"],
        ["copy-move", "COPY_MOVE_NOT_ASSESSED"],
      ]) {
        expect(r[id].assessed).toBe(false);
        expect(r[id].findings[0]).toMatchObject({ code, level: "-", evidence: { maxPixels: MAX_BLOCK_MAP_PIXELS } });
        expect(r[id].findings[0].title).toMatch(/picture too large/);
      }
      expect(codes(r["jpeg-structure"])).toContain("JPEG_DOUBLE_COMPRESSION_NOT_ASSESSED:-");
      expect(codes(r["manipulation-model"])).toContain("MANIPULATION_NOT_ASSESSED:-");
    });

  it("the too-large text is in German and Polish as well", async () => {
    for (const [language, words] of [
      ["de", /Bild zu groß/],
      ["pl", /obraz zbyt duży/],
    ] as const) {
      const r = await runAll(file("big.jpg", H.lyingJpeg(20_000, 20_000)), language);
      expect(r.ela.findings[0].title).toMatch(words);
    }
  });

  it("a 141-byte JPEG claiming 49 MP (within budget) fails at its data, not at an allocation", async () => {
    const r = await runAll(file("lie.jpg", H.lyingJpeg(7_000, 7_000)));
    expect(codes(r.thumbnail)).toContain("IMAGE_UNDECODABLE:-");
    expect(r["jpeg-structure"].assessed).toBe(false);
  });

  it("a real 49 MP baseline JPEG (flat, 190 KB) is analysed completely", async () => {
    const r = await runAll(file("49mp.jpg", H.flatJpeg(7_000, 7_000)));
    for (const id of ["thumbnail", "ela", "noise", "jpeg-structure"]) expect(r[id].assessed).toBe(true);
    // Copy-move reads the whole picture too, then leaves it unjudged for its content (one flat value: drawn, not
    // photographed), not for its size.
    expect(r["copy-move"].findings[0]).toMatchObject({
      code: "COPY_MOVE_NOT_ASSESSED",
      evidence: { equalNeighbourShare: 1 },
    });
  }, 120_000);
});

describe("PNG inflate budgets", () => {
  it("an IDAT that inflates to 300 MB for a 100 × 100 picture: only the picture's rows are inflated", async () => {
    const r = await runAll(file("idat.png", H.pngIdatBomb(300 * 1000 * 1000)));
    expect(r.thumbnail.assessed).toBe(true);
    expect(r.ela.assessed).toBe(true);
  });
  it("a zTXt chunk that inflates to 200 MB: read up to 1 MB and reported", async () => {
    const r = await runAll(file("text.png", H.pngTextBomb(200 * 1000 * 1000)));
    expect(r.metadata.findings.find((f) => f.code === "META_PNG_TEXT_TOO_LARGE")).toMatchObject({
      level: "-",
      evidence: { keys: ["Comment"] },
    });
    expect(r.provenance.assessed).toBe(true);
  });
});

describe("PDF unpack budget: checked before pdf.js or pdf-lib opens the file", () => {
  const bombs: [string, () => Uint8Array, "stream" | "image"][] = [
    ["a content stream inflating to 200 MB", () => H.pdfContentBomb(200e6), "stream"],
    ["the same with /Filter [/FlateDecode]", () => H.pdfContentBomb(200e6, "[/FlateDecode]"), "stream"],
    ["an XMP metadata stream inflating to 200 MB", () => H.pdfMetadataBomb(200e6), "stream"],
    ["a form XObject inflating to 200 MB", () => H.pdfFormBomb(200e6), "stream"],
    ["an unreferenced object stream inflating to 200 MB", () => H.pdfObjectStreamBomb(200e6), "stream"],
    [
      "a 100 × 100 image XObject whose Flate data inflates to 300 MB",
      () => H.pdfFlateImageBomb(300e6, 100, 100),
      "image",
    ],
  ];
  for (const [name, bytes, part] of bombs)
    it(name, async () => {
      const f = file("bomb.pdf", bytes());
      // The gate stops the file: level "-" in the pipeline, nothing after it runs.
      const gate = await fileTypeAnalyzer.analyze(f, {
        language: "en",
        issueDate: null,
        now: new Date(),
        caseNumber: "HOSTILE",
      });
      expect(gate).toMatchObject({
        assessed: false,
        findings: [{ code: "PDF_UNPACK_BUDGET_EXCEEDED", level: "-", evidence: { part } }],
      });
      const r = await runAll(f);
      expect(r["pdf-structure"]).toMatchObject({
        assessed: false,
        findings: [{ code: "PDF_UNPACK_BUDGET_EXCEEDED", level: "-", evidence: { part } }],
      });
      for (const id of ["pdf-signatures", "pdf-images", "pdf-diffs"])
        expect(r[id]).toMatchObject({ assessed: false, findings: [] });
      expect(r["pdf-revisions"].assessed).toBe(true); // counting saves reads no stream
    }, 60_000);

  it("the finding says why in German and Polish too", async () => {
    const bytes = H.pdfContentBomb(50e6);
    expect((await runAll(file("b.pdf", bytes), "de"))["pdf-structure"].findings[0].explanation).toMatch(
      /Dekompressionsbomben/,
    );
    expect((await runAll(file("b.pdf", bytes), "pl"))["pdf-structure"].findings[0].explanation).toMatch(
      /bomby dekompresyjne/,
    );
  });

  it("a 10000 × 10000 image XObject inflating to 300 MB is left to pdf.js, which skips images over 12 MP", async () => {
    const bytes = H.pdfFlateImageBomb(300e6);
    expect(streamBudget(bytes).ok).toBe(true);
    const r = await runAll(file("big-image.pdf", bytes));
    expect(r["pdf-images"].extracted ?? []).toHaveLength(0);
    expect(r["pdf-structure"].assessed).toBe(true);
  }, 60_000);

  it("an ordinary Flate content stream passes and is interpreted (the cap once missed every Flate stream)", async () => {
    const bytes = H.pdfContentBomb(2 * MB); // 2 MB of spaces: within the stream budget, over the page's 1 MB
    expect(streamBudget(bytes)).toMatchObject({ ok: true });
    const r = await runAll(file("spaces.pdf", bytes));
    expect(codes(r["pdf-structure"])).toContain("PDF_PAGE_TOO_COMPLEX:-");
  });
});

describe("PDFs with heavy but legitimate-looking content", () => {
  it("a 20000 × 20000 JPEG inside a PDF is handed over raw, and the image detectors refuse it by its header", async () => {
    const pdf = await runAll(file("scan.pdf", H.pdfWithJpeg(H.flatJpeg(20_000, 20_000), 20_000, 20_000)));
    const [jpeg] = pdf["pdf-images"].extracted ?? [];
    expect(jpeg).toMatchObject({ kind: "jpeg" });
    const r = await runAll(jpeg);
    expect(codes(r.thumbnail)).toContain("THUMBNAIL_TOO_LARGE:-");
    expect(r.ela.findings[0].evidence).toMatchObject({ width: 20_000, height: 20_000 });
  }, 60_000);

  it("a PDF whose JPEG header lies about 20000 × 20000 pixels", async () => {
    const r = await runAll(file("lie.pdf", H.pdfWithJpeg(H.lyingJpeg(20_000, 20_000), 20_000, 20_000)));
    expect(r["pdf-images"].extracted).toHaveLength(1);
    const image = await runAll(r["pdf-images"].extracted![0]);
    expect(image.ela.assessed).toBe(false);
  }, 60_000);

  it("300 incremental revisions: counted, at most maxRevisions diffed and attached", async () => {
    const r = await runAll(file("revs.pdf", H.pdfWithRevisions(300)));
    expect(codes(r["pdf-revisions"])).toContain("PDF_INCREMENTAL_UPDATES:Yellow");
    expect((r["pdf-revisions"].attachments ?? []).length).toBeLessThanOrEqual(pdfLimits.maxRevisions);
    expect(((r["pdf-diffs"].metadata?.diffs ?? []) as unknown[]).length).toBeLessThanOrEqual(pdfLimits.maxRevisions);
  }, 120_000);
});

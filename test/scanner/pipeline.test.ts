import { describe, expect, it } from "vitest";
import { requestDigest } from "../../src/scanner/execution/digest";
import { fileTypeAnalyzer } from "../../src/scanner/forensics/file-type";
import { thumbnailAnalyzer } from "../../src/scanner/forensics/thumbnail";
import { finding } from "../../src/scanner/finding";
import { intakeArchive, memorySource } from "../../src/scanner/intake";
import { runPipeline } from "../../src/scanner/analysis/pipeline";
import { modelVersions } from "../../src/scanner/analysis/analyzer-sets";
import { tokenPrices } from "../../src/scanner/analysis/pricing";
import type { Analyzer, Attachment, ScanContext, ScanFile } from "../../src/scanner/types";
import { samples, zip } from "./fixtures";

const ctx: ScanContext = { language: "en", issueDate: null, now: new Date(), caseNumber: "PIPE-1" };
const text = {
  de: { title: "t", explanation: "e" },
  en: { title: "t", explanation: "e" },
  pl: { title: "t", explanation: "e" },
};

async function run(files: Record<string, Uint8Array>, analyzers: Analyzer[]) {
  const attachments: Attachment[] = [];
  const result = await runPipeline(
    intakeArchive(memorySource(zip(files))),
    ctx,
    async (a) => {
      attachments.push(a);
      return `${a.category}/${a.name}`;
    },
    analyzers,
  );
  return { result, attachments };
}

const yellowOnJpeg: Analyzer = {
  id: "yellow",
  version: "1",
  appliesTo: (f) => f.kind === "jpeg",
  analyze: async () => ({ assessed: true, findings: [finding("en", "META_EDITING_SOFTWARE", "Yellow", text)] }),
};

describe("per-file and overall levels (DESIGN §18)", () => {
  it("a file's level is its highest finding, at least Green once assessed; overall is the highest file", async () => {
    const { result } = await run({ "a.jpg": samples.canon, "b.pdf": samples.pdf, "c.txt": new Uint8Array([1, 2, 3]) }, [
      fileTypeAnalyzer,
      yellowOnJpeg,
    ]);
    expect(result.Files["a.jpg"].suspicion_level).toBe("Yellow");
    expect(result.Files["b.pdf"].suspicion_level).toBe("Green");
    expect(result.Files["c.txt"].suspicion_level).toBe("-");
    expect(result.suspicion_level).toBe("Yellow");
  });

  it("a gatekeeper that cannot assess a file stops the analyzers after it", async () => {
    let calls = 0;
    const counting: Analyzer = {
      id: "count",
      version: "1",
      appliesTo: () => true,
      analyze: async () => (calls++, { assessed: true, findings: [] }),
    };
    const truncated = samples.canon.subarray(0, samples.canon.length >> 1);
    const { result } = await run({ "x.jpg": truncated, "n.bin": new Uint8Array([9, 9, 9]) }, [
      fileTypeAnalyzer,
      counting,
    ]);
    expect(calls).toBe(0);
    expect(Object.values(result.Files).map((f) => [f.suspicion_level, f.findings[0].code])).toEqual([
      ["-", "FILE_TRUNCATED"],
      ["-", "FILE_TYPE_UNSUPPORTED"],
    ]);
  });

  it("an image whose pixels cannot be decoded is `-` (exif-samples corrupted.jpg)", async () => {
    const { result } = await run({ "x.jpg": samples.corruptJpeg }, [fileTypeAnalyzer, thumbnailAnalyzer, yellowOnJpeg]);
    expect(result.Files["x.jpg"].suspicion_level).toBe("-");
    expect(result.Files["x.jpg"].findings.map((f) => f.code)).toEqual(["IMAGE_UNDECODABLE"]);
  });

  it("a throwing analyzer becomes a `-` finding, the others still count", async () => {
    const broken: Analyzer = {
      id: "boom",
      version: "1",
      appliesTo: () => true,
      analyze: async () => {
        throw new Error("boom");
      },
    };
    const { result } = await run({ "a.jpg": samples.canon }, [fileTypeAnalyzer, broken, yellowOnJpeg]);
    expect(result.Files["a.jpg"].findings.map((f) => [f.code, f.level])).toEqual([
      ["ANALYZER_FAILED", "-"],
      ["META_EDITING_SOFTWARE", "Yellow"],
    ]);
    expect(result.Files["a.jpg"].suspicion_level).toBe("Yellow");
  });

  it("a file named .jpg that is a PNG is flagged", async () => {
    const png = await (async () => {
      const { result, attachments } = await run({ "a.jpg": samples.canon }, [thumbnailAnalyzer]);
      expect(result.Files["a.jpg"].attachments).toEqual(["thumbnails/a.jpg.thumb.png"]);
      return attachments[0].bytes;
    })();
    const { result } = await run({ "photo.jpg": png }, [fileTypeAnalyzer]);
    expect(result.Files["photo.jpg"].findings[0]).toMatchObject({ code: "FILE_EXTENSION_MISMATCH", level: "Yellow" });
  });
});

describe("extracted files are analysed too", () => {
  it("runs the registry on what an analyzer extracts, with its source", async () => {
    const extractor: Analyzer = {
      id: "extract",
      version: "1",
      appliesTo: (f) => f.kind === "pdf",
      analyze: async (file) => {
        const child: ScanFile = {
          ...file,
          name: `${file.name}#p1-1.jpg`,
          bytes: samples.nikon,
          kind: "jpeg",
          mimeType: "image/jpeg",
          size: samples.nikon.length,
          source: { parent: file.name, page: 1 },
        };
        return { assessed: true, findings: [], extracted: [child] };
      },
    };
    const { result } = await run({ "doc.pdf": samples.pdf }, [fileTypeAnalyzer, extractor, yellowOnJpeg]);
    expect(Object.keys(result.Files)).toEqual(["doc.pdf", "doc.pdf#p1-1.jpg"]);
    expect(result.Files["doc.pdf#p1-1.jpg"]).toMatchObject({
      suspicion_level: "Yellow",
      source: { parent: "doc.pdf", page: 1 },
    });
    expect(result.tokensConsumed).toBe(tokenPrices.pdf + tokenPrices.extracted);
  });
});

describe("tokensConsumed and modelVersions", () => {
  it("prices files by type from the price table", async () => {
    const { result } = await run({ "a.jpg": samples.canon, "b.pdf": samples.pdf, "c.txt": new Uint8Array([1]) }, [
      fileTypeAnalyzer,
    ]);
    expect(result.tokensConsumed).toBe(tokenPrices.image + tokenPrices.pdf + tokenPrices.notAssessed);
  });
  it("lists every registered analyzer, learned models with name, version and hash", () => {
    const learned: Analyzer = {
      ...yellowOnJpeg,
      id: "ml",
      model: { name: "tiny-cnn", version: "2", sha256: "abcdef12" },
    };
    expect(modelVersions([fileTypeAnalyzer, learned])).toEqual({
      "file-type": "1.1.0",
      ml: "1; tiny-cnn 2 (sha256 abcdef12)",
    });
  });
});

describe("request digest (DESIGN §9)", () => {
  const base = { accountId: "acc", caseNumber: "CASE-1", issueDate: null, language: "de", fileHashes: ["b", "a"] };
  it("ignores file order, changes with contents, case, language, date and account", async () => {
    const d = await requestDigest(base);
    expect(await requestDigest({ ...base, fileHashes: ["a", "b"] })).toBe(d);
    for (const patch of [
      { fileHashes: ["a", "c"] },
      { caseNumber: "CASE-2" },
      { language: "en" },
      { issueDate: "2026-01-01T00:00:00.000Z" },
      { accountId: "other" },
    ]) {
      expect(await requestDigest({ ...base, ...patch })).not.toBe(d);
    }
  });
});

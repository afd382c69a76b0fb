// Runs our PDF detectors in Node (evaluation, benchmarks). Node 20 lacks
// ArrayBuffer.prototype.transferToFixedLength, which pdf.js uses for operator lists; workerd has
// it. The polyfill copies, which is what the native method does for a detached-source transfer.
import { createHash } from "node:crypto";
import type { Analyzer, AnalyzerResult, ScanContext, ScanFile, SuspicionLevel } from "../../src/scanner/types";

const proto = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: (n?: number) => ArrayBuffer };
if (!proto.transferToFixedLength)
  proto.transferToFixedLength = function (this: ArrayBuffer, n?: number) {
    return this.slice(0, n ?? this.byteLength);
  };

const { pdfRevisions } = await import("../../src/scanner/forensics/pdf-revisions");
const { pdfStructure } = await import("../../src/scanner/forensics/pdf-structure");
const { pdfSignatures } = await import("../../src/scanner/forensics/pdf-signatures");
const { pdfImages } = await import("../../src/scanner/forensics/pdf-images");
const { pdfDiffs } = await import("../../src/scanner/forensics/pdf-diffs");
const { highestLevel } = await import("../../src/scanner/finding");

export const pdfDetectors: Analyzer[] = [pdfRevisions, pdfStructure, pdfSignatures, pdfImages, pdfDiffs];

export const evalContext: ScanContext = { language: "en", issueDate: null, now: new Date(), caseNumber: "EVAL" };

export interface DetectorRun {
  level: SuspicionLevel;
  codes: string[];
  ms: number;
  results: Record<string, AnalyzerResult>;
  error: string | null;
}

/** Every PDF detector on one file; the file's level is the highest finding level (as the pipeline does). */
export async function runPdfDetectors(
  name: string,
  bytes: Uint8Array,
  ctx: ScanContext = evalContext,
): Promise<DetectorRun> {
  const file: ScanFile = {
    name,
    bytes,
    kind: "pdf",
    mimeType: "application/pdf",
    sha256: createHash("sha256").update(bytes).digest("hex"),
    size: bytes.length,
  };
  const started = performance.now();
  const results: Record<string, AnalyzerResult> = {};
  let error: string | null = null;
  for (const d of pdfDetectors) {
    try {
      results[d.id] = await d.analyze(file, ctx);
    } catch (e) {
      error = `${d.id}: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const findings = Object.values(results).flatMap((r) => r.findings);
  return {
    level: highestLevel(findings.map((f) => f.level)),
    codes: findings.filter((f) => f.level !== "Green").map((f) => `${f.level}:${f.code}`),
    ms: performance.now() - started,
    results,
    error,
  };
}

// What the bench Workers hand to the analyzers: posted bytes as a scan file, and a fixed context.
import { imageAnalyzers } from "../../src/scanner/forensics/image-analyzers";
import { planDecode } from "../../src/scanner/images/file-decode";
import type { Analyzer, ScanContext, ScanFile } from "../../src/scanner/types";

export const benchContext: ScanContext = { language: "en", issueDate: null, now: new Date(), caseNumber: "BENCH" };

export function benchFile(bytes: Uint8Array): ScanFile {
  const png = bytes[0] === 0x89 && bytes[1] === 0x50;
  return {
    name: png ? "bench.png" : "bench.jpg",
    bytes,
    kind: png ? "png" : "jpeg",
    mimeType: png ? "image/png" : "image/jpeg",
    sha256: "0".repeat(64),
    size: bytes.length,
  };
}

/** Those of `analyzers` (every registered image detector by default) that apply to `file`, its decode planned as the pipeline plans it. */
export function plannedAnalyzers(file: ScanFile, analyzers: Analyzer[] = imageAnalyzers): Analyzer[] {
  const applicable = analyzers.filter((a) => a.appliesTo(file));
  planDecode(
    file.bytes,
    applicable.flatMap((a) => a.reads ?? []),
  );
  return applicable;
}

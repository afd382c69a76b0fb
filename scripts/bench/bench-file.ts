// What the bench Workers hand to the analyzers: posted bytes as a scan file, and a fixed context.
import type { ScanContext, ScanFile } from "../../src/scanner/types";

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

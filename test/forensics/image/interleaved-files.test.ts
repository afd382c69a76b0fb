/**
 * Requests share an isolate: files analysed at once give up turns to each other in the middle of their shared
 * passes (the coefficient pass between MCU rows, the pixel pass between bands), while the kernels' scratch memory is
 * one per isolate and jpeg-grid keeps state in wasm memory between turns. Every image detector must then give the
 * results it gives when the files come one after the other.
 */
import { describe, expect, it } from "vitest";
import { imageAnalyzers } from "../../../src/scanner/forensics/image-analyzers";
import { planDecode } from "../../../src/scanner/images/file-decode";
import type { ScanFile } from "../../../src/scanner/types";
import { context, scanFile, sharedFile } from "./fixtures";

const FILES = [
  // 2560 × 1600: 100 MCU rows, so its passes give up many turns.
  "photos/plasma-workspace-wallpapers/ColdRipple-2560x1600.jpg",
  // Progressive: its own coefficient decoder.
  "photos/opencv-doc/ela_original.jpg",
  "photos/opencv-doc/leuvenA.jpg",
  "exif-samples/jpg/Canon_40D.jpg",
];

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every image detector on one file as the pipeline runs them: findings, metadata and attachment digests. */
async function outputs(file: ScanFile) {
  const applicable = imageAnalyzers.filter((a) => a.appliesTo(file));
  planDecode(
    file.bytes,
    applicable.flatMap((a) => a.reads ?? []),
  );
  const out: Record<string, unknown> = {};
  for (const analyzer of applicable) {
    const result = await analyzer.analyze(file, context());
    out[analyzer.id] = {
      findings: result.findings,
      metadata: result.metadata ?? null,
      attachments: await Promise.all((result.attachments ?? []).map(async (a) => `${a.name} ${await sha256(a.bytes)}`)),
    };
  }
  return out;
}

/** A fresh scan file per run: the shared products are cached per byte array. */
async function freshFile(path: string): Promise<ScanFile> {
  return scanFile(path.split("/").pop() as string, new Uint8Array(await sharedFile(path)));
}

describe("files analysed at once in one isolate", () => {
  it("give every detector's results of the files analysed one after the other", async () => {
    const oneByOne: unknown[] = [];
    for (const path of FILES) oneByOne.push(await outputs(await freshFile(path)));
    const files = await Promise.all(FILES.map(freshFile));
    const atOnce = await Promise.all(files.map(outputs));
    FILES.forEach((path, i) => expect(atOnce[i], path).toEqual(oneByOne[i]));
  });
});

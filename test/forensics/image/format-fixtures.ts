/**
 * What the format tests (formats.test.ts, big-pages.test.ts) share: the fixtures of test/fixtures/formats
 * (scripts/datagen/formats.sh), inlined into the test module because workerd cannot read files, and the
 * check that every pixel detector ran on a picture.
 */
import { expect } from "vitest";
import { imagePages } from "../../../src/scanner/forensics/image-pages";
import type { FileKind, Finding, Language, ScanFile } from "../../../src/scanner/types";
import { context } from "./fixtures";

const formats = import.meta.glob("../../fixtures/formats/*.{heic,webp,tiff}", {
  query: "?url&inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

export function fixture(name: string): Uint8Array {
  const url = formats[`../../fixtures/formats/${name}`];
  if (!url) throw new Error(`no fixture ${name}`);
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
}

/** Bytes as a scan file of this kind, for calling an analyzer directly. */
export const formatFile = (name: string, bytes: Uint8Array, kind: FileKind): ScanFile => ({
  name,
  bytes,
  kind,
  mimeType: `image/${kind}`,
  sha256: "",
  size: bytes.length,
});

/** A file's entry in the scanner's JSON response, as far as these tests read it. */
export interface FileResult {
  suspicion_level: string;
  mimeType: string;
  source?: { parent: string; page: number };
  findings: { code: string; level: string; explanation: string; evidence: Record<string, unknown> }[];
  metadata: Record<string, Record<string, unknown>>;
  attachments: string[];
}

/**
 * Every pixel detector of the default set on a JPEG/PNG/WebP (the JPEG-only ones aside) left its metadata
 * or its finding (the manipulation model is opt-in: models/manipulation.md).
 */
export function expectPixelDetectors(file: FileResult): void {
  for (const detector of ["thumbnail", "recapture-model", "ela", "noise"])
    expect(Object.keys(file.metadata)).toContain(detector);
  expect(file.findings.map((f) => f.code)).toContainEqual(expect.stringMatching(/^COPY_MOVE_/));
  for (const check of ["RECAPTURE", "ELA", "NOISE"])
    expect(file.findings.find((f) => f.code.startsWith(check))?.level).toMatch(/Green|Yellow|Red/);
}

/** image-pages refuses `file` as too large in every language given, decoding nothing, saying its `words`; the last finding. */
export async function expectTooLarge(
  file: ScanFile,
  words: readonly (readonly [Language, string])[],
): Promise<Finding> {
  let last: Finding | undefined;
  for (const [language, text] of words) {
    const result = await imagePages.analyze(file, context({ language }));
    expect(result.extracted ?? []).toEqual([]);
    expect(result.findings).toEqual([expect.objectContaining({ code: "IMAGE_FORMAT_TOO_LARGE", level: "-" })]);
    expect(result.findings[0].explanation).toContain(text);
    last = result.findings[0];
  }
  if (!last) throw new Error("no language given");
  return last;
}

import { sha256Hex } from "../../lib/crypto";
import type { ScanFile } from "../types";
import { readDirectory, type IntakeBudget } from "./directory";
import { readEntries, type RawEntry } from "./entries";
import { intakeLimits, type IntakeLimits } from "./limits";
import { refuse } from "./refuse";
import { isZip, mimeTypes, sniffKind } from "./sniff";
import { memorySource, type ZipSource } from "./source";

/** A file of the archive ready for analysis, or one that could not be extracted. */
export type IntakeItem =
  | { ok: true; file: ScanFile }
  | { ok: false; name: string; size: number; problem: "corrupt" | "unsupported-compression" };

/**
 * Every file of the archive, one at a time, nested ZIPs opened one level deep
 * (`outer.zip/inner.jpg`). Hostile archives are refused with a 422 before anything is inflated.
 */
export async function* intakeArchive(
  source: ZipSource,
  limits: IntakeLimits = intakeLimits,
): AsyncGenerator<IntakeItem> {
  const budget: IntakeBudget = { entries: 0, bytes: 0 };
  yield* walk(source, "", 0, limits, budget);
}

async function* walk(
  source: ZipSource,
  prefix: string,
  depth: number,
  limits: IntakeLimits,
  budget: IntakeBudget,
): AsyncGenerator<IntakeItem> {
  const directory = await readDirectory(source, limits, budget);
  for await (const raw of readEntries(source, directory)) {
    const name = prefix + raw.entry.name;
    if (!raw.ok) {
      yield { ok: false, name, size: raw.entry.size, problem: raw.problem };
      continue;
    }
    if (isZip(raw.bytes)) {
      if (depth >= limits.maxNesting)
        throw refuse(
          "zip-nested-too-deep",
          `"${name}" is a ZIP inside a ZIP inside the archive; only one level of nesting is opened.`,
        );
      yield* walk(memorySource(raw.bytes), `${name}/`, depth + 1, limits, budget);
      continue;
    }
    yield { ok: true, file: await scanFile(name, raw) };
  }
}

async function scanFile(name: string, raw: Extract<RawEntry, { ok: true }>): Promise<ScanFile> {
  const kind = sniffKind(raw.bytes);
  return {
    name,
    bytes: raw.bytes,
    kind,
    mimeType: mimeTypes[kind],
    sha256: await sha256Hex(raw.bytes),
    size: raw.bytes.length,
  };
}

/** What the request path needs before handing over to the gate: names, hashes, kinds. */
export interface ManifestEntry {
  name: string;
  sha256: string | null;
  kind: ScanFile["kind"] | "broken";
  size: number;
}

/**
 * One pass over the archive that keeps no file bytes (`onItem` sees each file before the next is
 * read): validates it (422 for hostile archives or one without a single supported file) and lists
 * each file's SHA-256 for the request digest.
 */
export async function archiveManifest(
  source: ZipSource,
  onItem?: (item: IntakeItem) => Promise<void>,
  limits: IntakeLimits = intakeLimits,
): Promise<ManifestEntry[]> {
  const manifest: ManifestEntry[] = [];
  for await (const item of intakeArchive(source, limits)) {
    await onItem?.(item);
    manifest.push(
      item.ok
        ? { name: item.file.name, sha256: item.file.sha256, kind: item.file.kind, size: item.file.size }
        : { name: item.name, sha256: null, kind: "broken", size: item.size },
    );
  }
  if (!manifest.some((m) => m.kind !== "unknown" && m.kind !== "broken")) {
    throw refuse("zip-no-supported-file", "The archive contains no JPEG, PNG, PDF, WebP, HEIC or TIFF file.");
  }
  return manifest;
}

export { memorySource, r2Source } from "./source";
export type { ZipSource } from "./source";

/**
 * Test data loader for image forensics tests running inside workerd.
 *
 * workerd has no access to the host filesystem, so fixtures are imported through Vite:
 * `import.meta.glob(..., { query: "?inline" })` turns each file into a base64 data URL module
 * (works for any extension, lazily, one file per import). `?raw` is used for the text indexes.
 * Paths are relative to this file: ../../../../shared/data = /work/shared/data (`../shared/data`
 * from the repo root, as in CI).
 *
 * Limit: a module travels to workerd over the pool's WebSocket (32 MB message cap), so files
 * larger than ~12 MB (only `photos/mate-backgrounds/Elephants_5640x3172.jpg`) cannot be loaded
 * here; they are covered by `npm run eval` / `npm run bench`, which run the same code under Node
 * and `wrangler dev`.
 */
import type { FileKind, ScanContext, ScanFile } from "../../../src/scanner/types";

const shared = {
  ...import.meta.glob("../../../../shared/data/{photos,exif-samples}/**/*.{jpg,jpeg,JPG,png}", {
    query: "?inline",
    import: "default",
  }),
  ...import.meta.glob("../../../../shared/data/exif-samples/**/*.{tiff,heic,HEIC,heif}", {
    query: "?url&inline",
    import: "default",
  }),
};
const generated = import.meta.glob("../../fixtures/generated/**/*.{jpg,png}", { query: "?inline", import: "default" });
const indexes = import.meta.glob("../../../../shared/data/{photos,exif-samples}/INDEX.tsv", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const SHARED_PREFIX = "../../../../shared/data/";
const GENERATED_PREFIX = "../../fixtures/generated/";

function dataUrlBytes(url: string): Uint8Array {
  const base64 = url.slice(url.indexOf(",") + 1);
  const bin = atob(base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Bytes of a file under ../shared/data, e.g. `photos/opencv-doc/leuvenA.jpg`. */
export async function sharedFile(path: string): Promise<Uint8Array> {
  const load = shared[SHARED_PREFIX + path];
  if (!load) throw new Error(`no shared fixture ${path}`);
  return dataUrlBytes((await load()) as string);
}

/** Bytes of a generated fixture under test/fixtures/generated. */
export async function generatedFile(path: string): Promise<Uint8Array> {
  const load = generated[GENERATED_PREFIX + path];
  if (!load) throw new Error(`no generated fixture ${path}`);
  return dataUrlBytes((await load()) as string);
}

export function generatedNames(): string[] {
  return Object.keys(generated).map((k) => k.slice(GENERATED_PREFIX.length));
}

/** One row of photos/INDEX.tsv or exif-samples/INDEX.tsv (exiftool values, "-" = absent). */
/** Files too large for the module transport (see above). */
export const TOO_LARGE_FOR_WORKERD_TESTS = 12_000_000;

export type IndexRow = Record<
  "path" | "bytes" | "width" | "height" | "Make" | "Model" | "Software" | "DateTimeOriginal",
  string
>;

export function indexRows(folder: "photos" | "exif-samples"): IndexRow[] {
  const text = indexes[`${SHARED_PREFIX}${folder}/INDEX.tsv`];
  const [header, ...lines] = text.trim().split("\n");
  const cols = header.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i], v])) as IndexRow);
}

function kindOf(bytes: Uint8Array): FileKind {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "jpeg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return "png";
  if ((bytes[0] === 0x49 && bytes[1] === 0x49) || (bytes[0] === 0x4d && bytes[1] === 0x4d)) return "tiff";
  if (String.fromCharCode(...bytes.subarray(4, 8)) === "ftyp") return "heic";
  return "unknown";
}

export function scanFile(name: string, bytes: Uint8Array): ScanFile {
  const kind = kindOf(bytes);
  return { name, bytes, kind, mimeType: `image/${kind}`, sha256: "", size: bytes.length };
}

export function context(overrides: Partial<ScanContext> = {}): ScanContext {
  return {
    language: "en",
    issueDate: null,
    now: new Date("2026-11-22T00:00:00Z"),
    caseNumber: "T-IMG-1",
    ...overrides,
  };
}

/** Deterministic bytes (xorshift32); an `alphabet` below 256 makes them compressible. */
export function noiseBytes(length: number, seed: number, alphabet = 256): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (x >>> 0) % alphabet;
  }
  return out;
}

export { seededRandom } from "../../support/seeded-random";

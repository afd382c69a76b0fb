/**
 * The progressive decoder's Huffman decoding in wasm (wasm/assembly/progressive.ts, jpeg-progressive-wasm.ts)
 * gives the JavaScript reference's coefficients (jpeg-progressive.ts), MCU row by MCU row, and stops with
 * the same error after the same rows: on every kind of progressive file the fixtures hold (4:2:0, 4:2:2,
 * 4:4:0, 4:4:4, greyscale, restart intervals, spectral splits, DC and AC refinement; 170 × 126, not a
 * multiple of 8 or 16), on photos, on damaged files, and with a scan row longer than the wasm window.
 */
import { describe, expect, it } from "vitest";
import { MAX_WINDOW } from "../../../src/scanner/images/jpeg-entropy-wasm";
import { parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { ProgressiveScanDecoder } from "../../../src/scanner/images/jpeg-progressive";
import { WasmProgressiveScanDecoder } from "../../../src/scanner/images/jpeg-progressive-wasm";
import { kernels, scratch } from "../../../src/scanner/images/wasm-kernels";
import { generatedFile, sharedFile } from "./fixtures";
import { withJunkBeforeRestart, withRepeatedLastScan } from "./progressive-fixtures";

const FIXTURES = [
  "p420-restart",
  "p422",
  "p440",
  "p444-restart",
  "gray-restart",
  "grayscale",
  "scan-script",
  "separate-dc-restart",
];

/** Every MCU row's coefficients (copied) and the error that stopped the decode, or why the file was refused. */
function rowsOf(
  bytes: Uint8Array,
  wasm: boolean,
  wanted?: readonly number[],
): { rows: Int16Array[]; error: string | null } | string {
  const structure = parseJpegStructure(bytes);
  const decoder = wasm
    ? WasmProgressiveScanDecoder.open(bytes, structure, wanted)
    : ProgressiveScanDecoder.open(bytes, structure, wanted);
  if (typeof decoder === "string") return decoder;
  const rows: Int16Array[] = [];
  // The row behind 64 bytes of the caller's own, as the strip decoder and the luminance pass place it.
  const reserve = 64 + decoder.blocksPerRow * 128;
  for (let row = 0; row < decoder.mcusY; row++) {
    const { error } = decoder.decodeRowInto(reserve, 64);
    if (error) return { rows, error };
    const s = scratch(reserve);
    rows.push(new Int16Array(s.buffer, s.base + 64, decoder.blocksPerRow * 64).slice());
  }
  return { rows, error: null };
}

function sameValues(a: Int16Array, b: Int16Array | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Both decoders' outcomes, every component and luminance alone. */
function expectSame(bytes: Uint8Array, what: string): { rows: number; error: string | null } {
  let outcome = { rows: 0, error: null as string | null };
  for (const wanted of [undefined, [0]]) {
    const reference = rowsOf(bytes, false, wanted);
    const wasm = rowsOf(bytes, true, wanted);
    const label = `${what} ${wanted ? "luminance" : "all"}`;
    if (typeof reference === "string" || typeof wasm === "string") {
      expect(wasm, label).toEqual(reference);
      continue;
    }
    // Compared in a loop: a deep equality of hundreds of large typed arrays takes minutes.
    const differing = reference.rows.filter((row, i) => !sameValues(row, wasm.rows[i])).length;
    expect({ rows: wasm.rows.length, error: wasm.error, differing }, label).toEqual({
      rows: reference.rows.length,
      error: reference.error,
      differing: 0,
    });
    outcome = { rows: reference.rows.length, error: reference.error };
  }
  return outcome;
}

describe("progressive Huffman decoding in wasm: the reference's coefficients, row by row", () => {
  it("every progressive fixture (170 × 126: sampling, restart intervals, spectral splits, refinements)", async () => {
    for (const name of FIXTURES) {
      const { rows, error } = expectSame(await generatedFile(`progressive/${name}.jpg`), name);
      expect(error, name).toBeNull();
      expect(rows, name).toBeGreaterThan(0);
    }
  });

  it("photos: ela_original.jpg and the 8.3 MP GIMP export (its rows run past the first window)", async () => {
    for (const path of ["photos/opencv-doc/ela_original.jpg", "photos/mate-backgrounds/Elephants_3840x2160.jpg"]) {
      const { rows, error } = expectSame(await sharedFile(path), path);
      expect(error, path).toBeNull();
      expect(rows, path).toBeGreaterThan(90);
    }
  });
});

describe("damaged progressive files: the same rows before the same error", () => {
  it("bytes overwritten in the scans, files cut short, the last scan repeated", async () => {
    const sources = [
      await generatedFile("progressive/p420-restart.jpg"),
      await generatedFile("progressive/scan-script.jpg"),
    ];
    const damaged: Uint8Array[] = [];
    for (const source of sources) {
      const start = parseJpegStructure(source).scanStarts[0];
      damaged.push(source.slice(0, Math.floor(source.length * 0.4)), source.slice(0, Math.floor(source.length * 0.8)));
      damaged.push(withRepeatedLastScan(source, 12));
      for (let seed = 1; seed <= 10; seed++) {
        const bytes = source.slice();
        for (let k = 0; k < 6; k++)
          bytes[start + ((seed * 7919 * (k + 1)) % (bytes.length - start - 2))] = (seed * 31 + k * 17) & 0xff;
        damaged.push(bytes);
      }
    }
    let errors = 0;
    for (const [i, bytes] of damaged.entries()) if (expectSame(bytes, `damaged ${i}`).error) errors++;
    expect(errors).toBeGreaterThanOrEqual(3);
  });
});

describe("a crafted progressive file with megabytes of junk before a restart marker", () => {
  it("decodes like the reference, the row too long for the wasm window by the reference, wasm memory small", async () => {
    const original = await generatedFile("progressive/p420-restart.jpg");
    // A restart marker inside the last scan: its row then runs past MAX_WINDOW.
    const crafted = withJunkBeforeRestart(
      original,
      parseJpegStructure(original).scanStarts.at(-1) as number,
      MAX_WINDOW + 100_000,
    );
    const { rows, error } = expectSame(crafted, "junk");
    expect(rows).toBeGreaterThan(1);
    expect(error).toBeNull();
    expect(kernels().memory.buffer.byteLength).toBeLessThan(MAX_WINDOW + 4_000_000);
  });
});

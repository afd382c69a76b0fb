/**
 * The shared decode's rules (src/scanner/images/file-decode.ts) with small products of their own: one pass
 * builds every planned product of its kind, a product is dropped after its planned reads, and what cannot
 * be built (not streamed, damaged, a failing product) is null so that each detector takes its own path.
 */
import { describe, expect, it } from "vitest";
import { decodesOf } from "../../../src/scanner/images/decode-count";
import { type DecodeProduct, decoded, planDecode } from "../../../src/scanner/images/file-decode";
import { sharedFile } from "./fixtures";

/** Counts the rows it was given. */
const rowCount = (id: string): DecodeProduct<number> => ({
  id,
  kind: "pixels",
  sink() {
    let rows = 0;
    return { add: (band) => (rows += band.rows), finish: () => rows };
  },
});

/** Counts the luminance blocks it was given. */
const blockCount: DecodeProduct<number> = {
  id: "blocks",
  kind: "coefficients",
  sink() {
    let blocks = 0;
    return { block: () => blocks++, finish: () => blocks };
  },
};

const leuven = async () => (await sharedFile("photos/opencv-doc/leuvenA.jpg")).slice();

/** An order-sensitive digest of the luminance blocks it was given (row, column, coefficients). */
const blockDigest = (): DecodeProduct<number> => ({
  id: "digest",
  kind: "coefficients",
  sink() {
    let h = 0;
    const mix = (v: number) => {
      h = Math.imul(h ^ v, 0x9e3779b1) >>> 0;
    };
    return {
      block(row, col, coefficients) {
        mix(row);
        mix(col);
        for (const c of coefficients) mix(c);
      },
      finish: () => h,
    };
  },
});

/** The digest of a coefficient pass of its own (nothing else planned). */
async function ownPassDigest(bytes: Uint8Array): Promise<number | null> {
  const digest = blockDigest();
  planDecode(bytes, [digest]);
  return decoded(bytes, digest);
}

describe("one pass per kind builds every planned product", () => {
  it("two planned pixel products and a coefficient product of a small baseline JPEG: one Huffman pass for both kinds", async () => {
    const bytes = await leuven();
    const [a, b] = [rowCount("a"), rowCount("b")];
    planDecode(bytes, [a, b, blockCount]);
    expect(await decoded(bytes, a)).toBe(563);
    expect(await decoded(bytes, b)).toBe(563);
    expect(await decoded(bytes, blockCount)).toBe(Math.ceil(751 / 8) * Math.ceil(563 / 8));
    expect(decodesOf(bytes)).toEqual({ pixels: 1, coefficients: 0 });
  });

  it("the one pass hands the coefficient products the same luminance blocks in the same order as a pass of their own", async () => {
    for (const path of ["photos/opencv-doc/leuvenA.jpg", "exif-samples/jpg/gps/DSCN0010.jpg"]) {
      const bytes = (await sharedFile(path)).slice();
      const digest = blockDigest();
      planDecode(bytes, [rowCount("a"), digest]);
      const together = await decoded(bytes, digest);
      expect(decodesOf(bytes)).toEqual({ pixels: 1, coefficients: 0 });
      expect(together).not.toBeNull();
      expect(together).toBe(await ownPassDigest(bytes.slice()));
    }
  });

  it("a small progressive JPEG: one pass for both kinds, as a baseline one", async () => {
    const bytes = (await sharedFile("photos/opencv-doc/ela_modified.jpg")).slice();
    const a = rowCount("a");
    planDecode(bytes, [a, blockCount]);
    expect(await decoded(bytes, a)).toBeGreaterThan(0);
    expect(await decoded(bytes, blockCount)).toBeGreaterThan(0);
    expect(decodesOf(bytes)).toEqual({ pixels: 1, coefficients: 0 });
  });

  it("a product planned by two detectors is kept for the second, then dropped (a third read decodes again)", async () => {
    const bytes = await leuven();
    const a = rowCount("a");
    planDecode(bytes, [a, a]);
    await decoded(bytes, a);
    await decoded(bytes, a);
    expect(decodesOf(bytes).pixels).toBe(1);
    expect(await decoded(bytes, a)).toBe(563);
    expect(decodesOf(bytes).pixels).toBe(2);
  });
});

describe("what cannot be built is null (each detector then decodes by itself)", () => {
  it("a file the strip decoders do not read", async () => {
    expect(await decoded(new TextEncoder().encode("not a picture"), rowCount("a"))).toBeNull();
  });

  it("a damaged JPEG: every product of the pass is null", async () => {
    const bytes = (await sharedFile("exif-samples/jpg/corrupted.jpg")).slice();
    const [a, b] = [rowCount("a"), rowCount("b")];
    planDecode(bytes, [a, b]);
    expect(await decoded(bytes, a)).toBeNull();
    expect(await decoded(bytes, b)).toBeNull();
  });

  it("a product that throws: the others of its pass are null too, nothing rejects", async () => {
    const bytes = await leuven();
    const failing: DecodeProduct<number> = {
      id: "failing",
      kind: "pixels",
      sink: () => ({
        add() {
          throw new Error("bug in a product");
        },
        finish: () => 0,
      }),
    };
    const a = rowCount("a");
    planDecode(bytes, [failing, a]);
    expect(await decoded(bytes, failing)).toBeNull();
    expect(await decoded(bytes, a)).toBeNull();
  });
});

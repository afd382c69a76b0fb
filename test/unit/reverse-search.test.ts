import { describe, expect, it } from "vitest";
import { documentFields, parseAmount, validIban } from "../../src/scanner/cross-file/fields";
import { probeValues } from "../../src/scanner/similarity/band-index";
import { hammingDistance, type Hash64, perceptualHashes } from "../../src/scanner/similarity/perceptual-hash";

describe("document fields are read in German, English and Polish layouts (docs/reverse-search.md)", () => {
  it("reads an English invoice", () => {
    const f = documentFields(
      "Invoice No. INV-88231\nInvoice date: 2026-03-01\nCustomer: John Miller\nLicense plate: AB12 CDE\nTotal amount: 1,250.50 EUR\nIBAN GB82 WEST 1234 5698 7654 32",
    );
    expect(f).toMatchObject({
      documentDate: "2026-03-01",
      total: 1250.5,
      invoiceNumbers: ["INV-88231"],
      names: ["John Miller"],
      ibans: ["GB82WEST12345698765432"],
    });
    expect(f.licencePlates).toEqual(["AB12 CDE"]);
  });

  it("reads a Polish invoice", () => {
    const f = documentFields(
      "Faktura VAT nr FV/12/2026\nData wystawienia: 05.02.2026\nNabywca: Jan Kowalski\nNr rej. WA 12345\nDo zapłaty: 3 400,00 zł",
    );
    expect(f).toMatchObject({
      documentDate: "2026-02-05",
      total: 3400,
      invoiceNumbers: ["FV/12/2026"],
      names: ["Jan Kowalski"],
      licencePlates: ["WA 12345"],
    });
  });

  it("keeps only IBANs with valid check digits and parses every amount notation", () => {
    expect(validIban("DE89370400440532013000")).toBe(true);
    expect(validIban("DE89370400440532013001")).toBe(false);
    expect([parseAmount("4.850,00"), parseAmount("4 850,00"), parseAmount("4,850.00"), parseAmount("4850.00")]).toEqual(
      [4850, 4850, 4850, 4850],
    );
  });
});

describe("perceptual hashes and the band probes (multi-index math)", () => {
  it("a probe reaches exactly the band values within one bit flip", () => {
    const probes = probeValues(0b1010_0000_0000_0001, 1);
    expect(probes).toHaveLength(17);
    expect(probes.every((v) => hammingDistance([v, 0, 0, 0], [0b1010_0000_0000_0001, 0, 0, 0]) <= 1)).toBe(true);
    expect(probeValues(7, 0)).toEqual([7]);
  });

  it("a 64-bit hash within distance 7 always shares a band within one bit flip", () => {
    const base: Hash64 = [0x1234, 0xabcd, 0x0f0f, 0x8001];
    for (let trial = 0; trial < 500; trial++) {
      const flipped = [...base] as Hash64;
      const bits = new Set<number>();
      while (bits.size < 7) bits.add(Math.floor(Math.random() * 64));
      for (const bit of bits) flipped[bit >> 4] ^= 1 << (bit & 15);
      const reached = base.some((band, i) => probeValues(band, 1).includes(flipped[i]));
      expect(reached).toBe(true);
    }
  });

  it("the mirrored hashes are the hashes of the mirrored picture", () => {
    // 64 × 48: every grid cell covers whole pixels, so mirroring the picture mirrors the 32 × 32 grid exactly.
    const width = 64;
    const height = 48;
    const picture = new Uint8Array(width * height * 4);
    const mirror = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const v = Math.round(128 + 60 * Math.sin(x / 9) + 50 * Math.cos((x * y) / 300) + y);
        picture.set([v, (v * 3) % 256, 255 - v, 255], (y * width + x) * 4);
        mirror.set([v, (v * 3) % 256, 255 - v, 255], (y * width + (width - 1 - x)) * 4);
      }
    const a = perceptualHashes(picture, width, height);
    const b = perceptualHashes(mirror, width, height);
    expect(hammingDistance(a.dctMirrored, b.dct)).toBe(0);
    expect(hammingDistance(a.blockMeanMirrored, b.blockMean)).toBe(0);
    expect(hammingDistance(a.dct, b.dct)).toBeGreaterThan(8);
  });
});

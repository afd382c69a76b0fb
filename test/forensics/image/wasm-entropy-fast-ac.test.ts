// The wasm Huffman decoder's fast AC and DC tables (jpeg-entropy-wasm.ts `fastAc`, `fastDc`, read by entropy.ts
// decodeBlock): for every 11 bits, the entry must be what the JavaScript reference reads from them (decodeSymbol, then
// the value's bits), or 0 where the reference reads no symbol, an AC symbol without value bits, a DC size beyond 16
// (corrupt data), or more than 11 bits.
import { describe, expect, it } from "vitest";
import { BitReader, decodeSymbol, extend, HuffmanTable } from "../../../src/scanner/images/jpeg-entropy";
import { fastAc, fastDc } from "../../../src/scanner/images/jpeg-entropy-wasm";
import { type HuffmanSpec, parseJpegStructure } from "../../../src/scanner/images/jpeg-markers";
import { sharedFile } from "./fixtures";

/** 11 bits followed by zeros as entropy-coded bytes (a 0xFF byte stuffed with 0x00), and where each data byte starts. */
function stuffed(bits: number): { bytes: Uint8Array; dataAt: number[] } {
  const data = [(bits >> 3) & 0xff, (bits << 5) & 0xff, 0, 0, 0, 0, 0, 0];
  const bytes: number[] = [];
  const dataAt: number[] = [];
  for (const b of data) {
    dataAt.push(bytes.length);
    bytes.push(b);
    if (b === 0xff) bytes.push(0);
  }
  dataAt.push(bytes.length);
  return { bytes: new Uint8Array(bytes), dataAt };
}

/** The entry the reference's reading of `bits` implies. */
function expectedEntry(t: HuffmanTable, bits: number): number {
  const { bytes, dataAt } = stuffed(bits);
  const reader = new BitReader(bytes, 0);
  const rs = decodeSymbol(reader, t) as number | undefined;
  const size = (rs ?? 0) & 15;
  if (rs === undefined || rs < 0 || size === 0) return 0;
  const value = extend(reader.read(size), size);
  const [pos, , remaining] = reader.state;
  const consumed = dataAt.indexOf(pos) * 8 - remaining;
  return consumed <= 11 ? (value << 8) | (rs & 0xf0) | consumed : 0;
}

/** The DC entry the reference's reading of `bits` implies (decodeBlock's DC step: size 0 is a difference of 0). */
function expectedDcEntry(t: HuffmanTable, bits: number): number {
  const { bytes, dataAt } = stuffed(bits);
  const reader = new BitReader(bytes, 0);
  const size = decodeSymbol(reader, t) as number | undefined;
  if (size === undefined || size < 0 || size > 16) return 0;
  const value = size ? extend(reader.read(size), size) : 0;
  const [pos, , remaining] = reader.state;
  const consumed = dataAt.indexOf(pos) * 8 - remaining;
  return consumed <= 11 ? (value << 8) | consumed : 0;
}

function spec(counts: number[], symbols: number[]): HuffmanSpec {
  const c = new Uint8Array(16);
  counts.forEach((n, i) => {
    c[i] = n;
  });
  return { tableClass: 1, id: 0, counts: c, symbols: new Uint8Array(symbols), offset: 0 };
}

const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

const crafted: [string, HuffmanSpec][] = [
  // Codes of 10 and 11 bits only, values of every size: entries where length + size ≤ 11, none beyond.
  [
    "codes of 10 and 11 bits",
    spec(
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 500, 24],
      range(255, (i) => ((i % 16) << 4) | (1 + (i % 10))),
    ),
  ],
  // More codes than the lengths hold (over-subscribed): the lookup's later codes overwrite earlier ones.
  [
    "over-subscribed",
    spec(
      [3, 2, 9],
      range(14, (i) => (i << 4) | (1 + (i % 3))),
    ),
  ],
  // Fewer symbols than codes: codes without a symbol (the reference's `undefined`).
  ["codes without symbols", spec([0, 2, 2, 4, 8, 0, 0, 0, 0, 6, 6], [0x01, 0x02, 0x11, 0x03])],
  // End of block and ZRL among short codes: no value bits, no entry.
  ["EOB and ZRL", spec([0, 3, 2, 2], [0x00, 0xf0, 0x01, 0x12, 0x21, 0x05, 0x33])],
];

const photos = [
  "photos/opencv-doc/leuvenA.jpg",
  "photos/opencv-doc/ela_original.jpg",
  "exif-samples/jpg/exif-org/fujifilm-mx1700.jpg",
  "photos/plasma-workspace-wallpapers/BytheWater-2560x1600.jpg",
];

type FastTable = (t: HuffmanTable) => Int32Array;
type Expected = (t: HuffmanTable, bits: number) => number;

/** Every entry of `fastTable(t)` against the reference's reading; returns the non-zero ones. */
function expectTable(t: HuffmanTable, fastTable: FastTable, expected: Expected, label = ""): number {
  const fast = fastTable(t);
  for (let bits = 0; bits < 2048; bits++) expect(fast[bits], `${label}bits ${bits}`).toBe(expected(t, bits));
  return fast.filter((e) => e !== 0).length;
}

/** Every entry of the photos' tables of `tableClass` (0 DC, 1 AC) against the reference's; returns the non-zero ones. */
async function expectPhotoTables(tableClass: 0 | 1, fastTable: FastTable, expected: Expected): Promise<number> {
  let entries = 0;
  for (const file of photos) {
    const structure = parseJpegStructure(await sharedFile(file));
    for (const s of structure.huffmanTables.filter((h) => h.tableClass === tableClass)) {
      entries += expectTable(new HuffmanTable(s), fastTable, expected, `${file} `);
    }
  }
  return entries;
}

describe("the fast AC table is the reference's reading of every 11 bits", () => {
  it("on the AC tables of photos (standard, optimised, progressive)", async () => {
    expect(await expectPhotoTables(1, fastAc, expectedEntry)).toBeGreaterThan(1000);
  });

  for (const [what, s] of crafted)
    it(`on a crafted table: ${what}`, () => {
      expectTable(new HuffmanTable(s), fastAc, expectedEntry);
    });
});

/** DC specs: sizes 0–11 as in photos, and sizes beyond 16 (corrupt) and up to 16 among short codes. */
const craftedDc: [string, HuffmanSpec][] = [
  [
    "a standard-like table",
    spec(
      [0, 1, 5, 1, 1, 1, 1, 1, 1],
      range(12, (i) => i),
    ),
  ],
  ["sizes 12–16 and beyond 16", spec([0, 2, 2, 4, 4], [0, 16, 12, 17, 1, 2, 0xff, 5, 9, 10, 15, 11])],
  [
    "codes of 10 and 11 bits",
    spec(
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 500, 24],
      range(255, (i) => i % 18),
    ),
  ],
  ["codes without symbols", spec([0, 2, 2, 4, 8, 0, 0, 0, 0, 6, 6], [3, 0, 1])],
];

describe("the fast DC table is the reference's reading of every 11 bits", () => {
  it("on the DC tables of photos", async () => {
    expect(await expectPhotoTables(0, fastDc, expectedDcEntry)).toBeGreaterThan(1000);
  });

  for (const [what, s] of craftedDc)
    it(`on a crafted table: ${what}`, () => {
      expectTable(new HuffmanTable({ ...s, tableClass: 0 }), fastDc, expectedDcEntry);
    });
});

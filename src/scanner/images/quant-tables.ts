/**
 * Quantization tables: the standard (IJG/libjpeg, JPEG Annex K) tables, the quality a table
 * corresponds to under libjpeg's scaling, and a fingerprint that tells "libjpeg-style encoder"
 * (most editors and libraries) from camera-specific tables.
 */

/** Annex K luminance table, natural order. */
export const STANDARD_LUMA = Uint16Array.from([
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51,
  87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101,
  72, 92, 95, 98, 112, 100, 103, 99,
]);

/** Annex K chrominance table, natural order. */
export const STANDARD_CHROMA = Uint16Array.from([
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99,
]);

/** The table libjpeg writes for `quality` (1–100) from a base table. */
export function scaledTable(base: Uint16Array, quality: number): Uint16Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? 5000 / q : 200 - q * 2;
  return base.map((b) => Math.min(255, Math.max(1, Math.floor((b * scale + 50) / 100))));
}

/** How a quantization table compares with libjpeg's scaled standard tables. */
export interface QualityEstimate {
  /** Quality 1–100 whose standard table is closest (least mean absolute difference). */
  quality: number;
  /** True when the table equals a libjpeg standard table exactly. */
  exactStandard: boolean;
  /** Mean absolute difference to that closest standard table. */
  meanAbsDiff: number;
}

/** The 100 scaled tables of each base, made once per isolate on first use (not for every file's tables). */
const scaledTables = new WeakMap<Uint16Array, Uint16Array[]>();

function scaledTablesOf(base: Uint16Array): Uint16Array[] {
  let tables = scaledTables.get(base);
  if (!tables) {
    tables = Array.from({ length: 100 }, (_, i) => scaledTable(base, i + 1));
    scaledTables.set(base, tables);
  }
  return tables;
}

export function estimateQuality(table: Uint16Array, base: Uint16Array = STANDARD_LUMA): QualityEstimate {
  let best: QualityEstimate = { quality: 50, exactStandard: false, meanAbsDiff: Infinity };
  const standard = scaledTablesOf(base);
  for (let q = 1; q <= 100; q++) {
    const std = standard[q - 1];
    let diff = 0;
    for (let i = 0; i < 64; i++) diff += Math.abs(std[i] - table[i]);
    const mad = diff / 64;
    if (mad < best.meanAbsDiff) best = { quality: q, exactStandard: diff === 0, meanAbsDiff: mad };
  }
  return best;
}

/** Short hex fingerprint of a table (FNV-1a over its 64 entries). */
export function tableFingerprint(table: Uint16Array): string {
  let h = 0x811c9dc5;
  for (const v of table) {
    h ^= v & 0xff;
    h = Math.imul(h, 0x01000193);
    h ^= v >> 8;
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Encoder family suggested by the tables. */
export type TableFamily = "libjpeg-standard" | "non-standard";

export function tableFamily(
  luma: Uint16Array,
  chroma: Uint16Array | undefined,
): { family: TableFamily; quality: number; chromaStandard: boolean } {
  const l = estimateQuality(luma, STANDARD_LUMA);
  const c = chroma ? estimateQuality(chroma, STANDARD_CHROMA) : null;
  const chromaStandard = c ? c.exactStandard && c.quality === l.quality : true;
  return {
    family: l.exactStandard && chromaStandard ? "libjpeg-standard" : "non-standard",
    quality: l.quality,
    chromaStandard,
  };
}

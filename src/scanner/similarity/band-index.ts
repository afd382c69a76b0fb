/**
 * Multi-index hashing over D1 (docs/reverse-search.md, "The index"). Each stored 64-bit hash is four
 * 16-bit bands in indexed columns. By the pigeonhole principle, two hashes at Hamming distance d
 * have a band within distance ⌊d / 4⌋ of each other; a lookup therefore probes, per band, every
 * 16-bit value within the hash's radius r of the query's band and so finds every stored hash with
 * d ≤ 4 · (r + 1) − 1 for certain, farther ones with the probability computed in the docs. Both
 * hashes are probed with r = 1 (17 values per band: certain up to d = 7, 95 % at d = 8), for the
 * picture and its mirror image; the block-mean probes catch crops, which move the DCT hash more.
 * The candidates are verified in SQL by their exact distances.
 */
import type { Hash64 } from "./perceptual-hash";

/** Bit flips per 16-bit band that a probe still reaches, per hash. */
export const BAND_RADIUS = { dct: 1, blockMean: 1 } as const;

/** The match rule: DCT distance at most this … */
export const MAX_DCT_DISTANCE = 16;
/** … and DCT plus block-mean distance at most this (docs/reverse-search.md, "Thresholds"). */
export const MAX_COMBINED_DISTANCE = 22;

/** One orientation of a query picture: its two hashes. */
export interface QueryHashes {
  dct: Hash64;
  blockMean: Hash64;
}

/** Every 16-bit value within `radius` (0 or 1) bit flips of `value`. */
export function probeValues(value: number, radius: 0 | 1): number[] {
  const out = [value];
  if (radius === 1) for (let bit = 0; bit < 16; bit++) out.push(value ^ (1 << bit));
  return out;
}

/** Bits set in each byte value, as a string of 256 digits: the lookup table `?4` of the SQL. */
export const BYTE_POPCOUNTS = Array.from({ length: 256 }, (_, v) => {
  let n = 0;
  for (let x = v; x; x >>= 1) n += x & 1;
  return String(n);
}).join("");

const popcountSql = (column: string, value: number) => {
  // SQLite has no XOR: a ^ b = (a | b) − (a & b); each byte's bit count is read from the table ?4.
  const x = `((${column} | ${value}) - (${column} & ${value}))`;
  return `substr(?4, (${x} & 255) + 1, 1) + substr(?4, (${x} >> 8) + 1, 1)`;
};

const distanceSql = (prefix: "dct" | "bm", hash: Hash64) =>
  hash.map((value, band) => `(${popcountSql(`${prefix}${band}`, value)})`).join(" + ");

/**
 * The lookup's SQL for one picture (its orientations), with `?1` the account id, `?2` the case
 * number to leave out, `?3` a JSON array of the sources to search and `?4` BYTE_POPCOUNTS. The probe values are integers
 * computed here, never caller input, so they are written into the statement (D1 binds at most 100 parameters).
 */
export function lookupSql(orientations: QueryHashes[], limit: number): string {
  const probes: string[] = [];
  for (const [prefix, key] of [
    ["dct", "dct"],
    ["bm", "blockMean"],
  ] as const)
    for (let band = 0; band < 4; band++) {
      const values = new Set(orientations.flatMap((o) => probeValues(o[key][band], BAND_RADIUS[key])));
      probes.push(`(account_id = ?1 AND ${prefix}${band} IN (${[...values].join(",")}))`);
    }
  const rule = orientations
    .map((o) => {
      const dct = distanceSql("dct", o.dct);
      return `((${dct}) <= ${MAX_DCT_DISTANCE} AND (${dct}) + (${distanceSql("bm", o.blockMean)}) <= ${MAX_COMBINED_DISTANCE})`;
    })
    .join(" OR ");
  return `SELECT id, source, case_number, ref, ticket_id, sha256, thumb_key, created_at,
  dct0, dct1, dct2, dct3, bm0, bm1, bm2, bm3
FROM image_hashes
WHERE (${probes.join("\n  OR ")})
  AND case_number <> ?2
  AND source IN (SELECT value FROM json_each(?3))
  AND (${rule})
ORDER BY created_at
LIMIT ${Math.trunc(limit)}`;
}

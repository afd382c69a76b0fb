import { getDb } from "../../db/client";
import { clock } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { findImageHashCandidates, type ImageHashRow, insertImageHash } from "../repository";
import { BYTE_POPCOUNTS, lookupSql } from "./band-index";
import { hammingDistance, type Hash64, type PerceptualHashes } from "./perceptual-hash";

/** Where a stored picture came from. */
export type HashSource = "scanner" | "capture";

/** One picture to remember for later lookups. */
export interface HashRecord {
  accountId: string;
  source: HashSource;
  caseNumber: string;
  /** Scanner: file name; capture: photo id. */
  ref: string;
  ticketId?: string | null;
  sha256: string;
  hashes: PerceptualHashes;
  /** A small PNG for the side-by-side report, stored in R2 next to the row. */
  thumbnail: Uint8Array | null;
}

/** A stored picture that matches a query, with its exact distances. */
export interface HashMatch {
  id: number;
  source: HashSource;
  caseNumber: string;
  ref: string;
  ticketId: string | null;
  sha256: string;
  thumbKey: string | null;
  createdAt: Date;
  dctDistance: number;
  blockMeanDistance: number;
  mirrored: boolean;
}

/** Matches per picture at most (the oldest first: the first appearance is what matters). */
const MAX_MATCHES = 10;

/** One R2 object per row (a picture in two cases has two rows, each deleted on its own date). */
const thumbKeyOf = (accountId: string) => `image-hashes/${accountId}/${newId()}.png`;

/** Stores the pictures (a picture already stored for the same account, source and case is left as it is). */
export async function storeHashes(d1: D1Database, bucket: R2Bucket, records: HashRecord[]): Promise<void> {
  const now = clock.now();
  for (const r of records) {
    const thumbKey = r.thumbnail ? thumbKeyOf(r.accountId) : null;
    const inserted = await insertImageHash(getDb(d1), {
      accountId: r.accountId,
      source: r.source,
      caseNumber: r.caseNumber,
      ref: r.ref,
      ticketId: r.ticketId ?? null,
      sha256: r.sha256,
      dct0: r.hashes.dct[0],
      dct1: r.hashes.dct[1],
      dct2: r.hashes.dct[2],
      dct3: r.hashes.dct[3],
      bm0: r.hashes.blockMean[0],
      bm1: r.hashes.blockMean[1],
      bm2: r.hashes.blockMean[2],
      bm3: r.hashes.blockMean[3],
      thumbKey,
      createdAt: now,
    });
    if (inserted && thumbKey && r.thumbnail)
      await bucket.put(thumbKey, r.thumbnail, { httpMetadata: { contentType: "image/png" } });
  }
}

/** A lookup of one picture within one account, leaving out its own case. */
export interface HashQuery {
  accountId: string;
  caseNumber: string;
  hashes: PerceptualHashes;
  sources: HashSource[];
}

/** The stored pictures of the account that match each query (one D1 batch for all of them). */
export async function findMatches(d1: D1Database, queries: HashQuery[]): Promise<HashMatch[][]> {
  if (queries.length === 0) return [];
  const rows = await findImageHashCandidates(
    d1,
    queries.map((q) => ({
      sql: lookupSql(orientationsOf(q.hashes), MAX_MATCHES),
      accountId: q.accountId,
      caseNumber: q.caseNumber,
      sources: q.sources,
    })),
    BYTE_POPCOUNTS,
  );
  return rows.map((found, i) => found.map((row) => toMatch(row, queries[i].hashes)));
}

const orientationsOf = (h: PerceptualHashes) => [
  { dct: h.dct, blockMean: h.blockMean },
  { dct: h.dctMirrored, blockMean: h.blockMeanMirrored },
];

function toMatch(row: ImageHashRow, query: PerceptualHashes): HashMatch {
  const dct: Hash64 = [row.dct0, row.dct1, row.dct2, row.dct3];
  const bm: Hash64 = [row.bm0, row.bm1, row.bm2, row.bm3];
  const straight = hammingDistance(query.dct, dct) + hammingDistance(query.blockMean, bm);
  const flipped = hammingDistance(query.dctMirrored, dct) + hammingDistance(query.blockMeanMirrored, bm);
  const mirrored = flipped < straight;
  return {
    id: row.id,
    source: row.source,
    caseNumber: row.case_number,
    ref: row.ref,
    ticketId: row.ticket_id,
    sha256: row.sha256,
    thumbKey: row.thumb_key,
    createdAt: new Date(row.created_at),
    dctDistance: hammingDistance(mirrored ? query.dctMirrored : query.dct, dct),
    blockMeanDistance: hammingDistance(mirrored ? query.blockMeanMirrored : query.blockMean, bm),
    mirrored,
  };
}

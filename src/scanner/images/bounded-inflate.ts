/**
 * Inflate with an output budget. Deflate expands up to ≈ 1032:1, so a few hundred KB can hold
 * hundreds of MB: every inflate of untrusted data (PNG text chunks, PDF streams) goes through here
 * and stops as soon as the output passes the budget, before the next chunk is kept. The input is fed
 * in slices so that one step never produces more than ≈ 16 MB either.
 */
import { Unzlib } from "fflate";

/** Compressed bytes fed per step (≤ ≈ 16 MB of output even at deflate's maximum ratio). */
const SLICE = 16 * 1024;

class OverBudget extends Error {}

export interface BoundedInflate {
  /** The inflated bytes, at most `budget` of them (empty when counting only). */
  bytes: Uint8Array;
  /** Bytes the data inflated to, counted up to just past the budget. */
  size: number;
  /** The data inflates to more than the budget; inflating stopped there. */
  over: boolean;
  /** The data is not valid zlib/deflate (what came before the damage is kept). */
  damaged: boolean;
}

/**
 * Inflates zlib-wrapped data (PDF FlateDecode, PNG zTXt/iTXt/IDAT) up to `budget` bytes of output.
 * `keep: false` only counts (nothing is held: O(1) memory beyond fflate's 32 KB window).
 */
export function inflateWithin(data: Uint8Array, budget: number, keep = true): BoundedInflate {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  let damaged = false;
  const inflate = new Unzlib((chunk) => {
    size += chunk.length;
    if (size > budget) {
      over = true;
      throw new OverBudget();
    }
    if (keep) chunks.push(chunk);
  });
  try {
    for (let at = 0; at < data.length; at += SLICE)
      inflate.push(data.subarray(at, at + SLICE), at + SLICE >= data.length);
    if (data.length === 0) damaged = true;
  } catch (error) {
    if (!(error instanceof OverBudget)) damaged = true;
  }
  return { bytes: keep ? join(chunks, Math.min(size, budget)) : new Uint8Array(0), size, over, damaged };
}

function join(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0].length === length) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c.subarray(0, length - at), at);
    at += Math.min(c.length, length - at);
  }
  return out;
}

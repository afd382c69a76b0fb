import { fromHex, type PerceptualHashes, perceptualHashes, toHex } from "./perceptual-hash";

/** How the hashes travel in a file's metadata (`metadata.thumbnail.perceptualHash`): 16 hex digits each. */
export type HashMetadata = Record<keyof PerceptualHashes, string>;

export function hashMetadata(rgba: Uint8Array, width: number, height: number): HashMetadata {
  const h = perceptualHashes(rgba, width, height);
  return {
    dct: toHex(h.dct),
    dctMirrored: toHex(h.dctMirrored),
    blockMean: toHex(h.blockMean),
    blockMeanMirrored: toHex(h.blockMeanMirrored),
  };
}

/** The hashes of a per-file result (null when the file was not decoded, or the metadata is not ours). */
export function hashesOf(metadata: Record<string, unknown>): PerceptualHashes | null {
  const thumb = metadata.thumbnail as { perceptualHash?: Partial<HashMetadata> } | undefined;
  const m = thumb?.perceptualHash;
  if (!m) return null;
  const dct = fromHex(m.dct ?? "");
  const dctMirrored = fromHex(m.dctMirrored ?? "");
  const blockMean = fromHex(m.blockMean ?? "");
  const blockMeanMirrored = fromHex(m.blockMeanMirrored ?? "");
  if (!dct || !dctMirrored || !blockMean || !blockMeanMirrored) return null;
  return { dct, dctMirrored, blockMean, blockMeanMirrored };
}

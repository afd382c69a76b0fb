import type { FileKind } from "../types";

/**
 * Price table for `tokensConsumed` (spec 2.6: "depends on the number and types of processed
 * files"). Documented in docs/scanner-api.md; change both together.
 */
export const tokenPrices = {
  /** An image file of the archive that was analysed (JPEG, PNG, WebP, HEIC, TIFF). */
  image: 10,
  /** A PDF document of the archive (its pages and embedded files are priced separately). */
  pdf: 20,
  /** An image or page extracted from a PDF, or a TIFF page / HEIC picture decoded to PNG, and analysed. */
  extracted: 4,
  /** A file no detector could assess (unknown type, damaged): intake only. */
  notAssessed: 1,
} as const;

/** Tokens for one file of the result. */
export function priceOf(kind: FileKind | "broken", opts: { extracted: boolean; assessed: boolean }): number {
  if (!opts.assessed) return tokenPrices.notAssessed;
  if (opts.extracted) return tokenPrices.extracted;
  if (kind === "pdf") return tokenPrices.pdf;
  if (["jpeg", "png", "webp", "heic", "tiff"].includes(kind)) return tokenPrices.image;
  return tokenPrices.notAssessed;
}

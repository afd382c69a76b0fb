/**
 * Structural limits of ZIP intake. These are properties of hostile-archive handling, not
 * account or deployment settings (those are `limits(env)`, DESIGN §8), so they are constants.
 * Every one of them is checked against the central directory BEFORE anything is inflated,
 * and again while inflating (a header that lies about sizes is caught by the byte count).
 */
export const intakeLimits = {
  /** Entries in the archive, nested ZIP entries included. A 10,000-entry archive is refused. */
  maxEntries: 1000,
  /** Sum of the uncompressed sizes of all entries, nested included. */
  maxTotalBytes: 256 * 1024 * 1024,
  /** One entry is held in memory while analysed: keep it well inside a 128 MB isolate. */
  maxEntryBytes: 64 * 1024 * 1024,
  /** Above this size an entry must not inflate more than `maxRatio` times its compressed size. */
  ratioCheckFromBytes: 1024 * 1024,
  /** JPEG/PNG/PDF compress 1–10×; a zip bomb compresses ≈1000×. */
  maxRatio: 100,
  /** A ZIP inside the ZIP is opened; a ZIP inside that one is refused (42.zip-style nesting). */
  maxNesting: 1,
} as const;

export type IntakeLimits = typeof intakeLimits;

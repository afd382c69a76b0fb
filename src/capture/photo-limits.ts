/** Limits of the capture page's uploads (one place, so page, server and tests agree). */
export const PHOTO_LIMITS = {
  /** A live frame as JPEG is 0.3–3 MB; 8 MiB leaves room without inviting abuse. */
  maxBytes: 8 * 1024 * 1024,
  /** Chunk size of the resumable upload: small enough to get through a weak mobile link. */
  chunkBytes: 256 * 1024,
  /** Decoded RGBA above this (64 MiB) would crowd a Worker's 128 MB; camera streams are ≤ 4K (8.8 MP). */
  maxPixels: 16_000_000,
  /** A nonce is for one shot, taken now: it expires after 15 minutes. */
  nonceTtlMs: 15 * 60 * 1000,
  /** Rate limit per session: nonces (= shots) per window, and in all. */
  noncesPerWindow: 30,
  windowMs: 10 * 60 * 1000,
  noncesPerSession: 300,
  /** A free series (no scenes) takes up to this many photos per attempt. */
  freeSeriesMax: 10,
  /** Attempts per session before `nicht_io` is final (DESIGN §15). */
  maxAttempts: 3,
};

export const maxChunks = () => Math.ceil(PHOTO_LIMITS.maxBytes / PHOTO_LIMITS.chunkBytes);

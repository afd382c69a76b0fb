/**
 * Largest image decoded to a full bitmap with photon (PNG, WebP, progressive and other non-baseline
 * JPEGs). A 128 MB isolate must hold photon's RGBA in wasm memory (24 MB at 6 MP, and that memory
 * never shrinks), the decoder's own buffers and a JS copy. Baseline JPEGs are not bound by it: they
 * are read block by block or streamed in strips (jpeg-strip-decoder.ts).
 */
export const MAX_PIXEL_DECODE = 6_000_000;

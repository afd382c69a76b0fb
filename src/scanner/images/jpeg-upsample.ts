/**
 * Chroma upsampling of one output row, as photon's decoder (Rust jpeg-decoder 0.3) does it, so our
 * pixels match photon's: "fancy" triangle filtering (3/4 near + 1/4 far sample, libjpeg's
 * h2v1/h2v2) for 2× ratios, plain copy for full-resolution components, nearest neighbour for any
 * other integer ratio.
 */

/** How one component maps onto output pixels. */
export type UpsampleKind = "copy" | "h2v1" | "h1v2" | "h2v2" | "nearest";

export function upsampleKind(h: number, v: number, hMax: number, vMax: number): UpsampleKind | null {
  const h1 = h === hMax;
  const v1 = v === vMax;
  const h2 = h * 2 === hMax;
  const v2 = v * 2 === vMax;
  if (h1 && v1) return "copy";
  if (h2 && v1) return "h2v1";
  if (h1 && v2) return "h1v2";
  if (h2 && v2) return "h2v2";
  if (hMax % h || vMax % v) return null;
  return "nearest";
}

/**
 * Component lines an output row is made from: `near` and, for vertical 2×, the `far` neighbour
 * (the line above for even rows, below for odd rows), clamped to the component's height.
 */
export function sourceLines(
  kind: UpsampleKind,
  y: number,
  vFactor: number,
  height: number,
): { near: number; far: number } {
  if (kind === "h1v2" || kind === "h2v2") {
    const near = y >> 1;
    const far = y & 1 ? Math.min(near + 1, height - 1) : Math.max(near - 1, 0);
    return { near, far };
  }
  const near = Math.min(Math.floor(y / vFactor), height - 1);
  return { near, far: near };
}

/** Fills `out` (≥ output width) from the component lines `near`/`far` of `inWidth` samples. */
export function upsampleRow(
  kind: UpsampleKind,
  near: Uint8Array,
  far: Uint8Array,
  inWidth: number,
  hFactor: number,
  outWidth: number,
  out: Uint8Array,
): void {
  switch (kind) {
    case "copy":
      out.set(near.subarray(0, outWidth));
      return;
    case "h1v2":
      for (let i = 0; i < outWidth; i++) out[i] = (3 * near[i] + far[i] + 2) >> 2;
      return;
    case "h2v1":
      if (inWidth === 1) {
        out[0] = out[1] = near[0];
        return;
      }
      out[0] = near[0];
      out[1] = (near[0] * 3 + near[1] + 2) >> 2;
      for (let i = 1; i < inWidth - 1; i++) {
        const sample = 3 * near[i] + 2;
        out[i * 2] = (sample + near[i - 1]) >> 2;
        out[i * 2 + 1] = (sample + near[i + 1]) >> 2;
      }
      out[(inWidth - 1) * 2] = (near[inWidth - 1] * 3 + near[inWidth - 2] + 2) >> 2;
      out[(inWidth - 1) * 2 + 1] = near[inWidth - 1];
      return;
    case "h2v2": {
      if (inWidth === 1) {
        out[0] = out[1] = (3 * near[0] + far[0] + 2) >> 2;
        return;
      }
      let t1 = 3 * near[0] + far[0];
      out[0] = (t1 + 2) >> 2;
      for (let i = 1; i < inWidth; i++) {
        const t0 = t1;
        t1 = 3 * near[i] + far[i];
        out[i * 2 - 1] = (3 * t0 + t1 + 8) >> 4;
        out[i * 2] = (3 * t1 + t0 + 8) >> 4;
      }
      out[inWidth * 2 - 1] = (t1 + 2) >> 2;
      return;
    }
    case "nearest":
      for (let i = 0, o = 0; i < inWidth && o < out.length; i++)
        for (let k = 0; k < hFactor && o < out.length; k++) out[o++] = near[i];
      return;
  }
}

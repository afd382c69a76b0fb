/**
 * What the models read from a file's one shared decode (images/file-decode.ts): the ≤ 1024 px
 * box-downscaled copy (manipulation's input; recapture's heatmap background, the same factor) and
 * recapture's native-resolution patches (2.4 MB for 36 of them, instead of a second pass over the rows).
 */
import { type DecodeProduct, decoded, planMissing } from "../images/file-decode";
import { MAX_SIDE } from "./manipulation-input";
import { BoxDownscaler, boxFactor, type PatchCrops, type ScaledRgb, type SharedModelPixels } from "./raster";
import { PATCH, patchOrigins } from "./recapture-input";

export const modelScalePixels: DecodeProduct<ScaledRgb & { factor: number }> = {
  id: "model-scale",
  kind: "pixels",
  sink(width, height) {
    const factor = boxFactor(width, height, MAX_SIDE);
    const scaler = new BoxDownscaler(width, height, factor);
    return {
      add(band) {
        for (let r = 0; r < band.rows; r++) scaler.addRow(band.rgba, r * width * 4, band.y + r);
      },
      finish: () => ({ ...scaler.finish(), factor }),
    };
  },
};

export const recapturePatchPixels: DecodeProduct<PatchCrops> = {
  id: "recapture-patches",
  kind: "pixels",
  sink(width, height) {
    if (width < PATCH || height < PATCH) return null;
    const origins = patchOrigins(width, height);
    const crops = origins.map(() => new Uint8Array(PATCH * PATCH * 4));
    const row = PATCH * 4;
    return {
      add(band) {
        origins.forEach((o, i) => {
          const from = Math.max(o.y, band.y);
          const to = Math.min(o.y + PATCH, band.y + band.rows);
          for (let y = from; y < to; y++) {
            const at = ((y - band.y) * width + o.x) * 4;
            crops[i].set(band.rgba.subarray(at, at + row), (y - o.y) * row);
          }
        });
      },
      finish: () => ({ origins, crops }),
    };
  },
};

/** The products a model reads (`patches`: recapture's too), built together in one pass. */
export function modelPixelProducts(patches: boolean): DecodeProduct<unknown>[] {
  return patches ? [modelScalePixels, recapturePatchPixels] : [modelScalePixels];
}

/** The shared products for a model run on `bytes` (null fields: not built, the model reads the rows itself). */
export async function sharedModelPixels(bytes: Uint8Array, patches: boolean): Promise<SharedModelPixels> {
  planMissing(bytes, modelPixelProducts(patches));
  return {
    scaled: await decoded(bytes, modelScalePixels),
    patches: patches ? await decoded(bytes, recapturePatchPixels) : null,
  };
}

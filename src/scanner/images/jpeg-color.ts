/**
 * Colour conversion of decoded JPEG component lines to RGBA, shared by the strip decoder and the DC
 * preview: JFIF YCbCr→RGB with jpeg-decoder's fixed-point constants (so our pixels match photon's),
 * plain copy for Adobe/“RGB”-labelled files, grey for one component.
 */
import { appSegments, type JpegStructure } from "./jpeg-markers";

const FIXED = 20;
/** Rounded like jpeg-decoder's f32 constants (stbi_f2f with 20 fractional bits). */
const fix = (x: number): number => Math.trunc(Math.fround(Math.fround(x) * (1 << FIXED)) + 0.5);
const CR_R = fix(1.402);
const CB_G = fix(0.34414);
const CR_G = fix(0.71414);
const CB_B = fix(1.772);
const HALF = 1 << (FIXED - 1);

function clampFixed(v: number): number {
  const x = v >> FIXED;
  return x < 0 ? 0 : Math.min(x, 255);
}

/** Colour model of a 3-component file: JFIF YCbCr unless an Adobe APP14 or R/G/B component ids say RGB. */
export function isRgb(structure: JpegStructure): boolean {
  const adobe = appSegments(structure, 0xee, "Adobe")[0];
  if (adobe && adobe.length >= 12) return adobe[11] === 0;
  const ids = structure.frame?.components.map((c) => c.id) ?? [];
  return ids[0] === 0x52 && ids[1] === 0x47 && ids[2] === 0x42;
}

/** One RGBA row of `width` pixels from full-width component lines: one (grey) or three (RGB or YCbCr). */
export function componentsToRgba(lines: readonly Uint8Array[], rgb: boolean, width: number, out: Uint8Array): void {
  if (lines.length === 1) {
    const g = lines[0];
    for (let x = 0, o = 0; x < width; x++, o += 4) {
      out[o] = out[o + 1] = out[o + 2] = g[x];
      out[o + 3] = 255;
    }
    return;
  }
  const [a, b, c] = lines;
  if (rgb) {
    for (let x = 0, o = 0; x < width; x++, o += 4) {
      out[o] = a[x];
      out[o + 1] = b[x];
      out[o + 2] = c[x];
      out[o + 3] = 255;
    }
    return;
  }
  for (let x = 0, o = 0; x < width; x++, o += 4) {
    const luma = a[x] * (1 << FIXED) + HALF;
    const cb = b[x] - 128;
    const cr = c[x] - 128;
    out[o] = clampFixed(luma + CR_R * cr);
    out[o + 1] = clampFixed(luma - CB_G * cb - CR_G * cr);
    out[o + 2] = clampFixed(luma + CB_B * cb);
    out[o + 3] = 255;
  }
}

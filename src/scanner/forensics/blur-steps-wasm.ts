/**
 * blur-search.ts `blurStepCounts` (the side means' step counts and their run maxima) by the kernels of
 * wasm/assembly/blur.ts: the same counts, without a full-size map in JavaScript or wasm (the means are made in rings
 * of rows). blur-search.ts stays the reference; test/forensics/image/wasm-search-kernels.test.ts compares them. Wasm
 * memory: the picture (4 bytes per pixel), the four u16 count tables (≈ 4 bytes per pixel) and ≈ 230 bytes per column.
 */
import { copyGrayInto } from "../images/gray-wasm";
import type { GrayImage } from "../images/gray";
import { kernels } from "../images/wasm-kernels";
import type { StepCounts } from "./blur-search";

/**
 * Both orientations' step counts, each with its run maxima over `run` samples: views on the kernels' memory, valid
 * until the next kernel call (the search reads them at once; copying the four tables, ≈ 4 bytes per pixel, was
 * garbage per file).
 */
export function blurStepCountsWasm(
  img: GrayImage,
  sample: number,
  run: number,
): { columns: StepCounts; rows: StepCounts } {
  const { width, height } = img;
  const k = kernels();
  const samplesV = Math.ceil(height / sample);
  const samplesH = Math.ceil(width / sample);
  const countsV = (samplesV + 1) * width * 2;
  const countsH = (samplesH + 1) * height * 2;
  const { at, buffer } = copyGrayInto(img, {
    work: k.blurStepWorkBytes(width),
    intoV: countsV,
    outOfV: countsV,
    intoH: countsH,
    outOfH: countsH,
    most: 2 * (width + height) * 2,
  });
  k.blurStepCounts(at.picture, width, height, at.work, at.intoV, at.outOfV, at.intoH, at.outOfH);
  const counts = (lines: number, samples: number, into: number, outOf: number, most: number): StepCounts => {
    k.stepRunMaxima(into, lines, samples, run, most);
    k.stepRunMaxima(outOf, lines, samples, run, most + lines * 2);
    const table = (at: number) => new Uint16Array(buffer, at, (samples + 1) * lines);
    return {
      lines,
      samples,
      into: table(into),
      outOf: table(outOf),
      mostInto: new Uint16Array(buffer, most, lines),
      mostOutOf: new Uint16Array(buffer, most + lines * 2, lines),
    };
  };
  return {
    columns: counts(width, samplesV, at.intoV, at.outOfV, at.most),
    rows: counts(height, samplesH, at.intoH, at.outOfH, at.most + width * 4),
  };
}

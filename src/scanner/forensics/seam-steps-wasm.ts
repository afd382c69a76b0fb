/**
 * The cut-edge searches' per-pixel work by the kernels of wasm/assembly/seams.ts: seam-search.ts `stepCounts` in
 * both directions and tone-box.ts `runExtremes` of the rows and of the columns, the same values, read from the
 * picture as it is (the references read its transposed copy for the horizontal boundaries). The references stay;
 * test/forensics/image/wasm-search-kernels.test.ts compares them. Wasm memory: the picture (4 bytes per pixel), the
 * count tables (≈ 2 bytes per pixel) and ≈ 4 bytes per column; the tone box's candidate lines' sums 32 bytes per
 * line and kept position (≤ 120 × 120).
 */
import type { GrayImage } from "../images/gray";
import { copyGrayInto } from "../images/gray-wasm";
import { kernels } from "../images/wasm-kernels";

/** One direction's prefix counts of one-pixel steps, as seam-search.ts `StepCounts`. */
export interface SeamStepCounts {
  lines: number;
  samples: number;
  counts: Uint16Array;
  /** Per line, the most steps in any `run` samples. */
  most: Uint16Array;
}

/**
 * Steps across vertical boundaries (along rows, every `sample`-th row) and horizontal ones (along columns), with
 * their run maxima over `run` samples: views on the kernels' memory, valid until the next kernel call (the search
 * reads them at once; copying the tables, ≈ 2 bytes per pixel, was garbage per file).
 */
export function seamStepCountsWasm(
  img: GrayImage,
  sample: number,
  run: number,
): { vertical: SeamStepCounts; horizontal: SeamStepCounts } {
  const { width, height } = img;
  const vertical = { lines: width - 1, samples: Math.ceil(height / sample) };
  const horizontal = { lines: height - 1, samples: Math.ceil(width / sample) };
  const bytes = (s: { lines: number; samples: number }) => (s.samples + 1) * s.lines * 2;
  const { at, buffer } = copyGrayInto(img, {
    vertical: bytes(vertical),
    horizontal: bytes(horizontal),
    most: (width + height) * 2,
  });
  const k = kernels();
  k.seamStepCounts(at.picture, width, height, at.vertical, at.horizontal);
  const table = (s: { lines: number; samples: number }, counts: number, most: number) => {
    k.stepRunMaxima(counts, s.lines, s.samples, run, most);
    return {
      ...s,
      counts: new Uint16Array(buffer, counts, (s.samples + 1) * s.lines),
      most: new Uint16Array(buffer, most, s.lines),
    };
  };
  return {
    vertical: table(vertical, at.vertical, at.most),
    horizontal: table(horizontal, at.horizontal, at.most + vertical.lines * 2),
  };
}

/** Per boundary, the largest and smallest t of a run (runExtremes' `most` and `least`). */
export interface RunExtremes {
  most: Float32Array;
  least: Float32Array;
}

/** runExtremes of the boundaries between rows (`rows`) and between columns (`columns`; `runStep` 2, runs of 32). */
export function toneRunExtremesWasm(img: GrayImage): { rows: RunExtremes; columns: RunExtremes } {
  const { width, height } = img;
  const k = kernels();
  const { at, buffer } = copyGrayInto(img, {
    rowsMost: height * 4,
    rowsLeast: height * 4,
    columnsMost: width * 4,
    columnsLeast: width * 4,
    // The rows' residuals (every other column's, as f32 pairs in groups of four) or the columns' ring of 32 pairs.
    work: Math.max(Math.ceil(width / 8) * 32, 32 * 8),
  });
  k.toneRunExtremes(at.picture, width, height, 1, at.rowsMost, at.rowsLeast, at.work);
  k.toneRunExtremes(at.picture, width, height, 0, at.columnsMost, at.columnsLeast, at.work);
  const values = (at: number, n: number) => new Float32Array(buffer, at, n).slice();
  return {
    rows: { most: values(at.rowsMost, height), least: values(at.rowsLeast, height) },
    columns: { most: values(at.columnsMost, width), least: values(at.columnsLeast, width) },
  };
}

/**
 * tone-box.ts `prefixLine` of the boundaries `ks` between rows (`rows`) or columns: each line's sums (r, r², before,
 * after) at its `slots` kept positions (`at`: slot of position i, −1 where not kept), four f64 per slot, in one array
 * (one line's after the other's). Position 0's sums are 0, as the reference's array starts.
 */
export function toneLineSumsWasm(
  img: GrayImage,
  ks: number[],
  at: Int32Array,
  slots: number,
  rows: boolean,
): Float64Array[] {
  if (!ks.length) return [];
  const perLine = 4 * slots;
  const { at: r, buffer } = copyGrayInto(img, {
    lines: ks.length * 4,
    kept: at.length * 4,
    out: ks.length * perLine * 8,
  });
  new Int32Array(buffer, r.lines, ks.length).set(ks);
  new Int32Array(buffer, r.kept, at.length).set(at);
  const out = new Float64Array(buffer, r.out, ks.length * perLine);
  out.fill(0);
  kernels().toneLineSums(r.picture, img.width, img.height, rows ? 1 : 0, r.lines, ks.length, r.kept, slots, r.out);
  const sums = out.slice();
  return ks.map((_, i) => sums.subarray(i * perLine, (i + 1) * perLine));
}

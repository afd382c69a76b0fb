// The luminance block rows of the shared coefficient pass, left in wasm memory for every row sink's kernel
// (src/scanner/images/jpeg-coefficients.ts `decodeLumaCoefficients`; its JavaScript reference gathers the
// decoder's visited blocks into rows, `reference`): the decoder's MCU row regrouped into whole block rows,
// and their integer IDCT samples (jpeg-idct.ts, the reference's idctBlockToBytes), computed once for the
// coefficient statistics' darkest and brightest pixels and jpeg-grid's box sums.

import { idctBlock } from "./jpeg-idct";

/**
 * The luminance blocks of one decoded MCU row (`mcu`: 64 i16 per block in MCU order, `blocksPerMcu` per MCU,
 * the luminance's h × v from block `lumaAt` of each MCU, row by row) into `v` block rows at `rows` of
 * `blocksWide` blocks each (the MCUs' padding blocks past `blocksWide` left out).
 */
export function gatherLumaRows(
  mcu: usize,
  mcusX: i32,
  blocksPerMcu: i32,
  lumaAt: i32,
  h: i32,
  v: i32,
  blocksWide: i32,
  rows: usize,
): void {
  for (let mx = 0; mx < mcusX; mx++) {
    const col = mx * h;
    const count = min(h, blocksWide - col);
    if (count <= 0) return;
    for (let by = 0; by < v; by++)
      memory.copy(
        rows + <usize>(by * blocksWide + col) * 128,
        mcu + <usize>(mx * blocksPerMcu + lumaAt + by * h) * 128,
        <usize>count * 128,
      );
  }
}

/**
 * `count` block rows of coefficients (`blocksWide` blocks of 64 i16 per row, natural order), dequantised with
 * `table` (64 u16), into their samples at `samples`: 8 lines of blocksWide × 8 bytes per block row.
 */
export function lumaRowSamples(coefficients: usize, count: i32, blocksWide: i32, table: usize, samples: usize): void {
  const rowWidth = blocksWide * 8;
  for (let r = 0; r < count; r++)
    for (let c = 0; c < blocksWide; c++)
      idctBlock(
        coefficients + <usize>(r * blocksWide + c) * 128,
        table,
        samples + <usize>(r * 8 * rowWidth + c * 8),
        rowWidth,
      );
}

// Luma of RGBA rows area-averaged to a smaller grey picture, band by band: the JavaScript reference is
// gray.ts `lumaFromRgba` (BT.601 in f64, stored as f32) followed by gray.ts `downscale` (each output
// pixel the f64 sum of its source rectangle's f32 values, rows then columns, divided by the count,
// stored as f32). Streaming keeps that order: for each source row in turn, every output column adds
// its columns left to right, and an output row is written after its last source row.

/**
 * Adds `rows` RGBA rows of `width` pixels at `rgba` (picture rows y, y + 1, …). `firstColumn` (i32,
 * outWidth + 1) and `firstRow` (i32, outHeight + 1) hold the rectangles' starts (the last entry
 * the end); source rows from firstRow[outHeight] on belong to no output row. `sums` (f64 per output
 * column) and `state` (i32: the output row being summed) carry over between calls. Finished output
 * rows are written to `out` (outWidth f32 each, in order); returns how many.
 */
export function lumaDownscaleBand(
  rgba: usize,
  width: i32,
  rows: i32,
  y: i32,
  outWidth: i32,
  outHeight: i32,
  firstColumn: usize,
  firstRow: usize,
  sums: usize,
  state: usize,
  out: usize,
): i32 {
  let outRow = load<i32>(state);
  let written = 0;
  for (let r = 0; r < rows; r++) {
    const row = y + r;
    if (outRow >= outHeight || row < load<i32>(firstRow + (<usize>outRow << 2))) continue;
    const pixels = rgba + <usize>r * <usize>width * 4;
    for (let ox = 0; ox < outWidth; ox++) {
      const start = load<i32>(firstColumn + (<usize>ox << 2));
      const end = load<i32>(firstColumn + (<usize>(ox + 1) << 2));
      const s = sums + (<usize>ox << 3);
      let sum = load<f64>(s);
      for (let x = start; x < end; x++) {
        const p = pixels + (<usize>x << 2);
        // In f64 first (a cast around the expression would make its literals f32), then rounded to f32 as stored.
        const luma: f64 = 0.299 * <f64>load<u8>(p) + 0.587 * <f64>load<u8>(p + 1) + 0.114 * <f64>load<u8>(p + 2);
        sum += <f64>(<f32>luma);
      }
      store<f64>(s, sum);
    }
    const rowEnd = load<i32>(firstRow + (<usize>(outRow + 1) << 2));
    if (row + 1 === rowEnd) {
      const count = <f64>(rowEnd - load<i32>(firstRow + (<usize>outRow << 2)));
      const line = out + <usize>written * <usize>outWidth * 4;
      for (let ox = 0; ox < outWidth; ox++) {
        const columns = <f64>(load<i32>(firstColumn + (<usize>(ox + 1) << 2)) - load<i32>(firstColumn + (<usize>ox << 2)));
        store<f32>(line + (<usize>ox << 2), <f32>(load<f64>(sums + (<usize>ox << 3)) / (count * columns)));
      }
      memory.fill(sums, 0, <usize>outWidth * 8);
      written++;
      outRow++;
    }
  }
  store<i32>(state, outRow);
  return written;
}

/**
 * Luminance blocks, which a coefficient pass delivers in decoding order (a block row at a time, or two
 * interleaved for 2×2- or 1×2-sampled MCUs), gathered into whole block rows for the wasm kernels that
 * take a row (or several) per call. A ring of `slots` rows; `complete(row)` is called when the last
 * block of a row arrives, and the row stays readable until its slot is reused `slots` rows later.
 */
export class LumaBlockRows {
  private readonly coefficients: Int16Array;
  private readonly rowIn: Int32Array;
  private readonly filled: Int32Array;

  constructor(
    private readonly blocksWide: number,
    private readonly slots: number,
    private readonly complete: (row: number) => void,
  ) {
    this.coefficients = new Int16Array(slots * blocksWide * 64);
    this.rowIn = new Int32Array(slots).fill(-1);
    this.filled = new Int32Array(slots);
  }

  /** Block (row, col)'s 64 coefficients (copied). */
  add(row: number, col: number, coefficients: Int16Array): void {
    const slot = row % this.slots;
    if (this.rowIn[slot] !== row) {
      this.rowIn[slot] = row;
      this.filled[slot] = 0;
    }
    this.coefficients.set(coefficients, (slot * this.blocksWide + col) * 64);
    if (++this.filled[slot] === this.blocksWide) this.complete(row);
  }

  /** The coefficients of a held row (blocksWide × 64, a view). */
  row(row: number): Int16Array {
    const at = (row % this.slots) * this.blocksWide * 64;
    return this.coefficients.subarray(at, at + this.blocksWide * 64);
  }
}

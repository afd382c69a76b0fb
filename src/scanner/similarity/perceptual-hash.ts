/**
 * Perceptual hashes of a decoded picture (docs/reverse-search.md): two 64-bit hashes that change
 * little under resizing, recompression, small crops and brightness changes, each also for the
 * horizontally mirrored picture. Computed from pixels a detector already decoded (the thumbnail).
 *
 * - `dct` (pHash): the picture as 32×32 luma, its 2-D DCT, the 8×8 lowest frequencies; a bit is
 *   set where the coefficient is above their median (as imagehash's `phash`).
 * - `blockMean`: the picture as 8×8 block means; a bit is set where the block is above their median.
 *
 * A hash is four 16-bit bands (most significant first), the form the index stores
 * (src/scanner/similarity/store.ts); `hex` is the same 64 bits as 16 hex digits.
 */

/** 64 bits as four 16-bit bands, most significant first. */
export type Hash64 = [number, number, number, number];

export interface PerceptualHashes {
  dct: Hash64;
  dctMirrored: Hash64;
  blockMean: Hash64;
  blockMeanMirrored: Hash64;
}

const GRID = 32;
const LOW = 8;

/** Hashes of an RGBA picture (any size ≥ 1×1). */
export function perceptualHashes(rgba: Uint8Array, width: number, height: number): PerceptualHashes {
  const grey = lumaGrid(rgba, width, height);
  const coefficients = lowDct(grey);
  const mirroredCoefficients = coefficients.map((c, i) => ((i % LOW) % 2 === 1 ? -c : c));
  const blocks = blockMeans(grey);
  const mirroredBlocks = blocks.map((_, i) => blocks[i - (i % LOW) + (LOW - 1 - (i % LOW))]);
  return {
    dct: aboveMedian(coefficients),
    dctMirrored: aboveMedian(mirroredCoefficients),
    blockMean: aboveMedian(blocks),
    blockMeanMirrored: aboveMedian(mirroredBlocks),
  };
}

/** Number of differing bits. */
export function hammingDistance(a: Hash64, b: Hash64): number {
  let d = 0;
  for (let i = 0; i < 4; i++) d += popcount16(a[i] ^ b[i]);
  return d;
}

export function popcount16(x: number): number {
  let v = x - ((x >> 1) & 0x5555);
  v = (v & 0x3333) + ((v >> 2) & 0x3333);
  v = (v + (v >> 4)) & 0x0f0f;
  return (v + (v >> 8)) & 0x1f;
}

export const toHex = (h: Hash64): string => h.map((b) => b.toString(16).padStart(4, "0")).join("");

export function fromHex(hex: string): Hash64 | null {
  if (!/^[0-9a-f]{16}$/i.test(hex)) return null;
  return [0, 4, 8, 12].map((i) => Number.parseInt(hex.slice(i, i + 4), 16)) as Hash64;
}

/** 32×32 BT.601 luma by area averaging (aspect ratio dropped on purpose: a hash of the content's layout). */
function lumaGrid(rgba: Uint8Array, width: number, height: number): Float64Array {
  const sums = new Float64Array(GRID * GRID);
  const counts = new Float64Array(GRID * GRID);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(GRID - 1, Math.floor((y * GRID) / height));
    for (let x = 0; x < width; x++) {
      const gx = Math.min(GRID - 1, Math.floor((x * GRID) / width));
      const p = (y * width + x) * 4;
      sums[gy * GRID + gx] += 0.299 * rgba[p] + 0.587 * rgba[p + 1] + 0.114 * rgba[p + 2];
      counts[gy * GRID + gx]++;
    }
  }
  // A picture narrower than 32 pixels leaves cells empty: they take the nearest filled column/row.
  for (let i = 0; i < sums.length; i++) sums[i] = counts[i] ? sums[i] / counts[i] : Number.NaN;
  return fillGaps(sums);
}

function fillGaps(grid: Float64Array): Float64Array {
  for (let i = 0; i < grid.length; i++) {
    if (!Number.isNaN(grid[i])) continue;
    const y = Math.floor(i / GRID);
    const x = i % GRID;
    let found = 0;
    for (let r = 1; r < GRID && !found; r++)
      for (const [dx, dy] of [
        [-r, 0],
        [0, -r],
        [r, 0],
        [0, r],
      ]) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= GRID || ny >= GRID) continue;
        const v = grid[ny * GRID + nx];
        if (!Number.isNaN(v)) {
          grid[i] = v;
          found = 1;
          break;
        }
      }
    if (!found) grid[i] = 0;
  }
  return grid;
}

const COS = (() => {
  const m = new Float64Array(LOW * GRID);
  for (let u = 0; u < LOW; u++)
    for (let x = 0; x < GRID; x++) m[u * GRID + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * GRID));
  return m;
})();

/** The 8×8 lowest DCT-II coefficients of the 32×32 grid, row-major (v * 8 + u; u horizontal). */
function lowDct(grid: Float64Array): number[] {
  const rows = new Float64Array(GRID * LOW);
  for (let y = 0; y < GRID; y++)
    for (let u = 0; u < LOW; u++) {
      let s = 0;
      for (let x = 0; x < GRID; x++) s += COS[u * GRID + x] * grid[y * GRID + x];
      rows[y * LOW + u] = s;
    }
  const out: number[] = [];
  for (let v = 0; v < LOW; v++)
    for (let u = 0; u < LOW; u++) {
      let s = 0;
      for (let y = 0; y < GRID; y++) s += COS[v * GRID + y] * rows[y * LOW + u];
      out.push(s);
    }
  return out;
}

/** Means of the 8×8 blocks of 4×4 grid cells, row-major. */
function blockMeans(grid: Float64Array): number[] {
  const size = GRID / LOW;
  const out: number[] = [];
  for (let by = 0; by < LOW; by++)
    for (let bx = 0; bx < LOW; bx++) {
      let s = 0;
      for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) s += grid[(by * size + y) * GRID + bx * size + x];
      out.push(s / (size * size));
    }
  return out;
}

function aboveMedian(values: number[]): Hash64 {
  const sorted = [...values].sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  const bands: Hash64 = [0, 0, 0, 0];
  for (let i = 0; i < 64; i++) if (values[i] > median) bands[i >> 4] |= 1 << (15 - (i & 15));
  return bands;
}

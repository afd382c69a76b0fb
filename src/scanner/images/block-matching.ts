/**
 * Copy-move search by block matching (Fridrich et al. 2003; Christlein et al. 2012 for the
 * same-shift region check). Every 16×16 block at every pixel position is described by the means of
 * its 4×4 cells (16 values; the means average JPEG re-compression noise away, ≈ 0.2–0.7 grey levels
 * between a copy and its source at quality 80–95). Blocks whose coarsely quantised cells are equal
 * (a hash) are candidate pairs; a pair votes for its exact shift. A pasted copy is an integer shift
 * of a whole area, so its blocks pile onto one shift; for the strongest shifts the matching blocks
 * are grown into connected areas, leaving out what natural repetition also explains (the block
 * repeats a few pixels along the shift, or again one shift further: edges, gradients, tiles).
 */
import type { GrayImage } from "./gray";
import { kernels, ownKernels, scratchRegions } from "./wasm-kernels";

/** Block side and cell side (pixels of the searched picture). */
export const BLOCK = 16;
const CELL = 4;
const CELLS = (BLOCK / CELL) ** 2;
/** Blocks whose cell means depart less than this from a plane (standard deviation, grey levels) match anything. */
export const MIN_BLOCK_DETAIL = 3;
/** Quantisation step of the cell means in the hash (grey levels). */
const KEY_STEP = 8;
/** Mean absolute difference of the cell means below which two blocks count as copies. */
export const MATCH_TOLERANCE = 1.5;
/** Shifts shorter than a block are neighbours, not copies. */
const MIN_SHIFT = BLOCK;
/** Later blocks of the same hash compared with each block. */
const CHAIN_STEPS = 8;
/** Shifts with fewer votes than this are not grown; at most this many shifts are grown. */
const MIN_VOTES = 8;
const GROWN_SHIFTS = 6;
/** Far blocks with the same hash that a copied block may have (its source, and a chance coincidence). */
const MAX_TWINS = 2;
/** Pixels along the shift at which a genuine copied block must differ from itself. */
const ALONG = 3;

/** One area that appears again at (x + dx, y + dy): block positions (top-left corners) in the searched picture. */
export interface CopiedArea {
  dx: number;
  dy: number;
  /** Block positions x, y (interleaved) of the area at its earlier place in reading order; the other place is at + (dx, dy). */
  blocks: Int32Array;
  /** Candidate pairs that voted for this shift. */
  votes: number;
}

/** Result of a search (coordinates in the searched picture). */
export interface CopyMoveSearch {
  width: number;
  height: number;
  /** Blocks with enough detail to compare. */
  blocksCompared: number;
  /** Block positions per row and column (width − 15, height − 15). */
  gw: number;
  gh: number;
  /** 1 where the block at that position had enough detail (with the kernels a view on their memory, valid until their next call). */
  judged: Uint8Array;
  /** The largest area per grown shift, largest first. */
  areas: CopiedArea[];
}

/**
 * Means of every 4×4 cell at every pixel position into `data`: (width − 3) × (height − 3) values. Running sums
 * along each row, and down each column over the last four rows' sums (a ring of four rows: no second picture-sized array).
 */
function cellMeans(img: GrayImage, data: Float32Array): void {
  const cw = img.width - CELL + 1;
  const ring = new Float64Array(CELL * cw);
  const columns = new Float64Array(cw);
  for (let y = 0; y < img.height; y++) {
    const line = y * img.width;
    const row = (y % CELL) * cw;
    let s = 0;
    for (let x = 0; x < CELL - 1; x++) s += img.data[line + x];
    for (let x = 0; x < cw; x++) {
      s += img.data[line + x + CELL - 1];
      columns[x] += s - ring[row + x];
      ring[row + x] = s;
      s -= img.data[line + x];
    }
    if (y >= CELL - 1) {
      const out = (y - CELL + 1) * cw;
      for (let x = 0; x < cw; x++) data[out + x] = columns[x] / (CELL * CELL);
    }
  }
}

/** Offsets of a block's 16 cells in the cell-mean array. */
function cellOffsets(cw: number): Int32Array {
  const offsets = new Int32Array(CELLS);
  for (let i = 0; i < CELLS; i++) offsets[i] = Math.floor(i / 4) * CELL * cw + (i % 4) * CELL;
  return offsets;
}

/** Mean absolute difference of the cell means of the blocks at cell indices a and b. */
function blockDistance(cells: Float32Array, offsets: Int32Array, a: number, b: number): number {
  let s = 0;
  for (let i = 0; i < CELLS; i++) s += Math.abs(cells[a + offsets[i]] - cells[b + offsets[i]]);
  return s / CELLS;
}

/** Cell coordinate (−1.5 … 1.5) of cell i across and down, and Σ coordinate² over the 16 cells. */
const CELL_X = Float64Array.from({ length: CELLS }, (_, i) => (i % 4) - 1.5);
const CELL_Y = Float64Array.from({ length: CELLS }, (_, i) => Math.floor(i / 4) - 1.5);
const CELL_SQ = 20;
/** A block has detail when the residual sum of squares of its cell means around their best plane reaches this. */
const MIN_RESIDUAL = CELLS * MIN_BLOCK_DETAIL * MIN_BLOCK_DETAIL;
/**
 * The hash kernel takes a block's residual in f32 and another order than blockHashes: where it lies within this
 * share of the block's Σ cell mean² of MIN_RESIDUAL, the reference's operations decide (wasm/assembly/copy-move.ts
 * `copyMoveHashRows`: the f32 value is within 2⁻¹⁷ of that sum of the exact residual, the reference's within 2⁻⁴⁵).
 */
const RESIDUAL_SLACK = 2 ** -15;
/** Odd multipliers of the 16 quantised cell means in the hash (wasm/assembly/copy-move.ts MULTIPLIERS). */
const HASH_MULTIPLIERS = Int32Array.from([
  0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646d, 0xfd7046c5, 0xb55a4f09, 0x1b873593,
  0xcc9e2d51, 0xe6546b65, 0x7feb352d, 0x846ca68b, 0x2c1b3c6d, 0x297a2d39, 0x5bd1e995,
]);

/**
 * The JavaScript reference of the block hashes: per block position, 0 when its cell means depart
 * less than MIN_BLOCK_DETAIL from their best plane (a smooth shading or gradient matches at many
 * places: a sky, the inside of a cup), else a hash of the cell means quantised by KEY_STEP.
 */
function blockHashes(cells: Float32Array, cw: number, gw: number, gh: number, offsets: Int32Array): Uint32Array {
  const hashes = new Uint32Array(gw * gh);
  for (let y = 0; y < gh; y++)
    for (let x = 0; x < gw; x++) {
      const at = y * cw + x;
      let sum = 0;
      let sq = 0;
      let sx = 0;
      let sy = 0;
      let h = 0;
      for (let i = 0; i < CELLS; i++) {
        const v = cells[at + offsets[i]];
        sum += v;
        sq += v * v;
        sx += v * CELL_X[i];
        sy += v * CELL_Y[i];
        h = (h + Math.imul(Math.floor(v * (1 / KEY_STEP)), HASH_MULTIPLIERS[i])) | 0;
      }
      if (sq - (sum * sum) / CELLS - (sx * sx + sy * sy) / CELL_SQ < MIN_RESIDUAL) continue;
      h ^= h >>> 16;
      h = Math.imul(h, 0x45d9f3b);
      h ^= h >>> 16;
      hashes[y * gw + x] = h >>> 0 || 1;
    }
  return hashes;
}

/** Candidate pairs: block positions p < q (scan order) with equal hashes and matching cells, and their shift keys. */
interface Candidates {
  first: Int32Array<ArrayBuffer>;
  shift: Int32Array<ArrayBuffer>;
  count: number;
}

/** Shift key of (dx, dy), dy ≥ 0 (the later block in scan order minus the earlier). */
const shiftKey = (dx: number, dy: number) => dy * 65536 + dx + 32768;

/** How far a hash is shifted right for its group among n hashed positions: about 4–8 per group, in a count table that stays in the cache. */
const groupShift = (n: number) => 32 - Math.min(18, Math.max(8, Math.ceil(Math.log2(n / 4 + 1))));

/** Positions with a hash and their hashes, grouped by the hash's top bits (a counting sort; scan order within a group). */
function hashGroups(hashes: Uint32Array): { order: Int32Array; sorted: Uint32Array; start: Int32Array } {
  let n = 0;
  for (let i = 0; i < hashes.length; i++) if (hashes[i]) n++;
  const shift = groupShift(n);
  const start = new Int32Array(2 ** (32 - shift) + 1);
  for (let i = 0; i < hashes.length; i++) if (hashes[i]) start[(hashes[i] >>> shift) + 1]++;
  for (let b = 1; b < start.length; b++) start[b] += start[b - 1];
  const fill = start.slice(0, start.length - 1);
  const order = new Int32Array(n);
  const sorted = new Uint32Array(n);
  for (let i = 0; i < hashes.length; i++) {
    const h = hashes[i];
    if (!h) continue;
    const at = fill[h >>> shift]++;
    order[at] = i;
    sorted[at] = h;
  }
  return { order, sorted, start };
}

/**
 * Pairs every block with the later blocks of the same hash (at most CHAIN_STEPS of them: many equal
 * blocks are a repetitive texture, not a copy), keeping pairs at least MIN_SHIFT apart whose cell means
 * match; counts each block's far twins on the way (up to CHAIN_STEPS later ones, and the earlier ones that reached it).
 */
function candidatePairs(g: Grid): Candidates {
  const { hashes, gw, cw, cells, offsets, twins } = g;
  const { order, sorted, start } = hashGroups(hashes);
  let first = new Int32Array(1024);
  let shift = new Int32Array(1024);
  let count = 0;
  for (let b = 0; b + 1 < start.length; b++)
    for (let i = start[b]; i < start[b + 1]; i++) {
      for (let j = i + 1, partners = 0; j < start[b + 1] && partners < CHAIN_STEPS; j++) {
        if (sorted[j] !== sorted[i]) continue;
        partners++;
        const p = order[i];
        const px = p % gw;
        const py = (p - px) / gw;
        const q = order[j];
        const qx = q % gw;
        const qy = (q - qx) / gw;
        const dx = qx - px;
        const dy = qy - py;
        if (dx * dx + dy * dy < MIN_SHIFT * MIN_SHIFT) continue;
        twins[p] = Math.min(255, twins[p] + 1);
        twins[q] = Math.min(255, twins[q] + 1);
        if (blockDistance(cells, offsets, py * cw + px, qy * cw + qx) > MATCH_TOLERANCE) continue;
        if (count === first.length) {
          first = grow(first);
          shift = grow(shift);
        }
        first[count] = p;
        shift[count++] = shiftKey(dx, dy);
      }
    }
  return { first, shift, count };
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

interface Grid {
  cells: Float32Array;
  cw: number;
  gw: number;
  gh: number;
  offsets: Int32Array;
  hashes: Uint32Array;
  /** Per block position: how many blocks at least MIN_SHIFT away have its hash (counted up to 255; see candidatePairs). */
  twins: Uint8Array;
}

/**
 * Whether the block at (x, y) and its copy at (x + dx, y + dy) count as a copied pair: both have
 * detail, they match, the block does not match itself ALONG pixels along the shift (a straight edge
 * or a gradient), and neither repeats one shift further (a periodic texture: tiles, windows, fences).
 */
function copiedPair(g: Grid, x: number, y: number, dx: number, dy: number, ux: number, uy: number): boolean {
  const tx = x + dx;
  const ty = y + dy;
  if (tx < 0 || ty < 0 || tx >= g.gw || ty >= g.gh) return false;
  const s = y * g.gw + x;
  const t = ty * g.gw + tx;
  // A block whose hash recurs at several places is a repeating pattern: a copy has one twin.
  if (!g.hashes[s] || !g.hashes[t] || g.twins[s] > MAX_TWINS || g.twins[t] > MAX_TWINS) return false;
  const a = y * g.cw + x;
  const b = ty * g.cw + tx;
  if (blockDistance(g.cells, g.offsets, a, b) > MATCH_TOLERANCE) return false;
  return (
    differs(g, x + ux, y + uy, a) &&
    differs(g, x - ux, y - uy, a) &&
    differs(g, x - dx, y - dy, a) &&
    differs(g, tx + dx, ty + dy, b)
  );
}

/** Whether the block at (x, y) is outside the grid or differs from the one at cell index `other` by more than twice the tolerance. */
function differs(g: Grid, x: number, y: number, other: number): boolean {
  if (x < 0 || y < 0 || x >= g.gw || y >= g.gh) return true;
  return blockDistance(g.cells, g.offsets, y * g.cw + x, other) > 2 * MATCH_TOLERANCE;
}

/** The largest 4-connected area of copied pairs for shift (dx, dy), grown from the candidate pairs' first blocks. */
function grownArea(g: Grid, dx: number, dy: number, seeds: number[], seen: Uint8Array): Int32Array {
  seen.fill(0);
  const len = Math.hypot(dx, dy);
  const ux = Math.round((dx / len) * ALONG);
  const uy = Math.round((dy / len) * ALONG);
  let best = new Int32Array(0);
  const stack: number[] = [];
  const area: number[] = [];
  for (const seed of seeds) {
    if (seen[seed]) continue;
    seen[seed] = 1;
    if (!copiedPair(g, seed % g.gw, Math.floor(seed / g.gw), dx, dy, ux, uy)) continue;
    area.length = 0;
    stack.push(seed);
    while (stack.length) {
      const q = stack.pop() as number;
      const qx = q % g.gw;
      const qy = (q - qx) / g.gw;
      area.push(qx, qy);
      for (let k = 0; k < 4; k++) {
        const nx = qx + (k === 0 ? 1 : k === 1 ? -1 : 0);
        const ny = qy + (k === 2 ? 1 : k === 3 ? -1 : 0);
        if (nx < 0 || ny < 0 || nx >= g.gw || ny >= g.gh || seen[ny * g.gw + nx]) continue;
        seen[ny * g.gw + nx] = 1;
        if (copiedPair(g, nx, ny, dx, dy, ux, uy)) stack.push(ny * g.gw + nx);
      }
    }
    if (area.length > best.length) best = Int32Array.from(area);
  }
  return best;
}

/** The GROWN_SHIFTS shift keys with most votes (at least MIN_VOTES), ties by key, each with its pairs' first blocks. */
function strongestShifts(c: Candidates): { key: number; seeds: number[] }[] {
  const votes = new Map<number, number[]>();
  for (let i = 0; i < c.count; i++) {
    const seeds = votes.get(c.shift[i]);
    if (seeds) seeds.push(c.first[i]);
    else votes.set(c.shift[i], [c.first[i]]);
  }
  return [...votes.entries()]
    .filter(([, seeds]) => seeds.length >= MIN_VOTES)
    .sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
    .slice(0, GROWN_SHIFTS)
    .map(([key, seeds]) => ({ key, seeds }));
}

/** A searched picture's grid (cell means, hashes, twin counts), which positions had detail, and its candidate pairs. */
interface SearchGrid {
  grid: Grid;
  judged: Uint8Array;
  blocksCompared: number;
  candidates: Candidates;
}

/** The search grid by the JavaScript reference (cell means, block hashes, hash groups and candidate pairs). */
function referenceGrid(img: GrayImage, gw: number, gh: number): SearchGrid {
  const cw = img.width - CELL + 1;
  const cells = new Float32Array(cw * (img.height - CELL + 1));
  cellMeans(img, cells);
  const offsets = cellOffsets(cw);
  const hashes = blockHashes(cells, cw, gw, gh, offsets);
  const judged = new Uint8Array(gw * gh);
  let blocksCompared = 0;
  for (let i = 0; i < hashes.length; i++)
    if (hashes[i]) {
      judged[i] = 1;
      blocksCompared++;
    }
  const grid: Grid = { cells, cw, gw, gh, offsets, hashes, twins: new Uint8Array(gw * gh) };
  return { grid, judged, blocksCompared, candidates: candidatePairs(grid) };
}

/** Candidate pairs per call of the pairs kernel (its output: 8 bytes a pair). */
const PAIRS_PER_CALL = 16384;

/**
 * The same search grid from the wasm kernels (wasm/assembly/copy-move.ts): cell means, hashes, groups,
 * twin counts and pairs computed in the scratch area (≈ 20 bytes per searched pixel, which the isolate's
 * instance keeps: docs/wasm.md). The grid's arrays are views on it, valid until the next kernel call (the
 * search's growing is JavaScript).
 */
function kernelGrid(img: GrayImage, gw: number, gh: number, options: SearchOptions): SearchGrid {
  const pairsPerCall = Math.max(CHAIN_STEPS, options.pairsPerCall ?? PAIRS_PER_CALL);
  const cw = img.width - CELL + 1;
  const cellCount = cw * (img.height - CELL + 1);
  const positions = gw * gh;
  const k = options.ownScratch ? ownKernels() : kernels();
  // Cell means with 16 readable bytes after them (the hash kernel reads four positions at a time).
  // The hashes with 16 writable bytes after them (the hash kernel stores four positions at a time).
  const sizes = {
    cells: cellCount * 4 + 16,
    hashes: positions * 4 + 16,
    judged: positions + 4,
    twins: positions,
    state: 4,
  };
  // The picture and the cell means' running sums (zeroed) after them, for the cell-mean kernel; the picture's place
  // then takes the quantised cells and, behind them, the hash kernel's ring of 16 cell rows' sums (48 bytes per four
  // block positions).
  const quantisedBytes = Math.ceil(cellCount / 4) * 16 + 16;
  const ringBytes = 16 * Math.ceil(gw / 4) * 48;
  const picture = {
    luma: Math.max(img.data.length * 4, quantisedBytes + ringBytes),
    ring: cw * 4 * 8,
    columns: cw * 8,
  };
  const first = scratchRegions({ ...sizes, ...picture }, k);
  new Float32Array(first.buffer, first.at.luma, img.data.length).set(img.data);
  new Float64Array(first.buffer, first.at.ring, cw * 5).fill(0);
  k.copyMoveCellMeans(first.at.luma, img.width, img.height, first.at.ring, first.at.columns, first.at.cells);
  // The picture is read: its place takes the quantised cells (16 readable bytes after them), then the ring.
  k.copyMoveQuantise(first.at.cells, cellCount, first.at.luma);
  const blocksCompared = k.copyMoveHashRows(
    first.at.cells,
    first.at.luma,
    cw,
    gw,
    gh,
    MIN_RESIDUAL,
    options.residualSlack ?? RESIDUAL_SLACK,
    first.at.hashes,
    first.at.judged,
    first.at.luma + quantisedBytes,
  );
  const shift = groupShift(blocksCompared);
  const groups = 2 ** (32 - shift);
  // The entries with 96 readable bytes after them (the pairs kernel reads the eight after the four it tests).
  const grouped = { ends: groups * 4, entries: blocksCompared * 8 + 96 };
  const pairs = { first: pairsPerCall * 4, shifts: pairsPerCall * 4 };
  // The same regions first (same places), then the groups and the pairs' output where the picture was.
  const { at, buffer } = scratchRegions({ ...sizes, ...grouped, ...pairs }, k);
  // The scratch area holds earlier calls' bytes: no twins counted yet, the pairs' state at the first group.
  const twins = new Uint8Array(buffer, at.twins, positions);
  twins.fill(0);
  const state = new Int32Array(buffer, at.state, 1);
  state[0] = 0;
  k.copyMoveGroups(at.hashes, positions, shift, at.ends, at.entries);
  const candidates: Candidates = { first: new Int32Array(1024), shift: new Int32Array(1024), count: 0 };
  while (state[0] < blocksCompared) {
    const got = k.copyMovePairs(
      at.cells,
      cw,
      gw,
      shift,
      blocksCompared,
      at.ends,
      at.entries,
      at.twins,
      at.state,
      pairsPerCall,
      at.first,
      at.shifts,
    );
    appendPairs(candidates, new Int32Array(buffer, at.first, got), new Int32Array(buffer, at.shifts, got));
  }
  const cells = new Float32Array(buffer, at.cells, cellCount);
  const hashes = new Uint32Array(buffer, at.hashes, positions);
  const grid: Grid = { cells, cw, gw, gh, offsets: cellOffsets(cw), hashes, twins };
  return { grid, judged: new Uint8Array(buffer, at.judged, positions), blocksCompared, candidates };
}

/** Appends pairs (first blocks and shift keys) to `c`, growing its arrays. */
function appendPairs(c: Candidates, first: Int32Array, shift: Int32Array): void {
  while (c.count + first.length > c.first.length) {
    c.first = grow(c.first);
    c.shift = grow(c.shift);
  }
  c.first.set(first, c.count);
  c.shift.set(shift, c.count);
  c.count += first.length;
}

/**
 * Options of a search: `reference` computes everything up to the candidate pairs in JavaScript; `ownScratch`
 * runs the kernels in an instance of their own (wasm-kernels.ts `ownKernels`), for the reduced search of a
 * large photo, whose peak memory must not grow by the isolate keeping the search's scratch; `pairsPerCall` and
 * `residualSlack` (Infinity: every block's detail decided by the reference's order, RESIDUAL_SLACK) are for tests.
 */
interface SearchOptions {
  reference?: boolean;
  ownScratch?: boolean;
  pairsPerCall?: number;
  residualSlack?: number;
}

/** The search grid of `img` (at least 16 × 16) as the search builds it. */
function searchGrid(img: GrayImage, options: SearchOptions): SearchGrid {
  const gw = img.width - BLOCK + 1;
  const gh = img.height - BLOCK + 1;
  if (options.reference) return referenceGrid(img, gw, gh);
  return kernelGrid(img, gw, gh, options);
}

/**
 * For tests: the candidate pairs (first blocks and shift keys, in order), the twin counts, the cell means and
 * the judged positions of a search of `img` (at least 16 × 16), by the kernels or the reference.
 */
export function candidatePairsOf(img: GrayImage, options: SearchOptions = {}) {
  const { grid, judged, blocksCompared, candidates } = searchGrid(img, options);
  const { count } = candidates;
  return {
    first: candidates.first.slice(0, count),
    shift: candidates.shift.slice(0, count),
    twins: grid.twins.slice(),
    cells: grid.cells.slice(),
    judged: judged.slice(),
    blocksCompared,
  };
}

/** grownArea's flags, kept for the next search (each shift clears them): no picture-sized array per file. */
let seenBuffer = new Uint8Array(0);

/** The flags for `n` positions (the buffer grown to the largest search so far: ≤ 1 MB, the full search's 1 MP). */
function seenFlags(n: number): Uint8Array {
  if (seenBuffer.length < n) seenBuffer = new Uint8Array(n);
  return seenBuffer.subarray(0, n);
}

/**
 * Searches `img` for areas that appear twice at one integer shift. `{ reference: true }` computes
 * the block hashes, their groups and the candidate pairs with the JavaScript reference instead of the
 * wasm kernels (the same values; the tests compare both). With the kernels `judged` is a view on their memory:
 * read it before the next kernel call.
 */
export function searchCopyMove(img: GrayImage, options: SearchOptions = {}): CopyMoveSearch {
  const gw = Math.max(0, img.width - BLOCK + 1);
  const gh = Math.max(0, img.height - BLOCK + 1);
  if (!gw || !gh)
    return { width: img.width, height: img.height, blocksCompared: 0, gw, gh, judged: new Uint8Array(0), areas: [] };
  const { grid, judged, blocksCompared, candidates } = searchGrid(img, options);
  const seen = seenFlags(gw * gh);
  const areas = strongestShifts(candidates).map(({ key, seeds }) => {
    const dy = Math.floor(key / 65536);
    const dx = key - dy * 65536 - 32768;
    return { dx, dy, blocks: grownArea(grid, dx, dy, seeds, seen), votes: seeds.length };
  });
  areas.sort((a, b) => b.blocks.length - a.blocks.length);
  return { width: img.width, height: img.height, blocksCompared, gw, gh, judged, areas };
}

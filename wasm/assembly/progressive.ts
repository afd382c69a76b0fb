// Huffman decoding of one scan's blocks of one MCU row of a progressive JPEG (G.1.2): DC first and
// refinement, AC first with end-of-band runs, AC refinement. src/scanner/images/jpeg-progressive.ts
// (decodeScanRow, decodeBlock, decodeAcFirst, decodeAcRefinement) is the JavaScript reference, step for
// step, with entropy.ts's bit reader (the same zero bits at a marker, overrun rule and restart search).
//
// A progressive scan's data is read through a window of the file like a baseline one, but a block's
// refinement reads the coefficients earlier scans left, so a call cannot simply be repeated from the
// row's start when the window runs out. The call therefore commits the scan's state after every unit
// (an MCU of an interleaved scan, a block otherwise) and logs what it writes into the row until then:
// on NEED_MORE the unfinished unit's writes are undone, and the next call resumes at that unit.
import { beginRead, decodeSymbol, endRead, extend, NO_SYMBOL, read, readerNeedsMore, readerOverran, restart, TABLE_BYTES, ZIGZAG } from "./entropy";

const OK = 0;
const CORRUPT = 1;
const ENDS_EARLY = 2;
const NO_RESTART = 3;
const NEED_MORE = 4;

/**
 * The scan's state, i32 each, kept by the caller between calls: 0–5 the bit reader (entropy.ts), 6 MCUs of
 * the scan decoded (one block each in a one-component scan), 7 the end-of-band run, 8 units of the current
 * MCU row done (0 when the row starts), 9–12 the DC predictions of its components.
 */
const S_MCUS = 24;
const S_EOBRUN = 28;
const S_UNITS = 32;
const S_PRED = 36;

/**
 * The scan's parameters, i32 each: 0 Ss, 1 Se, 2 Ah, 3 Al, 4 restart interval, 5 components, 6 MCUs per
 * row of the frame, 7 blocks per MCU of the frame; then per component seven: DC table, AC table (indices
 * into `tables`, −1 for none), h, v, its first block inside an MCU, blocks wide, blocks high.
 */
const P_COMPONENTS = 32;
const COMPONENT_BYTES = 28;

// The scan being decoded (globals: one call at a time).
let ss = 0;
let se = 0;
let ah = 0;
let al = 0;
let eobrun = 0;
let blocksPerMcu = 0;
/** Working DC predictions (4 i32) and the unit's write log (address, old value), in the caller's `work` area. */
let preds: usize = 0;
let log: usize = 0;
let logged = 0;

/** Stores a coefficient, logging the value it replaces. */
@inline function put(z: usize, value: i32): void {
  const entry = log + (<usize>logged << 3);
  store<u32>(entry, <u32>z);
  store<i32>(entry, <i32>load<i16>(z), 4);
  logged++;
  store<i16>(z, <i16>value);
}

/** Undoes the unfinished unit's writes, last first. */
function undo(): void {
  while (logged > 0) {
    logged--;
    const entry = log + (<usize>logged << 3);
    store<i16>(<usize>load<u32>(entry), <i16>load<i32>(entry, 4));
  }
}

@inline function component(params: usize, c: i32): usize {
  return params + P_COMPONENTS + <usize>c * COMPONENT_BYTES;
}

/** Byte offset in the row of block column `col`, block line `by` of the MCU row, of component `d`. */
@inline function blockAt(d: usize, col: i32, by: i32): usize {
  const h = load<i32>(d, 8);
  const mx = col / h;
  return <usize>(mx * blocksPerMcu + load<i32>(d, 16) + by * h + (col - mx * h)) << 7;
}

/** One block's DC contribution (G.1.2.1) to the coefficient at `at`; false on a corrupt code. */
function decodeDc(table: usize, c: i32, at: usize): bool {
  if (ah !== 0) {
    if (read(1)) put(at, <i32>load<i16>(at) | (1 << al));
    return true;
  }
  let size = decodeSymbol(table);
  if (size === NO_SYMBOL) size = 0; // the reference's `undefined`: no difference
  if (size < 0 || size > 16) return false;
  const pred = preds + (<usize>c << 2);
  const p = load<i32>(pred) + (size ? extend(read(size), size) : 0);
  store<i32>(pred, p);
  put(at, p * (1 << al));
  return true;
}

/** First AC scan of a band into `out` (G.1.2.2); false on a corrupt code. */
function decodeAcFirst(table: usize, out: usize): bool {
  if (eobrun > 0) {
    eobrun--;
    return true;
  }
  for (let k = ss; k <= se; ) {
    let rs = decodeSymbol(table);
    if (rs < 0) return false;
    if (rs === NO_SYMBOL) rs = 0; // the reference's `undefined`: an end of band
    const run = rs >> 4;
    const size = rs & 15;
    if (size === 0) {
      if (run < 15) {
        eobrun = (1 << run) - 1 + read(run);
        return true;
      }
      k += 16;
      continue;
    }
    k += run;
    if (k > se) return false;
    put(out + (<usize>unchecked(ZIGZAG[k]) << 1), extend(read(size), size) * (1 << al));
    k++;
  }
  return true;
}

/** The correction bit of a coefficient already non-zero (as the reference's `refine`). */
@inline function refine(z: usize, p1: i32): void {
  const v = <i32>load<i16>(z);
  if (read(1) && (v & p1) === 0) put(z, v >= 0 ? v + p1 : v - p1);
}

/** AC refinement of a band in `out` (G.1.2.3, as libjpeg's decode_mcu_AC_refine); false on a corrupt code. */
function decodeAcRefinement(table: usize, out: usize): bool {
  const p1 = 1 << al;
  const m1 = -1 << al;
  let k = ss;
  if (eobrun === 0) {
    for (; k <= se; k++) {
      let rs = decodeSymbol(table);
      if (rs < 0) return false;
      if (rs === NO_SYMBOL) rs = 0;
      let run = rs >> 4;
      let value = 0;
      // A size other than 1 is invalid here; read as 1, as libjpeg does (it only warns).
      if (rs & 15) value = read(1) ? p1 : m1;
      else if (run !== 15) {
        eobrun = (1 << run) + read(run);
        break;
      }
      for (; k <= se; k++) {
        const z = out + (<usize>unchecked(ZIGZAG[k]) << 1);
        if (load<i16>(z) !== 0) refine(z, p1);
        else if (--run < 0) break;
      }
      if (value) {
        if (k > se) return false;
        put(out + (<usize>unchecked(ZIGZAG[k]) << 1), value);
      }
    }
  }
  if (eobrun > 0) {
    for (; k <= se; k++) {
      const z = out + (<usize>unchecked(ZIGZAG[k]) << 1);
      if (load<i16>(z) !== 0) refine(z, p1);
    }
    eobrun--;
  }
  return true;
}

/** One block of component `c` at byte offset `at` of the row: OK, CORRUPT or NEED_MORE (the unit's writes undone). */
function decodeBlock(params: usize, tables: usize, c: i32, at: usize): i32 {
  const d = component(params, c);
  let ok = true;
  if (ss === 0) ok = decodeDc(tables + <usize>load<i32>(d) * TABLE_BYTES, c, at);
  else {
    const table = tables + <usize>load<i32>(d, 4) * TABLE_BYTES;
    ok = ah === 0 ? decodeAcFirst(table, at) : decodeAcRefinement(table, at);
  }
  if (readerNeedsMore()) {
    undo();
    return NEED_MORE;
  }
  return ok ? OK : CORRUPT;
}

/** The scan's state after a completed unit, so that the next call starts behind it. */
function commit(state: usize, mcus: i32, units: i32, components: i32): void {
  logged = 0;
  endRead(state);
  store<i32>(state, mcus, S_MCUS);
  store<i32>(state, eobrun, S_EOBRUN);
  store<i32>(state, units, S_UNITS);
  memory.copy(state + S_PRED, preds, <usize>components << 2);
}

/** The restart marker due before the scan's next MCU (resetting predictions and runs): OK, NO_RESTART or NEED_MORE. */
function restartIfDue(interval: i32, mcus: i32, components: i32): i32 {
  if (!interval || mcus === 0 || mcus % interval !== 0) return OK;
  const found = restart();
  if (readerNeedsMore()) {
    undo();
    return NEED_MORE;
  }
  if (!found) return NO_RESTART;
  memory.fill(preds, 0, <usize>components << 2);
  eobrun = 0;
  return OK;
}

/**
 * Decodes the scan's blocks of MCU row `my` into `row` (64 i16 per block, the frame's MCU order):
 * one MCU row when the scan is interleaved, the v block rows of its component otherwise. `work`: 16 +
 * 8 × 640 bytes of scratch (the working predictions and the write log of at most 10 blocks). Returns OK, CORRUPT, ENDS_EARLY, NO_RESTART or NEED_MORE (the state holds the
 * completed units: call again with a window from its position).
 */
export function decodeProgressiveScanRow(
  state: usize,
  params: usize,
  tables: usize,
  my: i32,
  window: usize,
  windowStart: i32,
  windowEnd: i32,
  fileLength: i32,
  row: usize,
  work: usize,
): i32 {
  beginRead(state, window, windowStart, windowEnd, fileLength);
  ss = load<i32>(params);
  se = load<i32>(params, 4);
  ah = load<i32>(params, 8);
  al = load<i32>(params, 12);
  const interval = load<i32>(params, 16);
  const components = load<i32>(params, 20);
  const mcusX = load<i32>(params, 24);
  blocksPerMcu = load<i32>(params, 28);
  preds = work;
  log = work + 16;
  logged = 0;
  memory.copy(preds, state + S_PRED, <usize>components << 2);
  eobrun = load<i32>(state, S_EOBRUN);
  let mcus = load<i32>(state, S_MCUS);
  let units = load<i32>(state, S_UNITS);
  if (components > 1) {
    for (let mx = units; mx < mcusX; mx++) {
      const restarted = restartIfDue(interval, mcus, components);
      if (restarted !== OK) return restarted;
      for (let c = 0; c < components; c++) {
        const d = component(params, c);
        const h = load<i32>(d, 8);
        const v = load<i32>(d, 12);
        for (let by = 0; by < v; by++)
          for (let bx = 0; bx < h; bx++) {
            const result = decodeBlock(params, tables, c, row + blockAt(d, mx * h + bx, by));
            if (result !== OK) return result;
          }
      }
      mcus++;
      commit(state, mcus, mx + 1, components);
      if (readerOverran()) return ENDS_EARLY;
    }
  } else {
    const d = component(params, 0);
    const v = load<i32>(d, 12);
    const wide = load<i32>(d, 20);
    const high = load<i32>(d, 24);
    for (let u = units; u < v * wide && my * v + u / wide < high; u++) {
      const restarted = restartIfDue(interval, mcus, 1);
      if (restarted !== OK) return restarted;
      const result = decodeBlock(params, tables, 0, row + blockAt(d, u % wide, u / wide));
      if (result !== OK) return result;
      mcus++;
      commit(state, mcus, u + 1, 1);
      if (readerOverran()) return ENDS_EARLY;
    }
  }
  store<i32>(state, 0, S_UNITS);
  return OK;
}

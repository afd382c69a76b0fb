// Huffman (entropy) decoding of one MCU row of a baseline JPEG scan: src/scanner/images/jpeg-entropy.ts
// (BitReader, decodeSymbol, decodeBlock, ScanDecoder.decodeMcus) is the JavaScript reference, step
// for step: the same zero bits inserted at a marker, the same overrun rule, the same restart search,
// the same error for the same byte. The caller copies a window of the file in; when a row needs
// bytes beyond the window (and the window does not reach the end of the file) the call reports
// NEED_MORE and the caller repeats it from the saved state with a larger window.

/** Results of decodeMcuRow. */
const OK = 0;
const CORRUPT = 1; // "corrupt entropy-coded data"
const ENDS_EARLY = 2; // "entropy-coded data ends early (truncated file?)"
const NO_RESTART = 3; // "restart marker missing"
const NEED_MORE = 4;

/**
 * Decoder state, i32 each, read and written by the caller between calls: 0 pos, 1 buffer, 2 bits,
 * 3 synthetic, 4 markerHit, 5 overrun, 6 mcusDecoded, 7 blocks written by the last call, 8–11 DC predictions.
 */
const S_POS = 0;
const S_BUFFER = 4;
const S_BITS = 8;
const S_SYNTHETIC = 12;
const S_MARKER = 16;
const S_OVERRUN = 20;
const S_MCUS = 24;
const S_BLOCKS = 28;
const S_PRED = 32;

/** One table (as HuffmanTable builds it): lookup u16[512], maxCode i32[18], valPtr i32[17], minCode i32[17], symbols u16[256] (256 = none). */
export const TABLE_BYTES: i32 = 1024 + 72 + 68 + 68 + 512;
/**
 * A table of decodeMcuRow (baseline scans; progressive ones take TABLE_BYTES): TABLE_BYTES, then per next 11 bits the
 * code whose code and value bits both lie within them, i32[2048] (made by jpeg-entropy-wasm.ts `fastAc` and `fastDc`
 * as the reference's decodeSymbol reads those bits): (value << 8) | (run << 4) | (code length + size), run 0 in DC
 * tables, 0 for any other code (and for AC codes without value bits).
 */
const BASELINE_TABLE_BYTES: i32 = TABLE_BYTES + 8192;
const T_MAX = 1024;
const T_VALPTR = 1024 + 72;
const T_MINCODE = 1024 + 72 + 68;
const T_SYMBOLS = 1024 + 72 + 68 + 68;
const T_FAST = TABLE_BYTES;
export const NO_SYMBOL = 256;

export const ZIGZAG: StaticArray<u8> = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
];

// The bit reader's state while a call runs (globals: one call at a time).
let pos: i32 = 0;
/**
 * Up to 63 bits read ahead, the next one highest (the reference keeps 32: endRead gives the rest back, so the
 * state between calls is the reference's).
 */
let buffer: u64 = 0;
let bits: i32 = 0;
let synthetic: i32 = 0;
let markerHit = false;
let overrun = false;
let needMore = false;
/** The window: file bytes [winStart, winEnd) at `data`; `length` = the file's length. */
let data: usize = 0;
let winStart: i32 = 0;
let winEnd: i32 = 0;
let length: i32 = 0;

/** bytes[i] of the file, or a request for more when i is past the window but inside the file. */
@inline function byteAt(i: i32): i32 {
  if (i >= winEnd) {
    if (winEnd < length) needMore = true;
    return -1; // past the end of the file: the reference's `undefined`
  }
  return <i32>load<u8>(data + <usize>(i - winStart));
}

/**
 * Starts reading: the bit reader's state from `state` (its first six i32: pos, buffer, bits, synthetic,
 * markerHit, overrun) and the window of file bytes [windowStart, windowEnd) at `window`.
 */
export function beginRead(state: usize, window: usize, windowStart: i32, windowEnd: i32, fileLength: i32): void {
  pos = load<i32>(state, S_POS);
  buffer = <u64>load<u32>(state, S_BUFFER);
  bits = load<i32>(state, S_BITS);
  synthetic = load<i32>(state, S_SYNTHETIC);
  markerHit = load<i32>(state, S_MARKER) !== 0;
  overrun = load<i32>(state, S_OVERRUN) !== 0;
  data = window;
  winStart = windowStart;
  winEnd = windowEnd;
  length = fileLength;
  needMore = false;
}

/**
 * The bit reader's state back into `state` (as beginRead reads it). Whole bytes read ahead beyond 32 bits are given
 * back first (pos moved back over them): only fill's fast path reads that far, and it takes plain bytes (no 0xFF, no
 * marker), one file byte each.
 */
export function endRead(state: usize): void {
  if (bits > 32) {
    const extra = (bits - 25) >> 3;
    buffer >>= <u64>(extra << 3);
    bits -= extra << 3;
    pos -= extra;
  }
  store<i32>(state, pos, S_POS);
  store<u32>(state, <u32>buffer, S_BUFFER);
  store<i32>(state, bits, S_BITS);
  store<i32>(state, synthetic, S_SYNTHETIC);
  store<i32>(state, markerHit ? 1 : 0, S_MARKER);
  store<i32>(state, overrun ? 1 : 0, S_OVERRUN);
}

/** True when a read reached past the window inside the file (the call must be repeated with more bytes). */
@inline export function readerNeedsMore(): bool {
  return needMore;
}

/** True once a read consumed the zero bits inserted after the data's end. */
@inline export function readerOverran(): bool {
  return overrun;
}

function fill(): void {
  // As many whole bytes as fit in 63 bits at once when the window holds eight and none of those taken is 0xFF: what
  // the loop below would read, without its per-byte checks, and read ahead so that fewer reads need a fill
  // (leuvenA 3.9 → 3.2 ms with four bytes at once: docs/benchmarks.md).
  const count = (63 - bits) >> 3;
  if (!markerHit && count > 0 && pos + 8 <= winEnd) {
    const word = load<u64>(data + <usize>(pos - winStart));
    // No 0xFF among the `count` bytes taken (the low ones: file order): none of the inverted word's is zero (a
    // borrow marks a higher byte only above a zero one, which is then taken too).
    const inverted = ~word;
    const taken = (<u64>1 << <u64>(count << 3)) - 1;
    if ((((inverted - 0x0101010101010101) & word & 0x8080808080808080) & taken) === 0) {
      const shift = <u64>(count << 3);
      buffer = (buffer << shift) | (bswap<u64>(word) >>> (64 - shift));
      bits += count << 3;
      pos += count;
      return;
    }
  }
  while (bits <= 24) {
    let b = 0;
    if (!markerHit && pos < length) {
      b = byteAt(pos);
      if (needMore) return;
      if (b === 0xff) {
        const next = byteAt(pos + 1);
        if (needMore) return;
        if (next === 0x00) pos += 2;
        else {
          markerHit = true;
          synthetic += 8;
          b = 0;
        }
      } else pos++;
    } else {
      markerHit = true;
      synthetic += 8;
    }
    buffer = (buffer << 8) | <u64>b;
    bits += 8;
  }
}

@inline export function peek(n: i32): i32 {
  if (bits < n) fill();
  return <i32>(buffer >>> <u64>(bits - n)) & ((1 << n) - 1);
}

@inline export function skip(n: i32): void {
  bits -= n;
  if (bits < synthetic) {
    overrun = true;
    synthetic = max(0, bits);
  }
}

@inline export function read(n: i32): i32 {
  if (n === 0) return 0;
  const v = peek(n);
  skip(n);
  return v;
}

export function restart(): bool {
  buffer = 0;
  bits = 0;
  synthetic = 0;
  markerHit = false;
  while (pos < length - 1) {
    const a = byteAt(pos);
    const b = byteAt(pos + 1);
    if (needMore) return false;
    if (a === 0xff && b >= 0xd0 && b <= 0xd7) break;
    if (a === 0xff && b !== 0x00 && b !== 0xff) return false;
    pos++;
  }
  if (pos >= length - 1) return false;
  pos += 2;
  return true;
}

/** The next symbol, NO_SYMBOL for an index outside the table's symbols, -1 for an unknown code. */
@inline export function decodeSymbol(t: usize): i32 {
  const entry = <i32>load<u16>(t + (<usize>peek(9) << 1));
  if (entry) {
    skip(entry >> 8);
    return entry & 0xff;
  }
  let code = read(9);
  for (let len = 10; len <= 16; len++) {
    code = (code << 1) | read(1);
    if (code <= load<i32>(t + T_MAX + (<usize>len << 2))) {
      const k = load<i32>(t + T_VALPTR + (<usize>len << 2)) + code - load<i32>(t + T_MINCODE + (<usize>len << 2));
      return k < 0 || k > 255 ? NO_SYMBOL : <i32>load<u16>(t + T_SYMBOLS + (<usize>k << 1));
    }
  }
  return -1;
}

@inline export function extend(v: i32, s: i32): i32 {
  return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
}

/** One block into `out` (64 i16, natural order); false on a corrupt code. `pred` is the component's DC slot. */
function decodeBlock(dc: usize, ac: usize, pred: usize, out: usize): bool {
  memory.fill(out, 0, 128);
  // The DC difference by one lookup too when its code and value lie within the next 11 bits (as the AC codes below).
  const fastDc = load<i32>(dc + T_FAST + (<usize>peek(11) << 2));
  let difference = 0;
  if (fastDc) {
    skip(fastDc & 15);
    difference = fastDc >> 8;
  } else {
    const t = decodeSymbol(dc);
    if (t < 0 || (t > 16 && t !== NO_SYMBOL)) return false;
    difference = t && t !== NO_SYMBOL ? extend(read(t), t) : 0;
  }
  const p = load<i32>(pred) + difference;
  store<i32>(pred, p);
  store<i16>(out, <i16>p);
  for (let k = 1; k < 64; ) {
    // A code with its value bits within the next 11: one lookup and one skip instead of the symbol's and the value's.
    // The same bits as decodeSymbol + read(size) take (peek(11) left ≥ 11 bits), the same overrun (skip's rule over
    // len + size bits ends where its two skips end); after a fill that needs more bytes the call is repeated.
    const fast = load<i32>(ac + T_FAST + (<usize>peek(11) << 2));
    if (fast) {
      skip(fast & 15);
      k += (fast >> 4) & 15;
      if (k > 63) return false;
      store<i16>(out + (<usize>unchecked(ZIGZAG[k]) << 1), <i16>(fast >> 8));
      k++;
      continue;
    }
    const rs = decodeSymbol(ac);
    if (rs < 0) return false;
    if (rs === NO_SYMBOL) break; // the reference's `undefined`: size 0, run 0 = end of block
    const run = rs >> 4;
    const size = rs & 15;
    if (size === 0) {
      if (run !== 15) break;
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) return false;
    store<i16>(out + (<usize>unchecked(ZIGZAG[k]) << 1), <i16>extend(read(size), size));
    k++;
  }
  return true;
}

/**
 * Decodes MCU row `my` into `out` (64 i16 per block, in MCU order: per MCU, per component, its
 * v × h blocks). `components`: per scan component five i32 (frame index, h, v, DC table number, AC
 * table number); `tables` BASELINE_TABLE_BYTES each. Returns OK, CORRUPT, ENDS_EARLY, NO_RESTART or NEED_MORE
 * (nothing usable: repeat with a larger window from the same state).
 */
export function decodeMcuRow(
  state: usize,
  my: i32,
  mcusX: i32,
  restartInterval: i32,
  componentCount: i32,
  components: usize,
  tables: usize,
  window: usize,
  windowStart: i32,
  windowEnd: i32,
  fileLength: i32,
  out: usize,
): i32 {
  beginRead(state, window, windowStart, windowEnd, fileLength);
  let mcus = load<i32>(state, S_MCUS);
  let blocks = 0;
  let result = OK;
  for (let mx = 0; mx < mcusX && result === OK; mx++) {
    const m = my * mcusX + mx;
    if (restartInterval && m > 0 && m % restartInterval === 0) {
      const found = restart();
      if (needMore) return NEED_MORE;
      if (!found) {
        result = NO_RESTART;
        break;
      }
      for (let c = 0; c < componentCount; c++) store<i32>(state + S_PRED + (<usize>c << 2), 0);
    }
    for (let c = 0; c < componentCount && result === OK; c++) {
      const d = components + <usize>c * 20;
      const h = load<i32>(d, 4);
      const v = load<i32>(d, 8);
      const dc = tables + <usize>load<i32>(d, 12) * BASELINE_TABLE_BYTES;
      const ac = tables + <usize>load<i32>(d, 16) * BASELINE_TABLE_BYTES;
      for (let i = 0; i < h * v; i++) {
        const ok = decodeBlock(dc, ac, state + S_PRED + (<usize>c << 2), out + <usize>blocks * 128);
        if (needMore) return NEED_MORE;
        if (!ok) {
          result = CORRUPT;
          break;
        }
        blocks++;
      }
    }
    if (result !== OK) break;
    mcus = m + 1;
    if (overrun) result = ENDS_EARLY;
  }
  endRead(state);
  store<i32>(state, mcus, S_MCUS);
  store<i32>(state, blocks, S_BLOCKS);
  return result;
}

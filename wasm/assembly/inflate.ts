// Inflate (RFC 1951) of a whole zlib stream (RFC 1950) into a buffer of known size: the PNG strip
// decoder's small-picture path (src/scanner/images/png-strip-decoder.ts); fflate's streaming Unzlib is the
// JavaScript reference and the path for everything this kernel does not finish. It succeeds only on a
// stream that ends with its final block and fits the buffer; any damage (a truncated stream, a bad block
// type, stored length, code, symbol or distance) returns an error and the caller inflates with fflate,
// so a damaged file is reported exactly as before. Huffman codes are read through a 10-bit table; longer
// codes bit by bit (canonical decoding as zlib's puff.c).

import { CL_ORDER, DIST_BASE, DIST_EXTRA, LENGTH_BASE, LENGTH_EXTRA } from "./deflate-tables";

const FAST_BITS: i32 = 10;
const MAX_BITS: i32 = 15;

/**
 * A code: `count` (u16 per length 0–15), `symbol` (u16 per symbol, ordered by code), `fast` (u16 per
 * FAST_BITS-bit pattern, bit-reversed: symbol << 4 | length, 0 when the code is longer or unused).
 */
const LIT_COUNT = memory.data(2 * 16, 16);
const LIT_SYMBOL = memory.data(2 * 288, 16);
const LIT_FAST = memory.data(2 << FAST_BITS, 16);
const DIST_COUNT = memory.data(2 * 16, 16);
const DIST_SYMBOL = memory.data(2 * 32, 16);
const DIST_FAST = memory.data(2 << FAST_BITS, 16);
const CL_COUNT = memory.data(2 * 16, 16);
const CL_SYMBOL = memory.data(2 * 19, 16);
const CL_FAST = memory.data(2 << FAST_BITS, 16);
const LENGTHS = memory.data(320, 16);

// The bit reader (least significant bit first).
let input: usize = 0;
let inputEnd: usize = 0;
let bits: u64 = 0;
let bitCount: i32 = 0;
/** Set when a read went past the input's end (the stream is truncated). */
let truncated = false;

@inline function need(n: i32): void {
  while (bitCount < n) {
    if (input >= inputEnd) {
      truncated = true;
      return;
    }
    bits |= <u64>load<u8>(input) << <u64>bitCount;
    input++;
    bitCount += 8;
  }
}

@inline function take(n: i32): u32 {
  need(n);
  const v = <u32>(bits & ((<u64>1 << <u64>n) - 1));
  bits >>= <u64>n;
  bitCount -= n;
  return v;
}

/**
 * Builds a code from `n` code lengths at LENGTHS + `from`: false when it is over-subscribed (no valid
 * code; an incomplete one is allowed, a pattern it leaves unused is then an error when read).
 */
function build(from: i32, n: i32, count: usize, symbol: usize, fast: usize): bool {
  memory.fill(count, 0, 32);
  for (let s = 0; s < n; s++) {
    const l = <usize>load<u8>(LENGTHS + <usize>(from + s));
    store<u16>(count + (l << 1), load<u16>(count + (l << 1)) + 1);
  }
  let left = 1;
  for (let l = 1; l <= MAX_BITS; l++) {
    left = (left << 1) - <i32>load<u16>(count + (<usize>l << 1));
    if (left < 0) return false;
  }
  memory.fill(fast, 0, 2 << FAST_BITS);
  // Canonical codes in order of (length, symbol); short ones also into the table, bit-reversed.
  let code = 0;
  let next = 0;
  for (let l = 1; l <= MAX_BITS; l++) {
    for (let s = 0; s < n; s++) {
      if (<i32>load<u8>(LENGTHS + <usize>(from + s)) !== l) continue;
      store<u16>(symbol + (<usize>next << 1), <u16>s);
      next++;
      if (l <= FAST_BITS) {
        let reversed = 0;
        for (let b = 0; b < l; b++) reversed |= ((code >> b) & 1) << (l - 1 - b);
        for (let r = reversed; r < 1 << FAST_BITS; r += 1 << l) store<u16>(fast + (<usize>r << 1), <u16>((s << 4) | l));
      }
      code++;
    }
    code <<= 1;
  }
  return true;
}

/** The next symbol of a code; −1 for a bit pattern the code does not use (or a truncated stream). */
function decode(count: usize, symbol: usize, fast: usize): i32 {
  need(FAST_BITS);
  if (truncated && bitCount === 0) return -1;
  const entry = <i32>load<u16>(fast + (<usize>(<i32>bits & ((1 << FAST_BITS) - 1)) << 1));
  if (entry !== 0 && (entry & 15) <= bitCount) {
    bits >>= <u64>(entry & 15);
    bitCount -= entry & 15;
    return entry >> 4;
  }
  // Bit by bit (puff.c): code, first code and index of each length.
  let code = 0;
  let first = 0;
  let index = 0;
  for (let l = 1; l <= MAX_BITS; l++) {
    if (bitCount === 0) need(1);
    if (bitCount === 0) return -1;
    code |= <i32>(bits & 1);
    bits >>= 1;
    bitCount--;
    const c = <i32>load<u16>(count + (<usize>l << 1));
    if (code - c < first) return <i32>load<u16>(symbol + (<usize>(index + code - first) << 1));
    index += c;
    first = (first + c) << 1;
    code <<= 1;
  }
  return -1;
}

/** The fixed codes of block type 1. */
function fixedCodes(): void {
  for (let s = 0; s < 288; s++) store<u8>(LENGTHS + <usize>s, s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8);
  build(0, 288, LIT_COUNT, LIT_SYMBOL, LIT_FAST);
  for (let s = 0; s < 30; s++) store<u8>(LENGTHS + <usize>s, 5);
  build(0, 30, DIST_COUNT, DIST_SYMBOL, DIST_FAST);
}

/** The dynamic codes of block type 2; false when they are damaged. */
function dynamicCodes(): bool {
  const hlit = <i32>take(5) + 257;
  const hdist = <i32>take(5) + 1;
  const hclen = <i32>take(4) + 4;
  if (hlit > 286 || hdist > 30) return false;
  memory.fill(LENGTHS, 0, 19);
  for (let i = 0; i < hclen; i++) store<u8>(LENGTHS + <usize>unchecked(CL_ORDER[i]), <u8>take(3));
  if (truncated || !build(0, 19, CL_COUNT, CL_SYMBOL, CL_FAST)) return false;
  let i = 0;
  while (i < hlit + hdist) {
    const sym = decode(CL_COUNT, CL_SYMBOL, CL_FAST);
    if (sym < 0) return false;
    if (sym < 16) {
      store<u8>(LENGTHS + <usize>i, <u8>sym);
      i++;
      continue;
    }
    let value: u8 = 0;
    let repeat = 0;
    if (sym === 16) {
      if (i === 0) return false;
      value = load<u8>(LENGTHS + <usize>(i - 1));
      repeat = 3 + <i32>take(2);
    } else if (sym === 17) repeat = 3 + <i32>take(3);
    else repeat = 11 + <i32>take(7);
    if (i + repeat > hlit + hdist) return false;
    memory.fill(LENGTHS + <usize>i, value, <usize>repeat);
    i += repeat;
  }
  // A literal/length code without an end-of-block code cannot end its block.
  if (truncated || load<u8>(LENGTHS + 256) === 0) return false;
  return (
    build(0, hlit, LIT_COUNT, LIT_SYMBOL, LIT_FAST) && build(hlit, hdist, DIST_COUNT, DIST_SYMBOL, DIST_FAST)
  );
}

/**
 * Inflates the zlib stream of `length` bytes at `data` into `output` (room for `capacity` bytes). Returns
 * the inflated length when the stream ends with its final block; −1 when it is damaged or truncated, −2
 * when it inflates to more than `capacity` (the Adler-32 is not checked, as fflate does not).
 */
export function zlibInflate(data: usize, length: i32, output: usize, capacity: i32): i32 {
  if (length < 2) return -1;
  const cmf = <i32>load<u8>(data);
  const flg = <i32>load<u8>(data + 1);
  if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 || flg & 32) return -1;
  input = data + 2;
  inputEnd = data + <usize>length;
  bits = 0;
  bitCount = 0;
  truncated = false;
  let out = output;
  const outEnd = output + <usize>capacity;
  let final = false;
  while (!final) {
    final = take(1) === 1;
    const type = take(2);
    if (truncated) return -1;
    if (type === 0) {
      // Stored: whole bytes from the next byte boundary.
      bits >>= <u64>(bitCount & 7);
      bitCount -= bitCount & 7;
      const n = take(16);
      const complement = take(16);
      if (truncated || (n ^ 0xffff) !== complement) return -1;
      // Bytes still in the bit buffer come first (whole bytes after the alignment).
      let left = <i32>n;
      while (left > 0 && bitCount >= 8) {
        if (out >= outEnd) return -2;
        store<u8>(out, <u8>bits);
        out++;
        bits >>= 8;
        bitCount -= 8;
        left--;
      }
      if (<i32>(inputEnd - input) < left) return -1;
      if (<i32>(outEnd - out) < left) return -2;
      memory.copy(out, input, <usize>left);
      out += <usize>left;
      input += <usize>left;
      continue;
    }
    if (type === 1) fixedCodes();
    else if (type !== 2 || !dynamicCodes()) return -1;
    for (;;) {
      const sym = decode(LIT_COUNT, LIT_SYMBOL, LIT_FAST);
      if (sym < 0 || truncated) return -1;
      if (sym < 256) {
        if (out >= outEnd) return -2;
        store<u8>(out, <u8>sym);
        out++;
        continue;
      }
      if (sym === 256) break;
      const lc = sym - 257;
      if (lc >= 29) return -1;
      const len = <i32>unchecked(LENGTH_BASE[lc]) + <i32>take(<i32>unchecked(LENGTH_EXTRA[lc]));
      const dc = decode(DIST_COUNT, DIST_SYMBOL, DIST_FAST);
      if (dc < 0 || dc >= 30) return -1;
      const dist = <i32>unchecked(DIST_BASE[dc]) + <i32>take(<i32>unchecked(DIST_EXTRA[dc]));
      if (truncated || <usize>dist > out - output) return -1;
      if (<i32>(outEnd - out) < len) return -2;
      // Byte by byte: a copy may overlap the bytes it writes (distance < length).
      const from = out - <usize>dist;
      for (let k = 0; k < len; k++) store<u8>(out + <usize>k, load<u8>(from + <usize>k));
      out += <usize>len;
    }
  }
  return <i32>(out - output);
}

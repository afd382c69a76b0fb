// Deflate (RFC 1951) in a zlib wrapper (RFC 1950) for the PNGs the service writes (heatmaps,
// thumbnails): src/scanner/images/png-encode.ts. The JavaScript reference is fflate's zlibSync at
// level 1; the bytes differ (another match finder, other block boundaries), the inflated data is the
// same, which the tests check on photos, random data, runs and empty input. Greedy matching as
// zlib's fastest level: a hash of the next 4 bytes, at most MAX_CHAIN earlier positions tried in the
// 32 KB window, no lazy evaluation (RGB rows: `deflatePixels`, matches from pixel to pixel); dynamic
// Huffman blocks of up to BLOCK_SYMBOLS symbols, each stored raw instead when that is smaller, so the
// output is at most deflateBound(length) bytes.

import { CL_ORDER, DIST_BASE, DIST_EXTRA, LENGTH_BASE, LENGTH_EXTRA } from "./deflate-tables";

const WINDOW: i32 = 32768;
const WMASK: i32 = WINDOW - 1;
const HASH_BITS: i32 = 15;
const MIN_MATCH: i32 = 4;
const MAX_MATCH: i32 = 258;
/**
 * Earlier positions tried per hash. 2 (4 before): on a phone photo's seven heatmaps 18 % less time for 1.2 % more
 * bytes (docs/benchmarks.md, "Small pictures, fifth round"); 1 gave 6.6 % more bytes than 4 and hardly less time than 2
 * then. RGB rows (deflatePixels) try one: ≈ 6 % less time than 2 for ≈ 2 % more bytes (docs/benchmarks.md,
 * "Heatmap PNGs").
 */
const MAX_CHAIN: i32 = 2;
/** A match this long ends the search (longer ones are rare and cost more to look for). */
const NICE_MATCH: i32 = 64;
/**
 * Matches up to this length have every position inserted in the hash chains; longer ones only their first.
 * 4 as zlib's level 1 (`max_insert_length`): on a photo's heatmaps 14 % less time than 8, 4 % more bytes.
 */
const MAX_INSERT: i32 = 4;
/** Symbols per block: 32 768 (16 384 before) halves the blocks' Huffman tables for the same bytes, ≈ 3 % less time. */
const BLOCK_SYMBOLS: i32 = 32768;
const STORED_MAX: i32 = 65535;

/**
 * Head of each hash chain (position + 1; 0 = empty) and the previous position of each window slot (deflateBytes;
 * deflatePixels follows no chain and keeps none).
 */
const HEAD = memory.data(4 << HASH_BITS, 16);
const PREV = memory.data(4 * WINDOW, 16);
/**
 * The block's symbols, each what writeSymbols writes: a literal's byte (0–255) or 256 + a match's length − 3 in
 * bits 0–8 (SYMBOL_ENTRY's index), its distance code + 1 in 14–18 (0: none) and the distance's extra bits' value
 * from 19 on. A step adds at most 1 + 3 past BLOCK_SYMBOLS.
 */
const SYMBOLS = memory.data(4 * (BLOCK_SYMBOLS + 8), 16);
/** Frequencies, code lengths and codes: 286 literal/length, 30 distance, 19 code-length symbols. */
const LIT_FREQ = memory.data(4 * 288, 16);
/**
 * The literals' counts, one table per place in a pixel's literals (0–2; deflateBytes uses 0): a pixel's bytes are
 * often equal (a tinted grey's difference to the row above), and counting them in one table made each increment
 * wait for the one before. writeBlock adds them into LIT_FREQ.
 */
const LITERAL_RUN_PLACES: i32 = 3;
const RUN_FREQ = memory.data(4 * 256 * LITERAL_RUN_PLACES, 16);
const DIST_FREQ = memory.data(4 * 32, 16);
const CL_FREQ = memory.data(4 * 19, 16);
const LIT_LEN = memory.data(288, 16);
const DIST_LEN = memory.data(32, 16);
const CL_LEN = memory.data(19, 16);
const LIT_CODE = memory.data(2 * 288, 16);
const DIST_CODE = memory.data(2 * 32, 16);
/**
 * The block's codes as writeSymbols reads them: per literal (0–255) and per match length (256 + length − 3) the bits
 * it writes (the code, a length's extra bits behind it) | their count << 24; per distance code + 1 (0: none, all 0)
 * the code | its length << 16 | its length with the extra bits' << 24.
 */
const SYMBOL_ENTRY = memory.data(4 * 512, 16);
const DIST_ENTRY = memory.data(4 * 32, 16);
/** Matches counted per length − 3 (writeBlock adds them into their length codes' counts). */
const LENGTH_FREQ = memory.data(4 * 256, 16);
const CL_CODE = memory.data(2 * 19, 16);
/** Both tables' lengths in a row, and the code-length symbols that encode them (symbol | extra << 8). */
const ALL_LEN = memory.data(320, 16);
const CL_OPS = memory.data(4 * 320, 16);
/** Huffman construction: leaves sorted by frequency, parents, depths (2 × 288 nodes). */
const NODE_FREQ = memory.data(4 * 576, 16);
const NODE_SYMBOL = memory.data(4 * 288, 16);
const NODE_PARENT = memory.data(4 * 576, 16);
const NODE_DEPTH = memory.data(4 * 576, 16);
/** Canonical codes: how many codes each length has, and the next code of each length. */
const COUNT = memory.data(4 * 16, 16);
const NEXT = memory.data(4 * 16, 16);

/** Length − 3 → length code − 257 (0–28), and (distance − 1) → distance code via two ranges. */
const LENGTH_CODE = memory.data(256, 16);
const DIST_CODE_LOW = memory.data(256, 16);
const DIST_CODE_HIGH = memory.data(256, 16);
let tablesReady = false;

function prepareTables(): void {
  for (let code = 0; code < 29; code++) {
    const base = <i32>unchecked(LENGTH_BASE[code]) - 3;
    const span = 1 << unchecked(LENGTH_EXTRA[code]);
    for (let i = 0; i < span && base + i < 256; i++) store<u8>(LENGTH_CODE + <usize>(base + i), <u8>code);
  }
  for (let code = 0; code < 30; code++) {
    const base = <i32>unchecked(DIST_BASE[code]) - 1;
    const span = 1 << unchecked(DIST_EXTRA[code]);
    for (let i = 0; i < span; i++) {
      const d = base + i;
      if (d < 256) store<u8>(DIST_CODE_LOW + <usize>d, <u8>code);
      else store<u8>(DIST_CODE_HIGH + <usize>(d >> 7), <u8>code);
    }
  }
  tablesReady = true;
}

@inline function distanceCode(distance: i32): i32 {
  const d = distance - 1;
  return d < 256 ? <i32>load<u8>(DIST_CODE_LOW + <usize>d) : <i32>load<u8>(DIST_CODE_HIGH + <usize>(d >> 7));
}

// The bit writer (least significant bit first, as deflate packs).
let out: usize = 0;
let bitBuffer: u64 = 0;
let bitCount: i32 = 0;

@inline function putBits(value: u32, count: i32): void {
  bitBuffer |= <u64>value << <u64>bitCount;
  bitCount += count;
  if (bitCount >= 32) {
    store<u32>(out, <u32>bitBuffer);
    out += 4;
    bitBuffer >>= 32;
    bitCount -= 32;
  }
}

/** Writes the bits left in the buffer, padded to a whole byte. */
function alignToByte(): void {
  while (bitCount > 0) {
    store<u8>(out, <u8>bitBuffer);
    out++;
    bitBuffer >>= 8;
    bitCount -= 8;
  }
  bitBuffer = 0;
  bitCount = 0;
}

/**
 * Code lengths (at most `limit` bits) of a Huffman code for `n` symbols with frequencies `freq`
 * (u32 each) into `lengths` (u8 each). A code always has at least two symbols (a single used
 * symbol gets a partner), so every inflater accepts it. When the tree is too deep the
 * frequencies are halved (never below 1 for a used symbol) and the tree built again.
 */
function buildLengths(freq: usize, n: i32, limit: i32, lengths: usize): void {
  memory.fill(lengths, 0, <usize>n);
  let leaves = 0;
  for (let s = 0; s < n; s++)
    if (load<u32>(freq + (<usize>s << 2)) > 0) {
      store<i32>(NODE_SYMBOL + (<usize>leaves << 2), s);
      leaves++;
    }
  if (leaves < 2) {
    const used = leaves === 1 ? load<i32>(NODE_SYMBOL) : 0;
    store<u8>(lengths + <usize>used, 1);
    store<u8>(lengths + <usize>(used === 0 ? 1 : 0), 1);
    return;
  }
  for (let shift: u32 = 0; ; shift++) {
    // Leaves sorted by (scaled) frequency, equal ones in the order they had: the first time (symbols in order, every
    // frequency ≥ 1) a radix sort of frequency << 9 | symbol (insertion took ≈ 3 % of a heatmap's deflate); when
    // built again (rare), by insertion, so that the last build's order stays the order of equal ones.
    if (shift === 0) sortLeaves(freq, leaves);
    else
      for (let i = 0; i < leaves; i++) {
        const s = load<i32>(NODE_SYMBOL + (<usize>i << 2));
        let f = load<u32>(freq + (<usize>s << 2)) >> shift;
        if (f === 0) f = 1;
        let j = i;
        while (j > 0 && load<u32>(NODE_FREQ + (<usize>(j - 1) << 2)) > f) {
          store<u32>(NODE_FREQ + (<usize>j << 2), load<u32>(NODE_FREQ + (<usize>(j - 1) << 2)));
          store<i32>(NODE_SYMBOL + (<usize>j << 2), load<i32>(NODE_SYMBOL + (<usize>(j - 1) << 2)));
          j--;
        }
        store<u32>(NODE_FREQ + (<usize>j << 2), f);
        store<i32>(NODE_SYMBOL + (<usize>j << 2), s);
      }
    // Two queues: leaves 0..leaves-1 in order, internal nodes leaves.. in the order they are made.
    let nextLeaf = 0;
    let nextInner = leaves;
    let made = leaves;
    while (made < 2 * leaves - 1) {
      let pick = 0;
      let sum: u32 = 0;
      for (let k = 0; k < 2; k++) {
        const takeLeaf =
          nextLeaf < leaves &&
          (nextInner >= made ||
            load<u32>(NODE_FREQ + (<usize>nextLeaf << 2)) <= load<u32>(NODE_FREQ + (<usize>nextInner << 2)));
        pick = takeLeaf ? nextLeaf++ : nextInner++;
        sum += load<u32>(NODE_FREQ + (<usize>pick << 2));
        store<i32>(NODE_PARENT + (<usize>pick << 2), made);
      }
      store<u32>(NODE_FREQ + (<usize>made << 2), sum);
      made++;
    }
    // Depths from the root (the last node made) down; parents always come after their children.
    const root = made - 1;
    store<i32>(NODE_DEPTH + (<usize>root << 2), 0);
    let deepest = 0;
    for (let i = root - 1; i >= 0; i--) {
      const depth = load<i32>(NODE_DEPTH + (<usize>load<i32>(NODE_PARENT + (<usize>i << 2)) << 2)) + 1;
      store<i32>(NODE_DEPTH + (<usize>i << 2), depth);
      if (i < leaves && depth > deepest) deepest = depth;
    }
    if (deepest <= limit) {
      for (let i = 0; i < leaves; i++)
        store<u8>(lengths + <usize>load<i32>(NODE_SYMBOL + (<usize>i << 2)), <u8>load<i32>(NODE_DEPTH + (<usize>i << 2)));
      return;
    }
  }
}

/** Radix sort keys of a Huffman build (frequency << 9 | symbol, below 2^25) and the sort's bucket counts. */
const SORT_KEYS = memory.data(4 * 2 * 288, 16);
const SORT_COUNTS = memory.data(4 * 256, 16);

/**
 * NODE_FREQ and NODE_SYMBOL of the `leaves` used symbols (NODE_SYMBOL, in symbol order) sorted by frequency, then
 * symbol: an LSD radix sort of frequency << 9 | symbol, 8 bits per pass (4 passes: frequencies < 2^16).
 */
function sortLeaves(freq: usize, leaves: i32): void {
  let from = SORT_KEYS;
  let to = SORT_KEYS + 4 * 288;
  for (let i = 0; i < leaves; i++) {
    const s = load<i32>(NODE_SYMBOL + (<usize>i << 2));
    store<u32>(from + (<usize>i << 2), (load<u32>(freq + (<usize>s << 2)) << 9) | <u32>s);
  }
  for (let pass: u32 = 0; pass < 32; pass += 8) {
    memory.fill(SORT_COUNTS, 0, 4 * 256);
    for (let i = 0; i < leaves; i++) {
      const slot = SORT_COUNTS + (<usize>((load<u32>(from + (<usize>i << 2)) >> pass) & 255) << 2);
      store<u32>(slot, load<u32>(slot) + 1);
    }
    let sum: u32 = 0;
    for (let b = 0; b < 256; b++) {
      const slot = SORT_COUNTS + (<usize>b << 2);
      const n = load<u32>(slot);
      store<u32>(slot, sum);
      sum += n;
    }
    for (let i = 0; i < leaves; i++) {
      const key = load<u32>(from + (<usize>i << 2));
      const slot = SORT_COUNTS + (<usize>((key >> pass) & 255) << 2);
      const at = load<u32>(slot);
      store<u32>(slot, at + 1);
      store<u32>(to + (<usize>at << 2), key);
    }
    const t = from;
    from = to;
    to = t;
  }
  for (let i = 0; i < leaves; i++) {
    const key = load<u32>(from + (<usize>i << 2));
    store<u32>(NODE_FREQ + (<usize>i << 2), key >> 9);
    store<i32>(NODE_SYMBOL + (<usize>i << 2), <i32>(key & 511));
  }
}

/** Canonical codes (bit-reversed for the LSB-first writer) for `n` lengths. */
function assignCodes(lengths: usize, n: i32, codes: usize): void {
  memory.fill(COUNT, 0, 64);
  for (let s = 0; s < n; s++) {
    const l = <usize>load<u8>(lengths + <usize>s);
    store<i32>(COUNT + (l << 2), load<i32>(COUNT + (l << 2)) + 1);
  }
  store<i32>(COUNT, 0);
  let code = 0;
  for (let bits = 1; bits < 16; bits++) {
    code = (code + load<i32>(COUNT + (<usize>(bits - 1) << 2))) << 1;
    store<i32>(NEXT + (<usize>bits << 2), code);
  }
  for (let s = 0; s < n; s++) {
    const l = <i32>load<u8>(lengths + <usize>s);
    if (l === 0) continue;
    const c = load<i32>(NEXT + (<usize>l << 2));
    store<i32>(NEXT + (<usize>l << 2), c + 1);
    let reversed = 0;
    for (let b = 0; b < l; b++) reversed |= ((c >> b) & 1) << (l - 1 - b);
    store<u16>(codes + (<usize>s << 1), <u16>reversed);
  }
}

/** Appends code-length symbol `symbol` with extra bits `extra` to CL_OPS; returns the new count. */
@inline function clOp(count: i32, symbol: i32, extra: i32): i32 {
  store<u32>(CL_OPS + (<usize>count << 2), <u32>(symbol | (extra << 8)));
  store<u32>(CL_FREQ + (<usize>symbol << 2), load<u32>(CL_FREQ + (<usize>symbol << 2)) + 1);
  return count + 1;
}

/** Run-length codes of the `n` lengths in ALL_LEN (RFC 1951 §3.2.7: 16 repeat, 17/18 zeros); returns how many. */
function runLengths(n: i32): i32 {
  memory.fill(CL_FREQ, 0, 4 * 19);
  let count = 0;
  let i = 0;
  while (i < n) {
    const v = <i32>load<u8>(ALL_LEN + <usize>i);
    let run = 1;
    while (i + run < n && <i32>load<u8>(ALL_LEN + <usize>(i + run)) === v) run++;
    i += run;
    if (v === 0) {
      while (run >= 11) {
        const r = min(run, 138);
        count = clOp(count, 18, r - 11);
        run -= r;
      }
      if (run >= 3) {
        count = clOp(count, 17, run - 3);
        run = 0;
      }
    } else {
      count = clOp(count, v, 0);
      run--;
      while (run >= 3) {
        const r = min(run, 6);
        count = clOp(count, 16, r - 3);
        run -= r;
      }
    }
    for (; run > 0; run--) count = clOp(count, v, 0);
  }
  return count;
}

@inline function clExtraBits(symbol: i32): i32 {
  return symbol === 16 ? 2 : symbol === 17 ? 3 : symbol === 18 ? 7 : 0;
}

/** Writes `length` bytes at `from` as stored blocks (the last one final when `final`). */
function writeStored(from: usize, length: i32, final: bool): void {
  let at = 0;
  do {
    const n = min(STORED_MAX, length - at);
    const last = final && at + n === length;
    putBits(last ? 1 : 0, 3);
    alignToByte();
    store<u16>(out, <u16>n);
    store<u16>(out + 2, <u16>~n);
    memory.copy(out + 4, from + <usize>at, <usize>n);
    out += 4 + <usize>n;
    at += n;
  } while (at < length);
}

/**
 * The block's symbols through its literal/length and distance codes: the hot loop of writeBlock, with the
 * bit writer's state in locals (globals live in memory). Without branches (a literal and a match alternate
 * unpredictably): a literal's distance is a code of length 0. A length's code and extra bits come as one value
 * from SYMBOL_ENTRY (made per block for every length, not shifted per symbol), the distance's behind it; a symbol's
 * bits (at most 15 + 5 + 15 + 13 = 48) join the fewer than 8 left in the buffer, then eight bytes are stored and
 * the position moves on by the whole bytes filled (one store per symbol; 32-bit halves took two), so the bits are
 * the ones putBits would write (the store may run ≤ 8 bytes ahead, into room deflateBound leaves).
 */
function writeSymbols(count: i32): void {
  // Down to fewer than 8 bits first (putBits leaves up to 31).
  while (bitCount >= 8) {
    store<u8>(out, <u8>bitBuffer);
    out++;
    bitBuffer >>= 8;
    bitCount -= 8;
  }
  let o = out;
  let buffer = bitBuffer;
  let n = <u64>bitCount;
  for (let i = 0; i < count; i++) {
    const sym = load<u32>(SYMBOLS + (<usize>i << 2));
    const first = load<u32>(SYMBOL_ENTRY + (<usize>(sym & 511) << 2));
    const dist = load<u32>(DIST_ENTRY + (<usize>((sym >> 14) & 31) << 2));
    const firstBits = <u64>(first >> 24);
    const distance = <u64>(dist & 0xffff) | (<u64>(sym >> 19) << <u64>((dist >> 16) & 0xff));
    buffer |= (<u64>(first & 0xffffff) | (distance << firstBits)) << n;
    n += firstBits + <u64>(dist >> 24);
    store<u64>(o, buffer);
    const whole = n >> 3;
    o += <usize>whole;
    buffer >>= whole << 3;
    n &= 7;
  }
  out = o;
  bitBuffer = buffer;
  bitCount = <i32>n;
}

/** Writes the block of `count` symbols covering input bytes [from, from + length): dynamic Huffman, or stored when smaller. */
function writeBlock(count: i32, from: usize, length: i32, final: bool): void {
  for (let b = 0; b < 256; b += 4) {
    const at = <usize>b << 2;
    const sum = i32x4.add(i32x4.add(v128.load(RUN_FREQ + at), v128.load(RUN_FREQ + at, 1024)), v128.load(RUN_FREQ + at, 2048));
    v128.store(LIT_FREQ + at, sum);
  }
  for (let i = 0; i < 256; i++) {
    const slot = LIT_FREQ + (<usize>(257 + <i32>load<u8>(LENGTH_CODE + <usize>i)) << 2);
    store<u32>(slot, load<u32>(slot) + load<u32>(LENGTH_FREQ + (<usize>i << 2)));
  }
  store<u32>(LIT_FREQ + (256 << 2), 1);
  buildLengths(LIT_FREQ, 286, 15, LIT_LEN);
  buildLengths(DIST_FREQ, 30, 15, DIST_LEN);
  let hlit = 286;
  while (hlit > 257 && load<u8>(LIT_LEN + <usize>(hlit - 1)) === 0) hlit--;
  let hdist = 30;
  while (hdist > 1 && load<u8>(DIST_LEN + <usize>(hdist - 1)) === 0) hdist--;
  memory.copy(ALL_LEN, LIT_LEN, <usize>hlit);
  memory.copy(ALL_LEN + <usize>hlit, DIST_LEN, <usize>hdist);
  const ops = runLengths(hlit + hdist);
  buildLengths(CL_FREQ, 19, 7, CL_LEN);
  let hclen = 19;
  while (hclen > 4 && load<u8>(CL_LEN + <usize>unchecked(CL_ORDER[hclen - 1])) === 0) hclen--;

  // Size of the dynamic block in bits, against the stored one.
  let bits: u64 = 3 + 14 + <u64>hclen * 3;
  for (let s = 0; s < 19; s++)
    bits += <u64>load<u32>(CL_FREQ + (<usize>s << 2)) * <u64>(<i32>load<u8>(CL_LEN + <usize>s) + clExtraBits(s));
  for (let s = 0; s < 286; s++) {
    const extra = s > 264 && s < 285 ? <i32>unchecked(LENGTH_EXTRA[s - 257]) : 0;
    bits += <u64>load<u32>(LIT_FREQ + (<usize>s << 2)) * <u64>(<i32>load<u8>(LIT_LEN + <usize>s) + extra);
  }
  for (let s = 0; s < 30; s++)
    bits +=
      <u64>load<u32>(DIST_FREQ + (<usize>s << 2)) * <u64>(<i32>load<u8>(DIST_LEN + <usize>s) + unchecked(DIST_EXTRA[s]));
  const storedBits = <u64>length * 8 + <u64>(5 * 8) * <u64>(length / STORED_MAX + 1) + 7;
  if (storedBits < bits) {
    writeStored(from, length, final);
    return;
  }

  assignCodes(LIT_LEN, 286, LIT_CODE);
  assignCodes(DIST_LEN, 30, DIST_CODE);
  assignCodes(CL_LEN, 19, CL_CODE);
  for (let i = 0; i < 256; i++)
    store<u32>(SYMBOL_ENTRY + (<usize>i << 2), <u32>load<u16>(LIT_CODE + (<usize>i << 1)) | (<u32>load<u8>(LIT_LEN + <usize>i) << 24));
  for (let i = 0; i < 256; i++) {
    const code = <i32>load<u8>(LENGTH_CODE + <usize>i);
    const bits = <u32>load<u8>(LIT_LEN + <usize>(257 + code));
    const extra = <u32>(i + 3 - <i32>unchecked(LENGTH_BASE[code]));
    const entry = <u32>load<u16>(LIT_CODE + (<usize>(257 + code) << 1)) | (extra << bits);
    store<u32>(SYMBOL_ENTRY + (<usize>(256 + i) << 2), entry | ((bits + <u32>unchecked(LENGTH_EXTRA[code])) << 24));
  }
  for (let i = 0; i < 30; i++) {
    const bits = <u32>load<u8>(DIST_LEN + <usize>i);
    const entry = <u32>load<u16>(DIST_CODE + (<usize>i << 1)) | (bits << 16) | ((bits + <u32>unchecked(DIST_EXTRA[i])) << 24);
    store<u32>(DIST_ENTRY + (<usize>(i + 1) << 2), entry);
  }
  putBits(final ? 5 : 4, 3); // BFINAL, BTYPE = 2 (dynamic)
  putBits(<u32>(hlit - 257), 5);
  putBits(<u32>(hdist - 1), 5);
  putBits(<u32>(hclen - 4), 4);
  for (let i = 0; i < hclen; i++) putBits(load<u8>(CL_LEN + <usize>unchecked(CL_ORDER[i])), 3);
  for (let i = 0; i < ops; i++) {
    const op = load<u32>(CL_OPS + (<usize>i << 2));
    const s = <i32>(op & 0xff);
    putBits(load<u16>(CL_CODE + (<usize>s << 1)), load<u8>(CL_LEN + <usize>s));
    const extra = clExtraBits(s);
    if (extra) putBits(op >> 8, extra);
  }
  writeSymbols(count);
  putBits(load<u16>(LIT_CODE + (256 << 1)), load<u8>(LIT_LEN + 256));
}

@inline function hashAt(p: usize): i32 {
  return <i32>((load<u32>(p) * 2654435761) >> <u32>(32 - HASH_BITS));
}

/** Length of the common prefix of a and b, at most `limit`. */
@inline function matchLength(a: usize, b: usize, limit: i32): i32 {
  // Most matches end within their first 8 bytes (the heatmaps' average is 6–13): that compare outside the loop.
  if (limit >= 8) {
    const x = load<u64>(a) ^ load<u64>(b);
    if (x) return <i32>(ctz(x) >> 3);
  }
  let n = limit >= 8 ? 8 : 0;
  while (n + 8 <= limit) {
    const x = load<u64>(a + <usize>n) ^ load<u64>(b + <usize>n);
    if (x) return n + <i32>(ctz(x) >> 3);
    n += 8;
  }
  while (n < limit && load<u8>(a + <usize>n) === load<u8>(b + <usize>n)) n++;
  return n;
}

/** Most bytes zlibDeflate writes for `length` input bytes. */
export function deflateBound(length: i32): i32 {
  return length + 5 * (length / STORED_MAX + length / (BLOCK_SYMBOLS / 2) + 2) + 2 + 4 + 512;
}

/** Byte weights 16 … 1 of a 16-byte chunk in Adler-32's second sum (low and high halves). */
const WEIGHTS_LOW = i16x8(16, 15, 14, 13, 12, 11, 10, 9);
const WEIGHTS_HIGH = i16x8(8, 7, 6, 5, 4, 3, 2, 1);

@inline function sumLanes(v: v128): u64 {
  return <u64>i32x4.extract_lane(v, 0) + <u64>i32x4.extract_lane(v, 1) + <u64>i32x4.extract_lane(v, 2) + <u64>i32x4.extract_lane(v, 3);
}

/**
 * Adler-32 of `length` bytes (RFC 1950), 16 bytes per step: after a chunk b0 … b15, a grows by their sum
 * and b by 16·a (before the chunk) plus Σ (16 − i)·bi; both are reduced modulo 65 521 every 5 552 bytes
 * as zlib does (the lane sums stay far below 2³²), so the value is the byte-by-byte one.
 */
function adler32(input: usize, length: i32): u32 {
  let a: u64 = 1;
  let b: u64 = 0;
  let i = 0;
  while (i < length) {
    const end = min(length, i + 5552);
    let sums = i32x4.splat(0);
    let before = i32x4.splat(0);
    let weighted = i32x4.splat(0);
    const chunks = (end - i) >> 4;
    for (let c = 0; c < chunks; c++, i += 16) {
      const v = v128.load(input + <usize>i);
      before = i32x4.add(before, sums);
      sums = i32x4.add(sums, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(v)));
      weighted = i32x4.add(weighted, i32x4.dot_i16x8_s(i16x8.extend_low_i8x16_u(v), WEIGHTS_LOW));
      weighted = i32x4.add(weighted, i32x4.dot_i16x8_s(i16x8.extend_high_i8x16_u(v), WEIGHTS_HIGH));
    }
    b += <u64>(chunks << 4) * a + 16 * sumLanes(before) + sumLanes(weighted);
    a += sumLanes(sums);
    for (; i < end; i++) {
      a += load<u8>(input + <usize>i);
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return <u32>((b << 16) | a);
}

/**
 * zlib stream of `length` bytes at `input`, written at `output` (room: deflateBound); returns its length.
 * `pixelBytes` 3: the input is a PNG's filtered RGB rows of `line` bytes each (the filter byte first), matched by
 * deflatePixels; anything else: any data, matched at every byte (deflateBytes; `line` unused).
 */
export function zlibDeflate(input: usize, length: i32, output: usize, line: i32, pixelBytes: i32): i32 {
  if (!tablesReady) prepareTables();
  out = output;
  bitBuffer = 0;
  bitCount = 0;
  store<u8>(out, 0x78);
  store<u8>(out + 1, 0x01);
  out += 2;
  memory.fill(HEAD, 0, 4 << HASH_BITS);
  clearCounts();
  if (pixelBytes === 3) deflatePixels(input, length, line);
  else deflateBytes(input, length);
  if (length === 0) writeBlock(0, input, 0, true);
  alignToByte();
  const adler = adler32(input, length);
  store<u8>(out, <u8>(adler >> 24));
  store<u8>(out + 1, <u8>(adler >> 16));
  store<u8>(out + 2, <u8>(adler >> 8));
  store<u8>(out + 3, <u8>adler);
  return <i32>(out + 4 - output);
}

/** A new block's symbol counts. */
@inline function clearCounts(): void {
  memory.fill(LIT_FREQ, 0, 4 * 288);
  memory.fill(RUN_FREQ, 0, 4 * 256 * LITERAL_RUN_PLACES);
  memory.fill(DIST_FREQ, 0, 4 * 32);
  memory.fill(LENGTH_FREQ, 0, 4 * 256);
}

/** Writes the block when it is full or the input ends (the last block final); returns the symbols left (0 or count). */
@inline function flushBlock(count: i32, input: usize, blockStart: i32, pos: i32, length: i32): i32 {
  if (count < BLOCK_SYMBOLS && pos < length) return count;
  writeBlock(count, input + <usize>blockStart, pos - blockStart, pos === length);
  clearCounts();
  return 0;
}

/** Appends literal `byte` as symbol `count`, counted in RUN_FREQ's table `place`. */
@inline function literal(count: i32, place: i32, byte: u32): void {
  store<u32>(SYMBOLS + (<usize>count << 2), byte);
  const slot = RUN_FREQ + (<usize>place << 10) + (<usize>byte << 2);
  store<u32>(slot, load<u32>(slot) + 1);
}

/**
 * The match loop for any data: at every byte the hash's chain of earlier positions (at most MAX_CHAIN), a short
 * match's every position entered in the chains (as zlib's level 1), else a literal.
 */
function deflateBytes(input: usize, length: i32): void {
  let pos = 0;
  let blockStart = 0;
  let count = 0;
  while (pos < length) {
    let best = 0;
    let bestDistance = 0;
    if (pos + MIN_MATCH <= length) {
      const h = hashAt(input + <usize>pos);
      const limit = min(MAX_MATCH, length - pos);
      let candidate = load<i32>(HEAD + (<usize>h << 2));
      for (let chain = 0; chain < MAX_CHAIN && candidate > 0; chain++) {
        const at = candidate - 1;
        if (pos - at > WINDOW) break;
        const n = matchLength(input + <usize>at, input + <usize>pos, limit);
        if (n > best) {
          best = n;
          bestDistance = pos - at;
          if (n >= NICE_MATCH || n === limit) break;
        }
        candidate = load<i32>(PREV + (<usize>(at & WMASK) << 2));
      }
      store<i32>(PREV + (<usize>(pos & WMASK) << 2), load<i32>(HEAD + (<usize>h << 2)));
      store<i32>(HEAD + (<usize>h << 2), pos + 1);
    }
    if (best >= MIN_MATCH) {
      count = matchSymbol(count, best, bestDistance);
      const end = pos + best;
      if (best <= MAX_INSERT)
        for (let p = pos + 1; p < end && p + MIN_MATCH <= length; p++) {
          const h = hashAt(input + <usize>p);
          store<i32>(PREV + (<usize>(p & WMASK) << 2), load<i32>(HEAD + (<usize>h << 2)));
          store<i32>(HEAD + (<usize>h << 2), p + 1);
        }
      pos = end;
    } else {
      literal(count, 0, <u32>load<u8>(input + <usize>pos));
      count++;
      pos++;
    }
    count = flushBlock(count, input, blockStart, pos, length);
    if (count === 0) blockStart = pos;
  }
}

/** Appends a match's symbol and counts its codes; returns the new count. */
@inline function matchSymbol(count: i32, best: i32, distance: i32): i32 {
  const dc = distanceCode(distance);
  store<u32>(
    SYMBOLS + (<usize>count << 2),
    <u32>(256 + best - 3) | (<u32>(dc + 1) << 14) | (<u32>(distance - <i32>unchecked(DIST_BASE[dc])) << 19),
  );
  const lengthSlot = LENGTH_FREQ + (<usize>(best - 3) << 2);
  store<u32>(lengthSlot, load<u32>(lengthSlot) + 1);
  store<u32>(DIST_FREQ + (<usize>dc << 2), load<u32>(DIST_FREQ + (<usize>dc << 2)) + 1);
  return count + 1;
}

/**
 * The match loop of RGB rows (`line` bytes each, the filter byte first): matches start only at a pixel's first
 * byte or a filter byte, and a step ends where the next may start: after a match, the rest of the pixel it ends
 * inside as literals; without one, the pixel (or the filter byte) as literals. So the loop keeps only its place in
 * the line (2026-11-29, k-png: before, one loop for every pixel size also kept the place in the pixel; this loop and
 * the changes beside it take 15–22 % less time on heatmaps, docs/benchmarks.md "Heatmap PNGs, third round").
 * Candidates: the previous pixel's repeat (distance 3, from 3 bytes: cheaper than its literals, and the heatmaps of
 * small pictures draw every pixel twice), then the hash's one earlier position; no chains are kept (PREV), and no
 * positions inside matches are entered.
 */
function deflatePixels(input: usize, length: i32, line: i32): void {
  let pos = 0;
  let col = 0; // pos's place in its line (0: the filter byte)
  let blockStart = 0;
  let count = 0;
  while (pos < length) {
    const here = input + <usize>pos;
    let best = 0;
    let distance = 0;
    if (pos + MIN_MATCH <= length) {
      const limit = min(MAX_MATCH, length - pos);
      if (col > 3) {
        const n = matchLength(here - 3, here, limit);
        if (n >= 3) {
          best = n;
          distance = 3;
        }
      }
      const slot = HEAD + (<usize>hashAt(here) << 2);
      const candidate = load<i32>(slot);
      store<i32>(slot, pos + 1);
      if (best < limit && candidate > 0 && pos - candidate < WINDOW) {
        const n = matchLength(input + <usize>(candidate - 1), here, limit);
        if (n > best) {
          best = n;
          distance = pos + 1 - candidate;
        }
      }
      if (best >= MIN_MATCH || (best >= 3 && distance === 3)) {
        count = matchSymbol(count, best, distance);
        pos += best;
        // The match's end as a place in its line (lines passed: the rest of its line, then whole lines), and the
        // rest of the pixel it ends inside as literals, in this step.
        col += best;
        while (col >= line) col -= line;
        const within = col === 0 ? 0 : (col - 1) % 3;
        if (within > 0) {
          const rest = min(3 - within, length - pos);
          for (let i = 0; i < rest; i++) literal(count + i, i, <u32>load<u8>(here + <usize>(best + i)));
          pos += rest;
          count += rest;
          col += rest;
          if (col === line) col = 0;
        }
      } else best = 0;
    }
    if (best === 0) {
      // A whole pixel (or the filter byte) as literals.
      const literals = min(col === 0 ? 1 : 3, length - pos);
      for (let i = 0; i < literals; i++) literal(count + i, i, <u32>load<u8>(here + <usize>i));
      pos += literals;
      count += literals;
      col += literals;
      if (col === line) col = 0;
    }
    count = flushBlock(count, input, blockStart, pos, length);
    if (count === 0) blockStart = pos;
  }
}

/**
 * PNG filter "Up" in place (png-encode.ts is the reference): `rows` rows of `stride` bytes, each
 * already behind its filter byte at data + y·(stride + 1) + 1; every row but the first becomes its
 * difference to the row above (bottom up, so each row is read before it changes), filter byte 2.
 */
export function pngFilterUp(data: usize, stride: i32, rows: i32): void {
  const line = <usize>(stride + 1);
  for (let y = rows - 1; y >= 0; y--) {
    const row = data + <usize>y * line;
    store<u8>(row, 2);
    if (y === 0) break;
    const cur = row + 1;
    const up = cur - line;
    let i = 0;
    for (; i + 16 <= stride; i += 16)
      v128.store(cur + <usize>i, i8x16.sub(v128.load(cur + <usize>i), v128.load(up + <usize>i)));
    for (; i < stride; i++) store<u8>(cur + <usize>i, load<u8>(cur + <usize>i) - load<u8>(up + <usize>i));
  }
}

// CRC-32 (the ZIP/PNG polynomial) of bytes in wasm memory, for the chunks of the PNGs the kernels deflate
// (src/scanner/images/png-encode.ts): src/lib/crc32.ts is the JavaScript reference (the same value).
// Sixteen bytes per step ("slicing by 16": sixteen tables of 256 entries, built on the first call; by 8 took
// ≈ 1.4× as long on heatmap PNGs' streams).

const TABLES = memory.data(16 * 256 * 4, 16);
let tablesReady = false;

function prepareTables(): void {
  for (let n = 0; n < 256; n++) {
    let c = <u32>n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    store<u32>(TABLES + (<usize>n << 2), c);
  }
  for (let t = 1; t < 16; t++)
    for (let n = 0; n < 256; n++) {
      const previous = load<u32>(TABLES + (<usize>((t - 1) * 256 + n) << 2));
      store<u32>(TABLES + (<usize>(t * 256 + n) << 2), load<u32>(TABLES + (<usize>(previous & 0xff) << 2)) ^ (previous >>> 8));
    }
  tablesReady = true;
}

@inline function entry(table: i32, index: u32): u32 {
  return load<u32>(TABLES + ((<usize>table << 10) | (<usize>(index & 0xff) << 2)));
}

/** The table entries of a little-endian word's four bytes: the first byte's from table `first`, each next from the one below. */
@inline function wordEntries(first: i32, word: u32): u32 {
  return entry(first, word) ^ entry(first - 1, word >>> 8) ^ entry(first - 2, word >>> 16) ^ entry(first - 3, word >>> 24);
}

/** CRC-32 of `length` bytes at `data`, continuing from `previous` (the CRC of the bytes before; 0 to start). */
export function crc32(data: usize, length: i32, previous: u32): u32 {
  if (!tablesReady) prepareTables();
  let crc = ~previous;
  let i = 0;
  for (; i + 16 <= length; i += 16) {
    const a = load<u32>(data + <usize>i) ^ crc;
    const b = load<u32>(data + <usize>i, 4);
    const c = load<u32>(data + <usize>i, 8);
    const d = load<u32>(data + <usize>i, 12);
    crc = wordEntries(15, a) ^ wordEntries(11, b) ^ wordEntries(7, c) ^ wordEntries(3, d);
  }
  for (; i < length; i++) crc = entry(0, crc ^ <u32>load<u8>(data + <usize>i)) ^ (crc >>> 8);
  return ~crc;
}

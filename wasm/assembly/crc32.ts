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
    crc =
      entry(15, a) ^
      entry(14, a >>> 8) ^
      entry(13, a >>> 16) ^
      entry(12, a >>> 24) ^
      entry(11, b) ^
      entry(10, b >>> 8) ^
      entry(9, b >>> 16) ^
      entry(8, b >>> 24) ^
      entry(7, c) ^
      entry(6, c >>> 8) ^
      entry(5, c >>> 16) ^
      entry(4, c >>> 24) ^
      entry(3, d) ^
      entry(2, d >>> 8) ^
      entry(1, d >>> 16) ^
      entry(0, d >>> 24);
  }
  for (; i < length; i++) crc = entry(0, crc ^ <u32>load<u8>(data + <usize>i)) ^ (crc >>> 8);
  return ~crc;
}

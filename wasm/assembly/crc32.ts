// CRC-32 (the ZIP/PNG polynomial) of bytes in wasm memory, for the chunks of the PNGs the kernels deflate
// (src/scanner/images/png-encode.ts): src/lib/crc32.ts is the JavaScript reference (the same value).
// Eight bytes per step ("slicing by 8": eight tables of 256 entries, built on the first call).

const TABLES = memory.data(8 * 256 * 4, 16);
let tablesReady = false;

function prepareTables(): void {
  for (let n = 0; n < 256; n++) {
    let c = <u32>n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    store<u32>(TABLES + (<usize>n << 2), c);
  }
  for (let t = 1; t < 8; t++)
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
  for (; i + 8 <= length; i += 8) {
    const low = load<u32>(data + <usize>i) ^ crc;
    const high = load<u32>(data + <usize>i, 4);
    crc =
      entry(7, low) ^
      entry(6, low >>> 8) ^
      entry(5, low >>> 16) ^
      entry(4, low >>> 24) ^
      entry(3, high) ^
      entry(2, high >>> 8) ^
      entry(1, high >>> 16) ^
      entry(0, high >>> 24);
  }
  for (; i < length; i++) crc = entry(0, crc ^ <u32>load<u8>(data + <usize>i)) ^ (crc >>> 8);
  return ~crc;
}

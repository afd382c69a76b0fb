// The tables of the deflate format (RFC 1951), shared by deflate.ts and inflate.ts.

/** Length symbols 257–285: base length and extra bits (§3.2.5). */
export const LENGTH_BASE: StaticArray<u16> = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
export const LENGTH_EXTRA: StaticArray<u8> = [
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/** Distance codes 0–29: base distance and extra bits (§3.2.5). */
export const DIST_BASE: StaticArray<u16> = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
export const DIST_EXTRA: StaticArray<u8> = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
/** Order in which the code-length code's lengths are sent (§3.2.7). */
export const CL_ORDER: StaticArray<u8> = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

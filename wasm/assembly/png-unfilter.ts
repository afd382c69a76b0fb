// PNG unfiltering (PNG §9.2) of a band of scanlines: src/scanner/images/png-strip-decoder.ts
// `unfilter` is the JavaScript reference, byte for byte. None and Up run 16 bytes per v128; Sub,
// Average and Paeth depend on the pixel to the left, so with 4 bytes per pixel (8-bit RGBA, 16-bit
// grey + alpha) they run one pixel per i16x8 (its four bytes in four lanes), other pixel sizes
// byte by byte.

/**
 * Unfilters `rows` scanlines in place, each `length` bytes (filter byte + data) at
 * data + (r + 1)·length; the row above the first is at `data` (all zeros before the picture's first
 * row). `step` = bytes per complete pixel (1 below 8 bits). Returns −1, or the index of the first row
 * with an unknown filter type (the rows before it are unfiltered, it and those after are not).
 */
export function pngUnfilterRows(data: usize, length: i32, rows: i32, step: i32): i32 {
  for (let r = 0; r < rows; r++) {
    const up = data + <usize>r * <usize>length;
    const line = up + <usize>length;
    const filter = <i32>load<u8>(line);
    if (filter > 4) return r;
    unfilterRow(filter, line + 1, up + 1, length - 1, step);
  }
  return -1;
}

function unfilterRow(filter: i32, line: usize, up: usize, n: i32, step: i32): void {
  if (filter === 0) return;
  if (filter === 2) {
    let i = 0;
    for (; i + 16 <= n; i += 16)
      v128.store(line + <usize>i, i8x16.add(v128.load(line + <usize>i), v128.load(up + <usize>i)));
    for (; i < n; i++) store<u8>(line + <usize>i, load<u8>(line + <usize>i) + load<u8>(up + <usize>i));
    return;
  }
  if (step === 4) {
    unfilterFourBytePixels(filter, line, up, n);
    return;
  }
  const s = <usize>step;
  if (filter === 1) {
    for (let i = s; i < <usize>n; i++) store<u8>(line + i, load<u8>(line + i) + load<u8>(line + i - s));
  } else if (filter === 3) {
    for (let i: usize = 0; i < s && i < <usize>n; i++) store<u8>(line + i, load<u8>(line + i) + (load<u8>(up + i) >> 1));
    for (let i = s; i < <usize>n; i++)
      store<u8>(line + i, load<u8>(line + i) + <u8>((<u32>load<u8>(line + i - s) + <u32>load<u8>(up + i)) >> 1));
  } else {
    // The first pixel has no left neighbours: the predictor is the byte above.
    for (let i: usize = 0; i < s && i < <usize>n; i++) store<u8>(line + i, load<u8>(line + i) + load<u8>(up + i));
    for (let i = s; i < <usize>n; i++) {
      const a = <i32>load<u8>(line + i - s);
      const b = <i32>load<u8>(up + i);
      const c = <i32>load<u8>(up + i - s);
      const pa = abs(b - c);
      const pb = abs(a - c);
      const pc = abs(a + b - 2 * c);
      store<u8>(line + i, load<u8>(line + i) + <u8>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c));
    }
  }
}

/** Sub, Average or Paeth with 4-byte pixels (n is a multiple of 4): one pixel per i16x8, lanes 0–3. */
function unfilterFourBytePixels(filter: i32, line: usize, up: usize, n: i32): void {
  const mask = i16x8.splat(0xff);
  let a = i16x8.splat(0); // the pixel to the left (unfiltered), zeros before the first
  let c = i16x8.splat(0); // the pixel above that one
  for (let i = 0; i < n; i += 4) {
    const at = line + <usize>i;
    const x = i16x8.extend_low_i8x16_u(v128.load32_zero(at));
    const b = i16x8.extend_low_i8x16_u(v128.load32_zero(up + <usize>i));
    let predictor: v128;
    if (filter === 1) predictor = a;
    else if (filter === 3) predictor = i16x8.shr_u(i16x8.add(a, b), 1);
    else {
      const pa = i16x8.abs(i16x8.sub(b, c));
      const pb = i16x8.abs(i16x8.sub(a, c));
      const pc = i16x8.abs(i16x8.sub(i16x8.add(a, b), i16x8.add(c, c)));
      // pa ≤ pb && pa ≤ pc → a; else pb ≤ pc → b; else c.
      const takeA = v128.and(i16x8.le_s(pa, pb), i16x8.le_s(pa, pc));
      const takeB = i16x8.le_s(pb, pc);
      predictor = v128.bitselect(a, v128.bitselect(b, c, takeB), takeA);
    }
    const value = v128.and(i16x8.add(x, predictor), mask);
    v128.store32_lane(at, i8x16.narrow_i16x8_u(value, value), 0);
    a = value;
    c = b;
  }
}

// Chroma upsampling and colour conversion of decoded JPEG component lines to RGBA: the
// algorithms of src/scanner/images/jpeg-upsample.ts and jpeg-color.ts (the JavaScript references;
// photon's jpeg-decoder constants). Integer arithmetic only, so the bytes are identical.

const FIXED: i32 = 20;
const CR_R: i32 = 1470104; // 1.402 << 20, rounded like the reference
const CB_G: i32 = 360857; // 0.34414
const CR_G: i32 = 748830; // 0.71414
const CB_B: i32 = 1858077; // 1.772
const HALF: i32 = 1 << (FIXED - 1);

/** Upsampling kinds, numbered as the JavaScript wrapper passes them. */
const COPY = 0;
const H2V1 = 1;
const H1V2 = 2;
const H2V2 = 3;
const NEAREST = 4;

/**
 * One output line of `outWidth` bytes at `out` from component lines `near`/`far` of `inWidth` samples (any kind but
 * COPY, whose lines planeRow hands on in place).
 */
function upsampleRow(
  kind: i32,
  near: usize,
  far: usize,
  inWidth: i32,
  hFactor: i32,
  outWidth: i32,
  out: usize,
): void {
  if (kind === H1V2) {
    let i = 0;
    const three = i16x8.splat(3);
    const two = i16x8.splat(2);
    for (; i + 8 <= outWidth; i += 8) {
      const n = v128.load8x8_u(near + <usize>i);
      const f = v128.load8x8_u(far + <usize>i);
      const v = i16x8.shr_u(i16x8.add(i16x8.add(i16x8.mul(n, three), f), two), 2);
      v128.store64_lane(out + <usize>i, i8x16.narrow_i16x8_u(v, v), 0);
    }
    for (; i < outWidth; i++)
      store<u8>(out + <usize>i, (3 * <i32>load<u8>(near + <usize>i) + <i32>load<u8>(far + <usize>i) + 2) >> 2);
  } else if (kind === H2V1) {
    if (inWidth === 1) {
      const v = load<u8>(near);
      store<u8>(out, v);
      store<u8>(out, v, 1);
      return;
    }
    store<u8>(out, load<u8>(near));
    store<u8>(out, (<i32>load<u8>(near) * 3 + <i32>load<u8>(near, 1) + 2) >> 2, 1);
    let i = 1;
    // Eight samples (sixteen output bytes) at a time while sample i + 8, the last one's right neighbour, exists.
    for (; i + 9 <= inWidth; i += 8) {
      const p = near + <usize>i;
      const sample = i16x8.add(i16x8.mul(v128.load8x8_u(p), i16x8.splat(3)), i16x8.splat(2));
      const left = i16x8.shr_u(i16x8.add(sample, v128.load8x8_u(p - 1)), 2);
      const right = i16x8.shr_u(i16x8.add(sample, v128.load8x8_u(p + 1)), 2);
      v128.store(out + <usize>(i * 2), interleave(left, right));
    }
    for (; i < inWidth - 1; i++) {
      const p = near + <usize>i;
      const sample = 3 * <i32>load<u8>(p) + 2;
      store<u8>(out + <usize>(i * 2), (sample + <i32>load<u8>(p - 1)) >> 2);
      store<u8>(out + <usize>(i * 2 + 1), (sample + <i32>load<u8>(p + 1)) >> 2);
    }
    const last = near + <usize>(inWidth - 1);
    store<u8>(out + <usize>((inWidth - 1) * 2), (<i32>load<u8>(last) * 3 + <i32>load<u8>(last - 1) + 2) >> 2);
    store<u8>(out + <usize>((inWidth - 1) * 2 + 1), load<u8>(last));
  } else if (kind === H2V2) {
    if (inWidth === 1) {
      const v = (3 * <i32>load<u8>(near) + <i32>load<u8>(far) + 2) >> 2;
      store<u8>(out, v);
      store<u8>(out, v, 1);
      return;
    }
    store<u8>(out, (3 * <i32>load<u8>(near) + <i32>load<u8>(far) + 2) >> 2);
    let i = 1;
    // Eight column sums t (≤ 1020, so 3 · t + t + 8 fits i16) and their left neighbours at a time: sixteen bytes.
    for (; i + 8 <= inWidth; i += 8) {
      const p = <usize>i;
      const t1 = i16x8.add(i16x8.mul(v128.load8x8_u(near + p), i16x8.splat(3)), v128.load8x8_u(far + p));
      const t0 = i16x8.add(i16x8.mul(v128.load8x8_u(near + p - 1), i16x8.splat(3)), v128.load8x8_u(far + p - 1));
      const before = i16x8.shr_u(i16x8.add(i16x8.add(i16x8.mul(t0, i16x8.splat(3)), t1), i16x8.splat(8)), 4);
      const at = i16x8.shr_u(i16x8.add(i16x8.add(i16x8.mul(t1, i16x8.splat(3)), t0), i16x8.splat(8)), 4);
      v128.store(out + p * 2 - 1, interleave(before, at));
    }
    let t1 = 3 * <i32>load<u8>(near + <usize>(i - 1)) + <i32>load<u8>(far + <usize>(i - 1));
    for (; i < inWidth; i++) {
      const t0 = t1;
      t1 = 3 * <i32>load<u8>(near + <usize>i) + <i32>load<u8>(far + <usize>i);
      store<u8>(out + <usize>(i * 2 - 1), (3 * t0 + t1 + 8) >> 4);
      store<u8>(out + <usize>(i * 2), (3 * t1 + t0 + 8) >> 4);
    }
    store<u8>(out + <usize>(inWidth * 2 - 1), (t1 + 2) >> 2);
  } else if (kind === NEAREST) {
    let o = 0;
    for (let i = 0; i < inWidth && o < outWidth; i++) {
      const v = load<u8>(near + <usize>i);
      for (let k = 0; k < hFactor && o < outWidth; k++, o++) store<u8>(out + <usize>o, v);
    }
  }
}

/** The bytes of two i16x8 vectors of values ≤ 255 alternated: a0, b0, a1, b1, … a7, b7. */
@inline function interleave(a: v128, b: v128): v128 {
  const bytes = i8x16.narrow_i16x8_u(a, b);
  return i8x16.shuffle(bytes, bytes, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
}

/** Four bytes at `p` widened to i32 lanes. */
@inline function load4(p: usize): v128 {
  return i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(p)));
}

@inline function clampByte(v: v128): v128 {
  return i32x4.min_s(i32x4.max_s(v, i32x4.splat(0)), i32x4.splat(255));
}

/** Bytes of one plane's description for emitRgbaRows (ten i32, in this order). */
const PLANE_BYTES = 40;

/**
 * `rows` RGBA rows of `width` pixels from output row `y` on into `out` (width × 4 bytes each): the strip decoder's
 * band loop (src/scanner/images/jpeg-strip-decoder.ts `emitRow`, its reference) in one call instead of one call per
 * line and plane. Each of the `components` planes is described at `planes` + i · PLANE_BYTES by: upsampling kind,
 * address of its band lines (the line above the band, the band's `lines`, the next band's `lines`; `stride` bytes
 * each), stride, lines, the band's first line, the plane's height and width, hFactor, vFactor, and the address of
 * its upsampled output line. The lines a row is made from are jpeg-upsample.ts `sourceLines`', clamped to the plane
 * and to the lines held, as the reference's `componentLine`.
 */
export function emitRgbaRows(components: i32, rgb: bool, planes: usize, y: i32, rows: i32, width: i32, out: usize): void {
  for (let r = 0; r < rows; r++) {
    const first = planeRow(planes, y + r, width);
    const second = components > 1 ? planeRow(planes + PLANE_BYTES, y + r, width) : 0;
    const third = components > 2 ? planeRow(planes + 2 * PLANE_BYTES, y + r, width) : 0;
    toRgba(components, rgb, first, second, third, width, out + <usize>(r * width * 4));
  }
}

/**
 * Address of output row `row`'s line of the plane described at `d`: its upsampled output line, or for a plane at full
 * resolution the held line itself (the reference's copy left out: toRgba reads the same bytes).
 */
function planeRow(d: usize, row: i32, width: i32): usize {
  const kind = load<i32>(d);
  const height = load<i32>(d, 20);
  let near: i32;
  let far: i32;
  if (kind === H1V2 || kind === H2V2) {
    near = row >> 1;
    far = row & 1 ? min(near + 1, height - 1) : max(near - 1, 0);
  } else {
    near = min(row / load<i32>(d, 32), height - 1);
    far = near;
  }
  if (kind === COPY) return heldLine(d, near);
  const line = <usize>load<i32>(d, 36);
  upsampleRow(kind, heldLine(d, near), heldLine(d, far), load<i32>(d, 24), load<i32>(d, 28), width, line);
  return line;
}

/** Address of plane line `r` (clamped to the plane) among the lines held for the band (above, current, following). */
@inline function heldLine(d: usize, r: i32): usize {
  const stride = load<i32>(d, 8);
  const lines = load<i32>(d, 12);
  const line = min(max(r, 0), load<i32>(d, 20) - 1) - load<i32>(d, 16);
  return <usize>load<i32>(d, 4) + <usize>(stride * (1 + min(max(line, -1), 2 * lines - 1)));
}

/**
 * One RGBA row of `width` pixels at `out`: `components` 1 (grey at a), 3 with `rgb` (copy) or
 * 3 YCbCr (JFIF) lines at a, b, c.
 */
function toRgba(components: i32, rgb: bool, a: usize, b: usize, c: usize, width: i32, out: usize): void {
  const alpha = i32x4.splat(0xff000000);
  let x = 0;
  if (components === 1) {
    const spread = i32x4.splat(0x010101);
    for (; x + 4 <= width; x += 4) {
      const g = load4(a + <usize>x);
      v128.store(out + <usize>(x * 4), v128.or(i32x4.mul(g, spread), alpha));
    }
    for (; x < width; x++) store<u32>(out + <usize>(x * 4), <u32>load<u8>(a + <usize>x) * 0x010101 | 0xff000000);
    return;
  }
  if (rgb) {
    for (; x < width; x++) {
      const p = <usize>x;
      store<u32>(
        out + p * 4,
        <u32>load<u8>(a + p) | (<u32>load<u8>(b + p) << 8) | (<u32>load<u8>(c + p) << 16) | 0xff000000,
      );
    }
    return;
  }
  const half = i32x4.splat(HALF);
  const c128 = i32x4.splat(128);
  for (; x + 4 <= width; x += 4) {
    const p = <usize>x;
    const luma = i32x4.add(i32x4.shl(load4(a + p), FIXED), half);
    const cb = i32x4.sub(load4(b + p), c128);
    const cr = i32x4.sub(load4(c + p), c128);
    const r = clampByte(i32x4.shr_s(i32x4.add(luma, i32x4.mul(cr, i32x4.splat(CR_R))), FIXED));
    const g = clampByte(
      i32x4.shr_s(i32x4.sub(i32x4.sub(luma, i32x4.mul(cb, i32x4.splat(CB_G))), i32x4.mul(cr, i32x4.splat(CR_G))), FIXED),
    );
    const bl = clampByte(i32x4.shr_s(i32x4.add(luma, i32x4.mul(cb, i32x4.splat(CB_B))), FIXED));
    v128.store(out + p * 4, v128.or(v128.or(r, i32x4.shl(g, 8)), v128.or(i32x4.shl(bl, 16), alpha)));
  }
  for (; x < width; x++) {
    const p = <usize>x;
    const luma = (<i32>load<u8>(a + p) << FIXED) + HALF;
    const cb = <i32>load<u8>(b + p) - 128;
    const cr = <i32>load<u8>(c + p) - 128;
    const r = clampScalar((luma + CR_R * cr) >> FIXED);
    const g = clampScalar((luma - CB_G * cb - CR_G * cr) >> FIXED);
    const bl = clampScalar((luma + CB_B * cb) >> FIXED);
    store<u32>(out + p * 4, r | (g << 8) | (bl << 16) | 0xff000000);
  }
}

@inline function clampScalar(v: i32): u32 {
  return <u32>(v < 0 ? 0 : min(v, 255));
}

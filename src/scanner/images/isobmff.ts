/** Minimal HEIF/ISOBMFF reading: the image size from the `ispe` boxes (largest = primary image). */

export function isHeif(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const ftyp = String.fromCharCode(...bytes.subarray(4, 8));
  const brand = String.fromCharCode(...bytes.subarray(8, 12));
  return ftyp === "ftyp" && ["heic", "heix", "mif1", "msf1", "heim", "heis", "hevc", "avif"].includes(brand);
}

/** Largest `ispe` (image spatial extents) found in the first 1 MB: the primary or grid image. */
export function heifSize(bytes: Uint8Array): { width: number; height: number } | null {
  const limit = Math.min(bytes.length - 16, 1 << 20);
  let best: { width: number; height: number } | null = null;
  for (let i = 4; i < limit; i++) {
    if (bytes[i] !== 0x69 || bytes[i + 1] !== 0x73 || bytes[i + 2] !== 0x70 || bytes[i + 3] !== 0x65) continue; // "ispe"
    const v = new DataView(bytes.buffer, bytes.byteOffset + i + 4, 12);
    const width = v.getUint32(4);
    const height = v.getUint32(8);
    if (!best || width * height > best.width * best.height) best = { width, height };
  }
  return best;
}

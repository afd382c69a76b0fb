/** RIFF/WebP chunks (https://developers.google.com/speed/webp/docs/riff_container): the EXIF chunk for the metadata reader. */

export function isWebp(bytes: Uint8Array): boolean {
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  return bytes.length >= 16 && ascii(0) === "RIFF" && ascii(8) === "WEBP";
}

/** The payload of the first chunk with this FourCC inside the file, or null. */
export function webpChunk(bytes: Uint8Array, fourcc: string): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = Math.min(bytes.length, 8 + view.getUint32(4, true));
  for (let at = 12; at + 8 <= end; ) {
    const size = view.getUint32(at + 4, true);
    if (at + 8 + size > end) return null;
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) === fourcc) return bytes.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  return null;
}

/**
 * The EXIF chunk as a TIFF stream ("II*\0"/"MM\0*"), as exifr reads it. Some writers put JPEG's
 * "Exif\0\0" before it; that prefix is dropped.
 */
export function webpExif(bytes: Uint8Array): Uint8Array | null {
  const exif = webpChunk(bytes, "EXIF");
  if (!exif) return null;
  const prefixed = exif.length > 6 && String.fromCharCode(...exif.subarray(0, 6)) === "Exif\0\0";
  return prefixed ? exif.subarray(6) : exif;
}

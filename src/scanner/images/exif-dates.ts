/** Parsing of EXIF ("YYYY:MM:DD HH:MM:SS") and XMP (ISO 8601) timestamps as wall-clock UTC dates. */

const EXIF_DATE = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;

/** Wall-clock time of an EXIF/XMP timestamp, read as if it were UTC (EXIF has no zone). */
export function parseExifDate(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const m = EXIF_DATE.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Unix seconds as EXIF text in UTC, the way exiftool's ConvertUnixTime prints them when not asked for
 * local time (its default for the APP12 and CIFF stamps); 0 prints as "0000:00:00 00:00:00" there too.
 * Null for values JavaScript dates or a 4-digit year cannot hold.
 */
export function exifTextFromUnixSeconds(seconds: number): string | null {
  if (!Number.isSafeInteger(seconds) || seconds < 0) return null;
  if (seconds === 0) return "0000:00:00 00:00:00";
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) return null;
  return date.toISOString().slice(0, 19).replace(/-/g, ":").replace("T", " ");
}

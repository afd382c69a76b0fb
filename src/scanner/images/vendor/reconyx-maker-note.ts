/**
 * Capture time from a Reconyx trail camera's maker note, which exifr hands over as raw bytes. Layouts as
 * exiftool's Image/ExifTool/Reconyx.pm (and the MakerNotes.pm conditions) read them, all little-endian:
 * - HyperFire (HC500, HC600, PC900): starts 0x01 0xF1, then firmware 0x0002/0x0003 (or IFD0 Make "RECONYX");
 *   u16[6] at byte 22 = second, minute, hour, month, day, year. Some cameras write these words big-endian.
 * - UltraFire ("RECONYXUF\0"): u8[7] at byte 0x3b = second, minute, hour, day, month, year (low, high byte).
 * - HyperFire 2 ("RECONYXH2\0"): u16[6] at byte 0x3e = second, minute, hour, day, month, year.
 * The numbers are printed as stored, without range checks, as exiftool does: the block is the camera's own
 * clock with no zone, so the text is its wall-clock time. A maker note too short for the field yields null.
 */
import { startsWithAscii, u16 } from "./bounded-bytes";

interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function u16Words(note: Uint8Array, at: number, count: number): number[] | null {
  if (at + 2 * count > note.length) return null;
  return Array.from({ length: count }, (_, i) => u16(note, at + 2 * i, true) as number);
}

function hyperFire(note: Uint8Array, make: string | null): DateParts | null {
  const firmwareTagged = (note[2] === 0x02 || note[2] === 0x03) && note[3] === 0x00;
  if (note[0] !== 0x01 || note[1] !== 0xf1 || !(firmwareTagged || make === "RECONYX")) return null;
  let words = u16Words(note, 22, 6);
  if (!words) return null;
  // exiftool's test for the big-endian variant: the seconds word has only its high byte set.
  if (words[0] & 0xff00 && !(words[0] & 0xff)) words = words.map((w) => ((w >> 8) | (w << 8)) & 0xffff);
  const [second, minute, hour, month, day, year] = words;
  return { year, month, day, hour, minute, second };
}

function ultraFire(note: Uint8Array): DateParts | null {
  if (!startsWithAscii(note, "RECONYXUF\0") || note.length < 0x3b + 7) return null;
  const [second, minute, hour, day, month, yearLow, yearHigh] = note.subarray(0x3b, 0x3b + 7);
  return { year: yearLow + 256 * yearHigh, month, day, hour, minute, second };
}

function hyperFire2(note: Uint8Array): DateParts | null {
  const words = startsWithAscii(note, "RECONYXH2\0") ? u16Words(note, 0x3e, 6) : null;
  if (!words) return null;
  const [second, minute, hour, day, month, year] = words;
  return { year, month, day, hour, minute, second };
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** DateTimeOriginal as exiftool prints it; `make` is IFD0 Make (part of exiftool's HyperFire condition). */
export function reconyxDateTimeOriginal(makerNote: Uint8Array, make: string | null): string | null {
  const d = hyperFire(makerNote, make) ?? ultraFire(makerNote) ?? hyperFire2(makerNote);
  return d
    ? `${pad(d.year, 4)}:${pad(d.month, 2)}:${pad(d.day, 2)} ${pad(d.hour, 2)}:${pad(d.minute, 2)}:${pad(d.second, 2)}`
    : null;
}

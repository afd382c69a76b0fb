/**
 * Capture time from a JPEG APP12 "Picture Info" text block (Olympus, Agfa, Polaroid cameras of the late
 * 1990s): "[section]" headers and CR/LF-separated `tag=value` lines. exiftool (Image/ExifTool/APP12.pm)
 * reads every APP12 that is not Photoshop's "Ducky" this way and names `TimeDate` DateTimeOriginal.
 */
import { exifTextFromUnixSeconds } from "../exif-dates";
import { latin1, startsWithAscii } from "./bounded-bytes";

/**
 * A whole `TimeDate=<digits>` token: not the tail of a longer tag name, and ending where exiftool's
 * tokenizer ends a value (line break, NUL, end, or the next `tag=` / `[section]`). Deliberately not
 * exiftool's lazy tokenizer regex itself: that one backtracks quadratically on long runs without "=",
 * which an uploaded file can contain. Non-numeric TimeDate text (exiftool prints it as it is) is not read.
 */
const TIME_DATE = /(?<![\w#-])TimeDate=(\d{1,15})(?=[ \t\n\v\f\r]*(?:[\n\r\0[]|[\w#-]+=|$))/;

/**
 * DateTimeOriginal as exiftool prints it. The camera stores its clock as Unix seconds without a zone;
 * exiftool converts them with gmtime (ConvertUnixTime without the local flag), so the printed time is the
 * camera's wall clock whatever the machine's zone — and so is ours (UTC conversion).
 */
export function pictureInfoDateTimeOriginal(app12: Uint8Array): string | null {
  if (startsWithAscii(app12, "Ducky")) return null;
  const match = TIME_DATE.exec(latin1(app12));
  return match ? exifTextFromUnixSeconds(Number(match[1])) : null;
}

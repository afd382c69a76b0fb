/**
 * Camera fields that exiftool reads from vendor blocks exifr skips: Canon CIFF (APP0), "Picture Info"
 * (APP12) and Reconyx maker notes. The metadata summary uses them only where exifr found nothing.
 */
import type { JpegStructure } from "../jpeg-markers";
import { readCiffCameraFields } from "./canon-ciff";
import { pictureInfoDateTimeOriginal } from "./picture-info";
import { reconyxDateTimeOriginal } from "./reconyx-maker-note";

/** One value and the block it was read from (shown as evidence, since these blocks are unusual). */
export interface VendorField {
  value: string;
  source: string;
}

/** The first value each vendor block gave, per field. */
export interface VendorCameraFields {
  make?: VendorField;
  model?: VendorField;
  dateTimeOriginal?: VendorField;
}

type Candidate = Partial<Record<keyof VendorCameraFields, string | null>>;

function keepFirst(into: VendorCameraFields, source: string, candidate: Candidate | null): void {
  for (const key of ["make", "model", "dateTimeOriginal"] as const) {
    const value = candidate?.[key]?.trim();
    if (value && !into[key]) into[key] = { value, source };
  }
}

/** `makerNote` is exifr's raw maker-note block; `ifd0Make` takes part in the Reconyx check. */
export function readVendorCameraFields(
  jpeg: JpegStructure | null,
  makerNote: unknown,
  ifd0Make: string | null,
): VendorCameraFields {
  const fields: VendorCameraFields = {};
  for (const segment of jpeg?.segments ?? []) {
    if (segment.marker === 0xe0) keepFirst(fields, "Canon CIFF (APP0)", readCiffCameraFields(segment.data));
    if (segment.marker === 0xec)
      keepFirst(fields, "Picture Info (APP12)", { dateTimeOriginal: pictureInfoDateTimeOriginal(segment.data) });
  }
  if (makerNote instanceof Uint8Array)
    keepFirst(fields, "Reconyx maker note", { dateTimeOriginal: reconyxDateTimeOriginal(makerNote, ifd0Make) });
  return fields;
}

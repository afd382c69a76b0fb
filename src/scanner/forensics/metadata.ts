/**
 * Metadata detector: EXIF/XMP/IPTC/ICC/PNG text read with exifr; findings for editing software,
 * date gaps and dates against the reference date, GPS plausibility, missing camera fields,
 * maker notes, recorded vs real size and the EXIF preview's proportions.
 */
import { finding } from "../finding";
import { parseExifDate } from "../images/exif-dates";
import { editorIn } from "../images/editors";
import { parseJpegStructure } from "../images/jpeg-markers";
import { type ImageMetadata, readImageMetadata, tag } from "../images/metadata-read";
import { MAX_PNG_TEXT_BYTES } from "../images/png-chunks";
import { pngTextTooLargeText } from "./budget-texts";
import type { Analyzer, AnalyzerResult, Finding, ScanContext, ScanFile } from "../types";
import { metadataTexts as T } from "./metadata-texts";

/** Modify time later than capture by more than this means processing after capture. */
export const DATE_GAP_MINUTES = 5;
/** Capture this much before the reference date is Red; less (time zones) is Yellow. */
export const BEFORE_REFERENCE_RED_HOURS = 48;
/** Makes whose cameras always write a maker note. */
const MAKER_NOTE_MAKES = /canon|nikon|sony|olympus|fujifilm|panasonic|pentax|samsung|apple|leica/i;
const THUMBNAIL_ASPECT_TOLERANCE = 0.05;

function editingTools(meta: ImageMetadata): { field: string; value: string }[] {
  const candidates: { field: string; value: string | null }[] = [
    { field: "Software", value: tag(meta, "Software", ["ifd0"]) },
    { field: "CreatorTool", value: tag(meta, "CreatorTool", ["xmp"]) },
    { field: "ProcessingSoftware", value: tag(meta, "ProcessingSoftware", ["ifd0"]) },
    { field: "PNG Software", value: meta.pngText.Software ?? null },
  ];
  // XMP edit history (xmpMM:History) lists every program that saved the file.
  const history = meta.blocks.xmpMM ? JSON.stringify(meta.blocks.xmpMM).match(/"softwareAgent":"([^"]+)"/gi) : null;
  for (const h of history ?? [])
    candidates.push({ field: "XMP history", value: h.split(":").slice(1).join(":").replace(/"/g, "") });
  const found: { field: string; value: string }[] = [];
  for (const c of candidates)
    if (editorIn(c.value) && !found.some((f) => f.value === c.value))
      found.push({ field: c.field, value: c.value as string });
  if (meta.photoshopIrb) found.push({ field: "Photoshop image resources (APP13)", value: "Adobe Photoshop" });
  return found;
}

function dateFindings(meta: ImageMetadata, ctx: ScanContext, out: Finding[]): void {
  // Cameras from before EXIF keep the capture time in a vendor block (Canon CIFF, Olympus APP12, Reconyx).
  const originalRaw =
    tag(meta, "DateTimeOriginal", ["exif"]) ??
    tag(meta, "CreateDate", ["exif", "xmp"]) ??
    meta.vendor.dateTimeOriginal?.value ??
    null;
  const capture = parseExifDate(originalRaw);
  const modify = parseExifDate(tag(meta, "ModifyDate", ["ifd0", "xmp"]));
  if (capture && modify) {
    const minutes = Math.round((modify.getTime() - capture.getTime()) / 60_000);
    if (minutes > DATE_GAP_MINUTES)
      out.push(
        // Green (a note): transfer, geotagging and backup tools re-write files and set ModifyDate; on its own that
        // says nothing about the picture (docs/forensics.md, "Levels"). Editing software is its own finding.
        finding(ctx.language, "META_DATE_GAP", "Green", T.dateGap(minutes), {
          dateTimeOriginal: originalRaw,
          modifyDate: tag(meta, "ModifyDate", ["ifd0", "xmp"]),
          gapMinutes: minutes,
        }),
      );
  }
  if (!capture) return;
  const captureText = capture.toISOString().slice(0, 19).replace("T", " ");
  if (ctx.issueDate && capture < ctx.issueDate) {
    const hours = (ctx.issueDate.getTime() - capture.getTime()) / 3_600_000;
    const reference = ctx.issueDate.toISOString().slice(0, 10);
    out.push(
      finding(
        ctx.language,
        "META_CAPTURE_BEFORE_REFERENCE",
        hours > BEFORE_REFERENCE_RED_HOURS ? "Red" : "Yellow",
        T.beforeReference({ capture: captureText, reference }),
        {
          dateTimeOriginal: originalRaw,
          issueDate: ctx.issueDate.toISOString(),
          hoursBefore: Math.round(hours),
        },
      ),
    );
  }
  if (capture.getTime() > ctx.now.getTime() + 36 * 3_600_000)
    out.push(
      finding(ctx.language, "META_CAPTURE_IN_FUTURE", "Yellow", T.future(captureText), {
        dateTimeOriginal: originalRaw,
        now: ctx.now.toISOString(),
      }),
    );
}

function gpsOf(meta: ImageMetadata): { latitude: number; longitude: number } | null {
  const gps = meta.blocks.gps;
  if (!gps) return null;
  const latitude = gps.latitude;
  const longitude = gps.longitude;
  return typeof latitude === "number" && typeof longitude === "number" ? { latitude, longitude } : null;
}

function gpsFindings(meta: ImageMetadata, ctx: ScanContext, out: Finding[]): void {
  const gps = gpsOf(meta);
  if (!gps) return;
  const invalid =
    !Number.isFinite(gps.latitude) ||
    !Number.isFinite(gps.longitude) ||
    Math.abs(gps.latitude) > 90 ||
    Math.abs(gps.longitude) > 180 ||
    (gps.latitude === 0 && gps.longitude === 0);
  if (invalid)
    out.push(
      finding(ctx.language, "META_GPS_IMPLAUSIBLE", "Yellow", T.gpsInvalid(`${gps.latitude}, ${gps.longitude}`), gps),
    );
}

function cameraFindings(meta: ImageMetadata, ctx: ScanContext, out: Finding[]): void {
  const make = tag(meta, "Make", ["ifd0"]);
  const model = tag(meta, "Model", ["ifd0"]);
  if (!make && !model) return;
  const exif = meta.blocks.exif ?? {};
  const exposure = ["ExposureTime", "FNumber", "ISO", "DateTimeOriginal"].filter((k) => exif[k] !== undefined);
  if (!exposure.length)
    out.push(
      finding(
        ctx.language,
        "META_CAMERA_FIELDS_MISSING",
        "Yellow",
        T.cameraFieldsMissing([make, model].filter(Boolean).join(" ")),
        { make, model },
      ),
    );
  else if (make && MAKER_NOTE_MAKES.test(make) && meta.blocks.makerNote === undefined)
    // Green: older cameras (exif.org Fujifilm/Sony samples) write none either; a hint, not a finding on its own.
    out.push(finding(ctx.language, "META_MAKER_NOTE_MISSING", "Green", T.makerNoteMissing(make), { make, model }));
}

function sizeFindings(meta: ImageMetadata, ctx: ScanContext, out: Finding[]): void {
  const exif = meta.blocks.exif ?? {};
  const rw = exif.ExifImageWidth;
  const rh = exif.ExifImageHeight;
  if (meta.width && meta.height && typeof rw === "number" && typeof rh === "number" && rw > 0 && rh > 0) {
    const same = (rw === meta.width && rh === meta.height) || (rw === meta.height && rh === meta.width);
    if (!same) {
      const sizes = { recorded: `${rw}×${rh}`, actual: `${meta.width}×${meta.height}` };
      // Scaled down as a whole (same shape, fewer pixels): what publishers, messengers and upload tools do — a
      // Green note. Another shape means a part was cut away, which a handler should look at: Yellow.
      const scaledDown = sameShape([rw, rh], [meta.width, meta.height]) && meta.width * meta.height < rw * rh;
      out.push(
        finding(
          ctx.language,
          "META_SIZE_MISMATCH",
          scaledDown ? "Green" : "Yellow",
          scaledDown ? T.sizeScaled(sizes) : T.sizeMismatch(sizes),
          { recorded: [rw, rh], actual: [meta.width, meta.height], scaledDown },
        ),
      );
    }
  }
  const frame = meta.thumbnail ? parseJpegStructure(meta.thumbnail).frame : null;
  if (frame && meta.width && meta.height && frame.width > 0 && frame.height > 0) {
    const main = meta.width / meta.height;
    const thumb = frame.width / frame.height;
    const diff = Math.min(Math.abs(Math.log(main / thumb)), Math.abs(Math.log(main * thumb)));
    // Many cameras pad 4:3/3:2 previews to 160×120; only flag when neither orientation fits.
    const padded = frame.width === 160 && frame.height === 120;
    if (diff > THUMBNAIL_ASPECT_TOLERANCE && !padded)
      out.push(
        finding(
          ctx.language,
          "META_THUMBNAIL_SHAPE",
          "Yellow",
          T.thumbnailShape({ thumb: `${frame.width}×${frame.height}`, actual: `${meta.width}×${meta.height}` }),
          { thumbnail: [frame.width, frame.height], image: [meta.width, meta.height] },
        ),
      );
  }
}

/** Whether two sizes have the same aspect ratio (either orientation) within 1 %, as whole-picture scaling keeps it. */
function sameShape([w1, h1]: [number, number], [w2, h2]: [number, number]): boolean {
  const close = (a: number, b: number) => Math.abs(Math.log(a / b)) < 0.01;
  return close(w1 / h1, w2 / h2) || close(w1 / h1, h2 / w2);
}

/** XMP-style "2013-07-05T03:18:27Z" written the EXIF way ("2013:07:05 03:18:27Z"), as exiftool shows it. */
function exifDateText(value: string | null): string | null {
  return value ? value.replace(/^(\d{4})-(\d{2})-(\d{2})T/, "$1:$2:$3 ") : null;
}

/**
 * Make, Model and DateTimeOriginal as exifr read them, else from a vendor block (Canon CIFF, APP12, Reconyx),
 * plus which vendor block supplied which field. Findings keep to EXIF/XMP: these blocks are summary facts.
 */
function cameraFields(meta: ImageMetadata): {
  make: string | null;
  model: string | null;
  dateTimeOriginal: string | null;
  vendorSources?: Record<string, string>;
} {
  const exifr = {
    make: tag(meta, "Make", ["ifd0"]),
    model: tag(meta, "Model", ["ifd0"]),
    dateTimeOriginal: exifDateText(tag(meta, "DateTimeOriginal", ["exif"])),
  };
  const fields = { ...exifr };
  const vendorSources: Record<string, string> = {};
  for (const key of ["make", "model", "dateTimeOriginal"] as const) {
    const vendor = meta.vendor[key];
    if (exifr[key] === null && vendor) {
      fields[key] = vendor.value;
      vendorSources[key] = vendor.source;
    }
  }
  return Object.keys(vendorSources).length ? { ...fields, vendorSources } : fields;
}

/** The language-neutral summary stored in the file's metadata. */
export function metadataSummary(meta: ImageMetadata): Record<string, unknown> {
  const icc = meta.blocks.icc;
  const camera = cameraFields(meta);
  return {
    make: camera.make,
    model: camera.model,
    // Camera identity for the cross-file analyses (EXIF 2.3 BodySerialNumber, older maker fields).
    serial: tag(meta, "BodySerialNumber", ["exif", "ifd0"]) ?? tag(meta, "SerialNumber", ["exif", "ifd0", "xmp"]),
    software: tag(meta, "Software", ["ifd0"]),
    creatorTool: tag(meta, "CreatorTool", ["xmp"]),
    dateTimeOriginal: camera.dateTimeOriginal,
    modifyDate: tag(meta, "ModifyDate", ["ifd0"]),
    width: meta.width,
    height: meta.height,
    gps: gpsOf(meta),
    iccProfile: typeof icc?.ProfileDescription === "string" ? icc.ProfileDescription : null,
    hasThumbnail: meta.thumbnail !== null,
    pngText: Object.keys(meta.pngText).length
      ? Object.fromEntries(Object.entries(meta.pngText).map(([k, v]) => [k, v.slice(0, 200)]))
      : undefined,
    blocks: Object.keys(meta.blocks),
    vendorSources: camera.vendorSources,
  };
}

export const metadataAnalyzer: Analyzer = {
  id: "metadata",
  // 1.1: a vendor block's make/model (Canon CIFF) counts as camera metadata; vendor capture times (CIFF, APP12, Reconyx) are checked.
  // 1.2: a later ModifyDate and a picture scaled down as a whole are Green notes (issue 17, "Levels").
  // 1.3: the XMP of WebP files ("XMP " chunk) and HEIF files (XMP item) is read.
  version: "1.3.0",
  // A decoded TIFF page or HEIC picture has no metadata of its own: its parent's is checked.
  appliesTo: (file: ScanFile) => ["jpeg", "png", "webp", "heic", "tiff"].includes(file.kind) && !file.decodedFrom,
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const meta = await readImageMetadata(file.bytes);
    const summary = metadataSummary(meta);
    const findings: Finding[] = [];
    if (meta.parseError)
      findings.push(
        finding(ctx.language, "META_UNREADABLE", "-", T.unreadable(meta.parseError), { error: meta.parseError }),
      );
    if (meta.pngTextOversized.length > 0)
      findings.push(
        finding(
          ctx.language,
          "META_PNG_TEXT_TOO_LARGE",
          "-",
          pngTextTooLargeText({ keys: meta.pngTextOversized, limit: MAX_PNG_TEXT_BYTES }),
          { keys: meta.pngTextOversized, maxBytes: MAX_PNG_TEXT_BYTES },
        ),
      );
    const hasCameraData =
      meta.blocks.ifd0 || meta.blocks.exif || meta.blocks.xmp || meta.vendor.make || meta.vendor.model;
    if (!hasCameraData && !meta.parseError) {
      findings.push(finding(ctx.language, "META_NONE", "Yellow", T.none, { blocks: Object.keys(meta.blocks) }));
      dateFindings(meta, ctx, findings); // a vendor block may still hold the capture time
      return { assessed: true, findings, metadata: summary };
    }
    for (const tool of editingTools(meta))
      findings.push(finding(ctx.language, "META_EDITING_SOFTWARE", "Yellow", T.editor(tool.value), tool));
    dateFindings(meta, ctx, findings);
    gpsFindings(meta, ctx, findings);
    cameraFindings(meta, ctx, findings);
    sizeFindings(meta, ctx, findings);
    if (!findings.length) {
      const camera = [summary.make, summary.model].filter(Boolean).join(" ") || "?";
      findings.push(
        finding(
          ctx.language,
          "META_CONSISTENT",
          "Green",
          T.summary({ camera, captured: String(summary.dateTimeOriginal ?? "?") }),
          { make: summary.make, model: summary.model },
        ),
      );
    }
    return { assessed: !meta.parseError || Boolean(hasCameraData), findings, metadata: summary };
  },
};

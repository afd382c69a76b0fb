/**
 * JPEG structure detector: marker walk, quantisation tables (quality, libjpeg-standard vs
 * device-specific), progressive/baseline, restart markers, data after EOI, EXIF preview vs the
 * picture, and double compression from DCT coefficient histograms.
 */
import exifr from "exifr";
import { finding } from "../finding";
import { blockChecks, imageTooLargeText } from "./budget-texts";
import { blockMapProducts, blockMaps } from "../images/block-analysis";
import { doubleCompressionScore } from "../images/double-compression";
import { type JpegStructure, parseJpegStructure } from "../images/jpeg-markers";
import { tableFamily, tableFingerprint } from "../images/quant-tables";
import { comparePictures, cropWithinPreview, decodeSmallLuma } from "../images/thumbnail-compare";
import type { Analyzer, AnalyzerResult, Finding, ScanContext, ScanFile } from "../types";
import { jpegTexts as T } from "./jpeg-structure-texts";

/** Share of irregular histogram bins above which a JPEG counts as double-compressed (see docs/forensics.md). */
export const DOUBLE_COMPRESSION_THRESHOLD = 0.2;
/** Minimum judged histogram bins for the double-compression check. */
export const DOUBLE_COMPRESSION_MIN_BINS = 100;
/** Preview/picture correlation below this is a mismatch. */
export const THUMBNAIL_CORRELATION_THRESHOLD = 0.8;
/** A window of the preview matching the picture at least this well makes a mismatch a crop (35-empty.jpg: 0.98). */
export const THUMBNAIL_CROP_CORRELATION = 0.9;
/** Smallest 1/4-scale preview side (= picture side / 4) worth comparing with the EXIF preview. */
const MIN_COMPARE_PREVIEW_SIDE = 48;
/** Trailing bytes that are only padding (zeros/0xFF) up to this size are ignored. */
const TRAILING_PADDING = 16;

function trailingKind(bytes: Uint8Array, start: number): string {
  const t = bytes.subarray(start, start + 4);
  if (t[0] === 0xff && t[1] === 0xd8) return "another JPEG";
  if (t[0] === 0x50 && t[1] === 0x4b) return "ZIP archive";
  if (t[0] === 0x25 && t[1] === 0x50) return "PDF";
  return "";
}

/** Trailing data is looked through this far for an appended preview (cameras pad before it: 566 bytes seen). */
const TRAILING_PREVIEW_SEARCH = 4096;

/**
 * The JPEG a camera appended after the picture (maker-note or MPF preview), or null: the first
 * "FF D8 FF xx" (xx a marker) in the first bytes of the trailing data. Konica Minolta writes the first
 * byte wrongly (exiftool repairs it the same way), so "?? D8 FF xx" counts and the byte is set to FF.
 */
function appendedJpeg(bytes: Uint8Array, eoiEnd: number): Uint8Array | null {
  const end = Math.min(bytes.length - 4, eoiEnd + TRAILING_PREVIEW_SEARCH);
  for (let p = eoiEnd; p < end; p++)
    if (bytes[p + 1] === 0xd8 && bytes[p + 2] === 0xff && bytes[p + 3] >= 0xc0 && bytes[p + 3] !== 0xff) {
      const jpeg = bytes.slice(p);
      jpeg[0] = 0xff;
      return jpeg;
    }
  return null;
}

/** Correlation of an appended JPEG with the picture at preview size, or null when it cannot be compared. */
async function appendedPreviewCorrelation(file: ScanFile, eoiEnd: number): Promise<number | null> {
  const jpeg = appendedJpeg(file.bytes, eoiEnd);
  const maps = jpeg ? await blockMaps(file.bytes) : null;
  const small = jpeg ? decodeSmallLuma(jpeg) : null;
  if (!maps?.ok || !small) return null;
  const main = maps.maps.preview;
  if (Math.abs(Math.log(main.width / main.height / (small.width / small.height))) > 0.05) return null;
  return comparePictures(main, small).correlation;
}

async function trailingFinding(file: ScanFile, ctx: ScanContext, s: JpegStructure): Promise<Finding | null> {
  if (s.eoiEnd === null || s.trailingBytes <= 0 || isPadding(file.bytes, s.eoiEnd)) return null;
  const what = trailingKind(file.bytes, s.eoiEnd);
  const correlation = await appendedPreviewCorrelation(file, s.eoiEnd);
  const evidence = { trailingBytes: s.trailingBytes, offset: s.eoiEnd, looksLike: what || null };
  // A smaller copy of this very picture is the camera's own preview (Minolta maker notes, MPF): a Green note.
  // Anything else (another picture, an archive, unknown bytes) is Yellow (docs/forensics.md, "Levels").
  if (correlation !== null && correlation >= THUMBNAIL_CORRELATION_THRESHOLD)
    return finding(ctx.language, "JPEG_TRAILING_DATA", "Green", T.trailingPreview(s.trailingBytes), {
      ...evidence,
      looksLike: "preview of this picture",
      correlation: Number(correlation.toFixed(3)),
    });
  return finding(ctx.language, "JPEG_TRAILING_DATA", "Yellow", T.trailing(s.trailingBytes, what), {
    ...evidence,
    ...(correlation !== null && { correlation: Number(correlation.toFixed(3)) }),
  });
}

function isPadding(bytes: Uint8Array, start: number): boolean {
  if (bytes.length - start > TRAILING_PADDING) return false;
  for (let i = start; i < bytes.length; i++)
    if (bytes[i] !== 0 && bytes[i] !== 0xff && bytes[i] !== 0x0a && bytes[i] !== 0x0d) return false;
  return true;
}

function structureSummary(s: JpegStructure): Record<string, unknown> {
  const frame = s.frame;
  const luma = frame ? s.quantTables.get(frame.components[0]?.tq ?? 0) : undefined;
  const chroma = frame?.components[1] ? s.quantTables.get(frame.components[1].tq) : undefined;
  const family = luma ? tableFamily(luma, chroma) : null;
  return {
    width: frame?.width ?? null,
    height: frame?.height ?? null,
    mode: frame ? (frame.progressive ? "progressive" : frame.baseline ? "baseline" : "other") : null,
    sampling: frame?.components.map((c) => `${c.h}x${c.v}`).join(",") ?? null,
    quality: family?.quality ?? null,
    tableFamily: family?.family ?? null,
    lumaTableFingerprint: luma ? tableFingerprint(luma) : null,
    restartInterval: s.restartInterval,
    restartMarkers: s.restartMarkers,
    trailingBytes: s.trailingBytes,
    segments: s.segments.map((x) => `0x${x.marker.toString(16)}`).join(" "),
  };
}

async function thumbnailFinding(file: ScanFile, ctx: ScanContext): Promise<Finding | null> {
  let thumb: Uint8Array | undefined;
  try {
    thumb = await exifr.thumbnail(file.bytes);
  } catch {
    return null;
  }
  if (!thumb) return null;
  const maps = await blockMaps(file.bytes);
  const small = decodeSmallLuma(new Uint8Array(thumb));
  if (!maps.ok || !small) return null;
  const main = maps.maps.preview;
  // Below this the picture is too small to compare with a 160 px preview (GIMP-downscaled samples give 0.6–0.8).
  if (Math.min(main.width, main.height) < MIN_COMPARE_PREVIEW_SIDE) return null;
  // Only compare when the shapes agree (a different shape is reported by the metadata detector).
  if (Math.abs(Math.log(main.width / main.height / (small.width / small.height))) > 0.05) return null;
  const cmp = comparePictures(main, small);
  if (cmp.correlation >= THUMBNAIL_CORRELATION_THRESHOLD) return null;
  // A picture cut out of the camera's frame matches a window of its preview: a crop is Yellow (part of the scene
  // removed), a picture that matches no window was changed in content and is Red (docs/forensics.md, "Levels").
  const crop = cropWithinPreview(main, small);
  if (crop && crop.correlation >= THUMBNAIL_CROP_CORRELATION)
    return finding(ctx.language, "JPEG_THUMBNAIL_CROP", "Yellow", T.thumbnailCrop(Math.round(crop.areaShare * 100)), {
      correlation: Number(cmp.correlation.toFixed(3)),
      cropCorrelation: Number(crop.correlation.toFixed(3)),
      windowInPreview: crop.window,
      previewSize: [small.width, small.height],
      shareOfPreview: Number(crop.areaShare.toFixed(2)),
      threshold: THUMBNAIL_CROP_CORRELATION,
    });
  return finding(ctx.language, "JPEG_THUMBNAIL_MISMATCH", "Red", T.thumbnailMismatch(cmp.correlation), {
    correlation: Number(cmp.correlation.toFixed(3)),
    meanAbsDiff: Number(cmp.meanAbsDiff.toFixed(1)),
    comparedAt: cmp.size,
    threshold: THUMBNAIL_CORRELATION_THRESHOLD,
  });
}

async function doubleCompressionFinding(
  file: ScanFile,
  ctx: ScanContext,
  out: Finding[],
  meta: Record<string, unknown>,
): Promise<void> {
  const maps = await blockMaps(file.bytes);
  if (!maps.ok || !maps.maps.histograms) {
    const text =
      !maps.ok && maps.tooLarge ? imageTooLargeText(blockChecks.doubleCompression, maps.tooLarge) : T.notAssessed();
    out.push(
      finding(
        ctx.language,
        "JPEG_DOUBLE_COMPRESSION_NOT_ASSESSED",
        "-",
        text,
        !maps.ok && maps.tooLarge
          ? { ...maps.tooLarge }
          : { reason: maps.ok ? "not decoded from coefficients" : maps.reason },
      ),
    );
    return;
  }
  const dc = doubleCompressionScore(maps.maps.histograms);
  meta.doubleCompression = { score: Number(dc.score.toFixed(3)), binsJudged: dc.binsJudged };
  if (dc.binsJudged < DOUBLE_COMPRESSION_MIN_BINS) return;
  if (dc.score > DOUBLE_COMPRESSION_THRESHOLD)
    out.push(
      finding(ctx.language, "JPEG_DOUBLE_COMPRESSION", "Green", T.doubleCompression(dc.score), {
        score: Number(dc.score.toFixed(3)),
        binsJudged: dc.binsJudged,
        threshold: DOUBLE_COMPRESSION_THRESHOLD,
        perFrequency: dc.perFrequency.map((v) => Number(v.toFixed(2))),
      }),
    );
}

export const jpegStructureAnalyzer: Analyzer = {
  id: "jpeg-structure",
  // 1.1: an appended preview of the same picture after EOI is a Green note; a picture that is a cut-out of its
  // EXIF preview is JPEG_THUMBNAIL_CROP (Yellow), not a Red mismatch (issue 17, "Levels").
  // 1.2: a whole-picture re-save (JPEG_DOUBLE_COMPRESSION) is a Green note: messengers and upload tools re-save
  // every photo; where a re-saved picture was changed, the double-quantisation and ghost maps show the area.
  version: "1.2.0",
  appliesTo: (file: ScanFile) => file.kind === "jpeg",
  reads: blockMapProducts,
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const s = parseJpegStructure(file.bytes);
    const meta = structureSummary(s);
    const findings: Finding[] = [];
    const maps = await blockMaps(file.bytes);
    const fatal =
      !s.frame ||
      s.problems.some((p) => p.includes("past the end")) ||
      (!maps.ok && /truncated|corrupt|restart/.test(maps.reason));
    if (fatal) {
      const reason = [...s.problems, ...(maps.ok ? [] : [maps.reason])].join("; ");
      return {
        assessed: false,
        findings: [
          finding(ctx.language, "JPEG_DAMAGED", "-", T.damaged(reason), {
            problems: s.problems,
            decode: maps.ok ? null : maps.reason,
          }),
        ],
        metadata: meta,
      };
    }
    findings.push(
      finding(
        ctx.language,
        "JPEG_STRUCTURE",
        "Green",
        T.summary({ quality: Number(meta.quality), family: String(meta.tableFamily), mode: String(meta.mode) }),
        meta,
      ),
    );
    // Standard libjpeg tables alone are no finding: many cameras (Nikon COOLPIX, Sony, Nokia) use them too (docs/forensics.md).
    const trailing = await trailingFinding(file, ctx, s);
    if (trailing) findings.push(trailing);
    const thumb = await thumbnailFinding(file, ctx);
    if (thumb) findings.push(thumb);
    await doubleCompressionFinding(file, ctx, findings, meta);
    return { assessed: true, findings, metadata: meta };
  },
};

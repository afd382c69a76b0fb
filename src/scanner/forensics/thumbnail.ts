import { finding } from "../finding";
import { AreaDownscaler, areaDownscale, singleBand } from "../images/area-downscale";
import { type DecodeProduct, decoded } from "../images/file-decode";
import { type DcPreview, decodeDcPreview } from "../images/jpeg-dc-preview";
import { JpegDataError } from "../images/jpeg-strip-decoder";
import { type DeclaredSize, declaredSize, MAX_PIXEL_DECODE, MAX_STREAMED_PNG_PIXELS } from "../images/pixel-budget";
import { exifOrientation, orientUpright } from "../images/orientation";
import { encodePng } from "../images/png-encode";
import type { RgbaBandSource } from "../images/rgba-band";
import { openPixels, TOO_LARGE } from "../images/streamed-image";
import { hashMetadata } from "../similarity/hash-metadata";
import type { Analyzer, AnalyzerResult, Language, ScanFile } from "../types";

/** Longest edge of a thumbnail in pixels. */
const THUMBNAIL_EDGE = 320;

/** The thumbnail as a product of the shared decode: the same area average as `fromStrips`. */
const thumbnailPixels: DecodeProduct<Thumbnail & { decodedWidth: number; decodedHeight: number }> = {
  id: "thumbnail",
  kind: "pixels",
  sink(width, height) {
    const size = thumbnailSize(width, height);
    const scaler = new AreaDownscaler(width, height, size.width, size.height);
    return {
      add: (band) => scaler.add(band),
      finish: () => ({ rgba: scaler.finish(), ...size, decodedWidth: width, decodedHeight: height }),
    };
  },
};

/**
 * Decodes every JPEG/PNG and attaches a PNG thumbnail (opaque: transparency is dropped). Baseline
 * JPEGs and non-interlaced PNGs are streamed through a strip decoder (a few MB at any size);
 * everything else is decoded by photon up to MAX_PIXEL_DECODE (streamed-image.ts `openPixels`) and area-averaged
 * the same way, and a progressive JPEG above that is shrunk from its 1/8-scale DC preview (jpeg-dc-preview.ts). A
 * file that passes the structural check but still cannot be decoded is reported as `-`.
 */
export const thumbnailAnalyzer: Analyzer = {
  id: "thumbnail",
  // 1.7: WebPs and interlaced PNGs area-averaged from photon's bitmap like every other format (1.6: photon's resize).
  // 1.6: a TIFF page's or HEIC's picture too, by its own orientation (ScanFile.orientation; 1.5: as stored).
  // 1.5: the thumbnail is shown upright by the JPEG's EXIF orientation (1.4: as stored).
  // 1.4: the thumbnail's pixels give the perceptual hashes for reverse search (metadata.perceptualHash).
  // 1.3: non-interlaced PNGs are streamed and area-averaged at any size (1.2: photon, up to 6 MP).
  // 1.2: progressive JPEGs over MAX_PIXEL_DECODE get a thumbnail from the DC preview (1.1: none).
  // 1.1: baseline JPEGs are area-averaged while streaming (1.0: photon's triangle resize).
  version: "1.7.0",
  // An image that cannot be decoded cannot be judged by any pixel detector after this one.
  gate: true,
  appliesTo: (file) => file.kind === "jpeg" || file.kind === "png" || file.kind === "webp",
  reads: [thumbnailPixels],
  async analyze(file, ctx) {
    // The file's one shared decode (built here when no other detector planned it); null: not streamed or damaged.
    const shared = await decoded(file.bytes, thumbnailPixels);
    if (shared) return withThumbnail(file, shared.decodedWidth, shared.decodedHeight, shared);
    const opened = openPixels(file.bytes);
    if (typeof opened !== "string") return fromStrips(file, opened.source, ctx.language);
    const size = declaredSize(file.bytes);
    if (opened !== TOO_LARGE || !size) return { assessed: false, findings: [undecodable(ctx.language)] };
    const previewed = file.kind === "jpeg" ? fromDcPreview(file, size, ctx.language) : null;
    // Too large for photon is not damage: later detectors decide for themselves, so the gate stays open.
    return previewed ?? { assessed: true, findings: [tooLarge(ctx.language, size)] };
  },
};

function thumbnailSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, THUMBNAIL_EDGE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Where the thumbnail's pixels came from when it was not a full decode. */
type ThumbnailSource = "dc-preview";

/** The thumbnail's pixels: RGBA, `width` × `height`. */
interface Thumbnail {
  rgba: Uint8Array;
  width: number;
  height: number;
}

function withThumbnail(
  file: ScanFile,
  width: number,
  height: number,
  thumb: Thumbnail,
  source?: ThumbnailSource,
): AnalyzerResult {
  // Shown upright (EXIF orientation, or a TIFF page's/HEIC's own); the hashes stay on the stored pixels
  // (reverse search tries every turn).
  const shown = orientUpright(thumb, file.orientation ?? exifOrientation(file.bytes));
  const png = encodePng(shown.rgba, shown.width, shown.height);
  return {
    assessed: true,
    findings: [],
    metadata: {
      decodedWidth: width,
      decodedHeight: height,
      ...(source && { thumbnailSource: source }),
      perceptualHash: hashMetadata(thumb.rgba, thumb.width, thumb.height),
    },
    attachments: [
      {
        category: "thumbnails",
        name: `${file.name.replace(/[\\/#]/g, "_")}.thumb.png`,
        contentType: "image/png",
        bytes: png,
      },
    ],
  };
}

function fromStrips(file: ScanFile, decoder: RgbaBandSource, language: Language): AnalyzerResult {
  const size = thumbnailSize(decoder.width, decoder.height);
  let rgba: Uint8Array;
  try {
    rgba = areaDownscale(decoder, size.width, size.height);
  } catch {
    return { assessed: false, findings: [undecodable(language)] };
  }
  return withThumbnail(file, decoder.width, decoder.height, { rgba, ...size });
}

/** The thumbnail of a large progressive JPEG from its DC preview; null when the file has no such preview. */
function fromDcPreview(file: ScanFile, size: DeclaredSize, language: Language): AnalyzerResult | null {
  let preview: DcPreview | string;
  try {
    preview = decodeDcPreview(file.bytes);
  } catch (error) {
    if (error instanceof JpegDataError) return { assessed: false, findings: [undecodable(language)] };
    throw error;
  }
  if (typeof preview === "string") return null;
  // Sized from the picture's own aspect ratio; never larger than the preview (ceil(w/8) × ceil(h/8)).
  const target = thumbnailSize(size.width, size.height);
  const width = Math.min(target.width, preview.width);
  const height = Math.min(target.height, preview.height);
  return withThumbnail(
    file,
    size.width,
    size.height,
    { rgba: areaDownscale(singleBand(preview), width, height), width, height },
    "dc-preview",
  );
}

function undecodable(language: Language) {
  return finding(language, "IMAGE_UNDECODABLE", "-", {
    de: {
      title: "Bild nicht dekodierbar",
      explanation:
        "Die Bilddaten lassen sich nicht dekodieren (beschädigt oder nicht unterstützte Variante). Das Bild wurde nicht geprüft.",
    },
    en: {
      title: "Image cannot be decoded",
      explanation: "The image data cannot be decoded (damaged or an unsupported variant). The image was not checked.",
    },
    pl: {
      title: "Nie można zdekodować obrazu",
      explanation:
        "Nie można zdekodować danych obrazu (uszkodzone lub nieobsługiwany wariant). Obraz nie został sprawdzony.",
    },
  });
}

function tooLarge(language: Language, size: { width: number; height: number }) {
  const megapixels = Math.round((size.width * size.height) / 1e5) / 10;
  const limit = MAX_PIXEL_DECODE / 1e6;
  const streamLimit = MAX_STREAMED_PNG_PIXELS / 1e6;
  return finding(
    language,
    "THUMBNAIL_TOO_LARGE",
    "-",
    {
      de: {
        title: "Keine Vorschau: Bild zu groß zum Dekodieren",
        explanation: `Das Bild (${size.width} × ${size.height}, ${megapixels} MP) lässt sich nicht streifenweise dekodieren (das geht nur bei Baseline-JPEGs und PNGs ohne Interlacing bis ${streamLimit} MP) und ist größer als die ${limit} MP, die im Speicherbudget vollständig dekodiert werden können. Es gibt keine Vorschau; die übrigen Prüfungen laufen und melden selbst, ob sie das Bild prüfen konnten.`,
      },
      en: {
        title: "No thumbnail: image too large to decode",
        explanation: `The image (${size.width} × ${size.height}, ${megapixels} MP) cannot be decoded in strips (only baseline JPEGs and non-interlaced PNGs up to ${streamLimit} MP can) and is larger than the ${limit} MP that can be fully decoded within the memory budget. There is no thumbnail; the other checks still run and report whether they could examine the image.`,
      },
      pl: {
        title: "Brak miniatury: obraz zbyt duży do zdekodowania",
        explanation: `Obraz (${size.width} × ${size.height}, ${megapixels} MP) nie może być dekodowany pasami (tylko JPEG-i typu baseline i PNG bez przeplotu do ${streamLimit} MP) i jest większy niż ${limit} MP, które można w pełni zdekodować w budżecie pamięci. Nie ma miniatury; pozostałe kontrole nadal działają i same informują, czy mogły zbadać obraz.`,
      },
    },
    { reason: "too-large", width: size.width, height: size.height, maxPixels: MAX_PIXEL_DECODE },
  );
}

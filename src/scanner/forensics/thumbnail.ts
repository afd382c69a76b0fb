import { PhotonImage, resize, SamplingFilter } from "@cf-wasm/photon";
import { finding } from "../finding";
import type { Analyzer, Language } from "../types";

/** Longest edge of a thumbnail in pixels. */
const THUMBNAIL_EDGE = 320;

/**
 * Decodes every JPEG/PNG and attaches a PNG thumbnail. A file that passes the structural check
 * but still cannot be decoded is reported as `-`. Both wasm images are freed on every path.
 */
export const thumbnailAnalyzer: Analyzer = {
  id: "thumbnail",
  version: "1.0.0",
  // An image that cannot be decoded cannot be judged by any pixel detector after this one.
  gate: true,
  appliesTo: (file) => file.kind === "jpeg" || file.kind === "png",
  async analyze(file, ctx) {
    let image: PhotonImage;
    try {
      image = PhotonImage.new_from_byteslice(file.bytes);
    } catch {
      return { assessed: false, findings: [undecodable(ctx.language)] };
    }
    try {
      const width = image.get_width();
      const height = image.get_height();
      const scale = Math.min(1, THUMBNAIL_EDGE / Math.max(width, height));
      const png = scaledPng(image, Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
      return {
        assessed: true,
        findings: [],
        metadata: { decodedWidth: width, decodedHeight: height },
        attachments: [{ category: "thumbnails", name: `${file.name.replace(/[\\/#]/g, "_")}.thumb.png`, contentType: "image/png", bytes: png }],
      };
    } finally {
      image.free();
    }
  },
};

function scaledPng(image: PhotonImage, width: number, height: number): Uint8Array {
  if (width === image.get_width() && height === image.get_height()) return image.get_bytes();
  const small = resize(image, width, height, SamplingFilter.Triangle);
  try {
    return small.get_bytes();
  } finally {
    small.free();
  }
}

function undecodable(language: Language) {
  return finding(language, "image-undecodable", "-", {
    de: { title: "Bild nicht dekodierbar", explanation: "Die Bilddaten lassen sich nicht dekodieren (beschädigt oder nicht unterstützte Variante). Das Bild wurde nicht geprüft." },
    en: { title: "Image cannot be decoded", explanation: "The image data cannot be decoded (damaged or an unsupported variant). The image was not checked." },
    pl: { title: "Nie można zdekodować obrazu", explanation: "Nie można zdekodować danych obrazu (uszkodzone lub nieobsługiwany wariant). Obraz nie został sprawdzony." },
  });
}

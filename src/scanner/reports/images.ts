/**
 * Pictures in the reports (thumbnails, heatmaps): the PNG attachment is streamed through our PNG
 * strip decoder, area-downscaled to at most `maxSide` pixels, encoded as JPEG by photon and written
 * straight into the PDF as a DCTDecode image XObject. A 1024 px heatmap costs ≈ 0.5 MB of RGBA for a
 * moment and ≈ 15–30 KB in the document (Flate of the same pixels was ≈ 100 KB: a 70-file report would
 * not fit the inline cap), and pdf-lib's own PNG path (which keeps every decoded picture until `save`)
 * is never used. photon's wasm heap grows only to the largest picture handled (≤ 0.6 MB here).
 */
import { PhotonImage } from "@cf-wasm/photon";
import {
  concatTransformationMatrix,
  drawObject,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
} from "pdf-lib";
import { areaDownscale } from "../images/area-downscale";
import { PngStripDecoder } from "../images/png-strip-decoder";

export interface ReportImage {
  ref: PDFRef;
  width: number;
  height: number;
}

/** JPEG quality of the report's pictures: heatmap colours and thumbnails stay clear at a fraction of the size. */
const JPEG_QUALITY = 72;

/** The PNG as an image of the document, at most `maxSide` px on its longer side; null when it cannot be read. */
export function embedPngScaled(doc: PDFDocument, png: Uint8Array, maxSide: number): ReportImage | null {
  const decoder = PngStripDecoder.open(png);
  if (typeof decoder === "string") return null;
  const scale = Math.min(1, maxSide / Math.max(decoder.width, decoder.height));
  const width = Math.max(1, Math.round(decoder.width * scale));
  const height = Math.max(1, Math.round(decoder.height * scale));
  let rgba: Uint8Array;
  try {
    rgba = areaDownscale(decoder, width, height);
  } catch {
    return null;
  }
  const image = new PhotonImage(rgba, width, height);
  let jpeg: Uint8Array;
  try {
    jpeg = image.get_bytes_jpeg(JPEG_QUALITY);
  } finally {
    image.free();
  }
  const stream = doc.context.stream(jpeg, {
    Type: "XObject",
    Subtype: "Image",
    Width: width,
    Height: height,
    ColorSpace: "DeviceRGB",
    BitsPerComponent: 8,
    Filter: "DCTDecode",
  });
  return { ref: doc.context.register(stream), width, height };
}

/** Draws the image with its lower left corner at (x, y), `width` × `height` points. */
export function drawReportImage(
  page: PDFPage,
  image: ReportImage,
  box: { x: number; y: number; width: number; height: number },
): void {
  const name = page.node.newXObject("Im", image.ref);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(box.width, 0, 0, box.height, box.x, box.y),
    drawObject(name),
    popGraphicsState(),
  );
}

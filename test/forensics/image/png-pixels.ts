// A PNG's pixels as RGBA, decoded by the strip decoder (tests that compare a heatmap's PNG with reference pixels).
import { PngStripDecoder } from "../../../src/scanner/images/png-strip-decoder";

export function pngRgba(png: Uint8Array): Uint8Array {
  const decoder = PngStripDecoder.open(png);
  if (typeof decoder === "string") throw new Error(decoder);
  const rgba = new Uint8Array(decoder.width * decoder.height * 4);
  for (let band = decoder.next(); band; band = decoder.next()) rgba.set(band.rgba, band.y * decoder.width * 4);
  return rgba;
}

import { zipSync, type Zippable } from "fflate";
import canonJpeg from "../../../shared/data/exif-samples/jpg/Canon_40D.jpg?inline";
import nikonJpeg from "../../../shared/data/exif-samples/jpg/Nikon_D70.jpg?inline";
import corruptJpeg from "../../../shared/data/exif-samples/jpg/corrupted.jpg?inline";
import minimalPdf from "../../../shared/data/pdf/qpdf/minimal.pdf?inline";

/** Real files from shared/data (see its MANIFEST.md), imported as data URLs by Vite. */
export const samples = {
  canon: fromDataUrl(canonJpeg),
  nikon: fromDataUrl(nikonJpeg),
  corruptJpeg: fromDataUrl(corruptJpeg),
  pdf: fromDataUrl(minimalPdf),
  /** An ISO-BMFF `ftyp` box with brand heic, as every HEIC file starts (Vite cannot inline .HEIC). */
  heic: new Uint8Array([
    0,
    0,
    0,
    24,
    ...new TextEncoder().encode("ftypheic"),
    0,
    0,
    0,
    0,
    ...new TextEncoder().encode("mif1heic"),
    1,
    2,
    3,
  ]),
};

function fromDataUrl(url: string): Uint8Array {
  const base64 = url.slice(url.indexOf(",") + 1);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** A ZIP of the given files (deflated unless level 0). */
export function zip(files: Record<string, Uint8Array>, level: 0 | 6 = 6): Uint8Array {
  const entries: Zippable = {};
  for (const [name, bytes] of Object.entries(files)) entries[name] = [bytes, { level }];
  return zipSync(entries);
}

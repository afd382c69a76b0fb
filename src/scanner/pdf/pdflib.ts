import { decodePDFRawStream, PDFContext, PDFDocument, PDFRawStream, ParseSpeeds } from "pdf-lib";
import { pdfLimits } from "./limits";
import { openWithinBudget } from "./stream-budget";

const documents = new WeakMap<Uint8Array, Promise<PDFDocument>>();

/**
 * Opens bytes with pdf-lib, once per bytes object: encrypted files still load (their names and
 * structure are readable, strings are not), metadata is left as it is, broken objects are kept
 * as invalid objects instead of aborting. A file over its unpack budget (stream-budget.ts) is
 * refused with PdfBudgetError before pdf-lib reads it (pdf-lib inflates object streams while loading).
 */
export function openPdfLib(bytes: Uint8Array): Promise<PDFDocument> {
  return openWithinBudget(documents, bytes, () =>
    PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
      parseSpeed: ParseSpeeds.Fastest,
    }),
  );
}

/** Drops the cached pdf-lib document of these bytes (an earlier revision that is no longer needed). */
export function forgetPdfLib(bytes: Uint8Array): void {
  documents.delete(bytes);
}

/**
 * pdf-lib's stream decoders (Flate, LZW, ASCII85, ASCIIHex, RunLength) share one base class whose
 * `ensureBuffer` grows the output by doubling with no limit. It is not exported, so it is reached
 * through a decoder instance and given a budget: asking for more than `maxStreamBytes` throws
 * before the buffer is allocated. This bounds every pdf-lib decode, including the LZW streams that
 * stream-budget.ts does not inflate (`decodePDFRawStream(…).decode()` in images.ts and changes.ts,
 * object streams while loading).
 */
function capPdfLibDecoders(limit: number): void {
  let probe: object;
  try {
    probe = decodePDFRawStream(
      PDFRawStream.of(PDFContext.create().obj({ Filter: "ASCIIHexDecode" }), new Uint8Array(0)),
    ) as object;
  } catch {
    return; // another pdf-lib version: stream-budget.ts still guards Flate streams
  }
  const base = Object.getPrototypeOf(Object.getPrototypeOf(probe)) as {
    ensureBuffer?: (requested: number) => Uint8Array;
    __budget?: number;
  };
  if (typeof base.ensureBuffer !== "function" || base.__budget !== undefined) return;
  const ensureBuffer = base.ensureBuffer;
  base.__budget = limit;
  base.ensureBuffer = function (this: unknown, requested: number) {
    if (requested > limit) throw new RangeError(`a PDF stream decodes to more than ${limit} bytes`);
    return ensureBuffer.call(this, requested);
  };
}

capPdfLibDecoders(pdfLimits.maxStreamBytes);

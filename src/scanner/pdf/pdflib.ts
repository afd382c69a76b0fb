import { PDFDocument, ParseSpeeds } from "pdf-lib";

const documents = new WeakMap<Uint8Array, Promise<PDFDocument>>();

/**
 * Opens bytes with pdf-lib, once per bytes object: encrypted files still load (their names and
 * structure are readable, strings are not), metadata is left as it is, broken objects are kept
 * as invalid objects instead of aborting.
 */
export function openPdfLib(bytes: Uint8Array): Promise<PDFDocument> {
  let doc = documents.get(bytes);
  if (!doc) {
    doc = PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false, parseSpeed: ParseSpeeds.Fastest });
    documents.set(bytes, doc);
  }
  return doc;
}

/** Drops the cached pdf-lib document of these bytes (an earlier revision that is no longer needed). */
export function forgetPdfLib(bytes: Uint8Array): void {
  documents.delete(bytes);
}

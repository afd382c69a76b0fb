/**
 * Hard caps for everything the PDF code reads, in one place. A hostile file (huge object
 * counts, xref loops, endless content streams) hits one of these and gets a finding instead
 * of exhausting the isolate's 128 MB or its CPU time.
 */
export const pdfLimits = {
  /** Files larger than this are not parsed at all. */
  maxFileBytes: 50 * 1024 * 1024,
  /** Xref sections followed through /Prev before we give up (loops are also detected). */
  maxXrefSections: 256,
  /** Bytes searched forward from an xref offset for `trailer`/`startxref`/`%%EOF`. */
  maxXrefSectionBytes: 8 * 1024 * 1024,
  /** Revisions analysed (diffed, extracted) per file; more are counted but not extracted. */
  maxRevisions: 32,
  /** Sum of the sizes of the earlier versions attached (they are views, but the pipeline stores them). */
  maxVersionBytes: 100 * 1024 * 1024,
  /** Sum of the sizes of the revisions opened for diffs/signature checks (pdf.js copies what it opens). */
  maxDiffBytes: 64 * 1024 * 1024,
  /** Pages inspected for text, fonts, images and diffs. */
  maxPages: 50,
  /** Images extracted per file. */
  maxImages: 40,
  /** Pixels of one image pdf.js may decode (larger ones are skipped; embedded JPEGs are taken raw at any size). */
  maxImagePixels: 12_000_000,
  /** Decoded bytes of one page's content streams handed to pdf.js (invoices use < 100 KB). */
  maxContentBytes: 1024 * 1024,
  /**
   * Bytes one non-image stream (content, font, metadata, form, object stream) may unpack to; a file
   * with a larger one is not opened by pdf.js or pdf-lib (stream-budget.ts). Fonts and invoices stay
   * far below (a CJK font ≈ 10 MB).
   */
  maxStreamBytes: 16 * 1024 * 1024,
  /** Bytes all Flate streams of one file may unpack to together (bounds the check's own CPU time too). */
  maxInflatedBytes: 256 * 1024 * 1024,
  /** Content-stream operators interpreted per page. */
  maxOperators: 200_000,
  /** Nesting depth of arrays/dictionaries in the small object parser. */
  maxNesting: 64,
  /** Text items compared per page in a revision diff. */
  maxTextItemsPerPage: 5_000,
  /** Indirect objects scanned for active content, fonts and signatures. */
  maxObjectsScanned: 200_000,
  /** Signature dictionaries examined per file. */
  maxSignatures: 64,
  /** Objects classified per incremental update. */
  maxChangedObjects: 2_000,
  /** Time for reading one file's pages (or text) with pdf.js. */
  pdfJsTimeoutMs: 20_000,
} as const;

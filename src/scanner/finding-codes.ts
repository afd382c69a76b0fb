/**
 * Every finding code the scanner can emit (per file in `findings`, per request in
 * `cross_file_analyses.findings`): the one list that `Finding.code` is typed from, that /openapi.json
 * and docs/forensics.md show, and that integrations key on. Codes are stable UPPER_SNAKE identifiers
 * (`AREA_WHAT`); the texts that go with them are in the request's language, the code never changes.
 */
import type { SuspicionLevel } from "./types";

/** What a code means and which levels it can take. */
export interface FindingCodeInfo {
  /** The analyzer id (or pipeline stage) that emits it. */
  detector: string;
  levels: readonly SuspicionLevel[];
  /** One line, English. */
  meaning: string;
}

const NOT_ASSESSED = ["-"] as const;
const GREEN = ["Green"] as const;
const YELLOW = ["Yellow"] as const;
const RED = ["Red"] as const;
const YELLOW_OR_RED = ["Yellow", "Red"] as const;

export const findingCodes = {
  // Pipeline: the archive entry, the unit of work, a failing analyzer.
  ZIP_ENTRY_CORRUPT: {
    detector: "intake",
    levels: NOT_ASSESSED,
    meaning: "The file could not be unpacked from the archive (damaged entry).",
  },
  ZIP_ENTRY_UNSUPPORTED_COMPRESSION: {
    detector: "intake",
    levels: NOT_ASSESSED,
    meaning: "The archive entry uses a compression method other than stored or deflate.",
  },
  ANALYZER_FAILED: {
    detector: "pipeline",
    levels: NOT_ASSESSED,
    meaning: "One detector failed on this file; the other detectors still count.",
  },
  FILE_ANALYSIS_TIMEOUT: {
    detector: "execution",
    levels: NOT_ASSESSED,
    meaning: "The file's analysis took longer than its time budget and was stopped.",
  },
  FILE_ANALYSIS_FAILED: {
    detector: "execution",
    levels: NOT_ASSESSED,
    meaning: "The file's analysis failed on every attempt.",
  },
  REGION_CORROBORATED: {
    detector: "corroboration",
    levels: RED,
    meaning: "Two independent pixel detectors flag overlapping regions.",
  },

  // File type and container (the gatekeeper).
  FILE_TYPE_UNSUPPORTED: {
    detector: "file-type",
    levels: NOT_ASSESSED,
    meaning: "The content is not a picture or PDF the service can check.",
  },
  FILE_TRUNCATED: { detector: "file-type", levels: NOT_ASSESSED, meaning: "The file is cut off (its end is missing)." },
  FILE_MALFORMED: { detector: "file-type", levels: NOT_ASSESSED, meaning: "The file's structure is damaged." },
  FILE_EXTENSION_MISMATCH: {
    detector: "file-type",
    levels: YELLOW,
    meaning: "The file name's extension does not match its content.",
  },
  PDF_UNPACK_BUDGET_EXCEEDED: {
    detector: "file-type, pdf-structure",
    levels: NOT_ASSESSED,
    meaning: "A compressed part of the PDF unpacks beyond the memory budget; the PDF was not opened.",
  },

  // TIFF pages and HEIC images decoded to PNG sub-files for the pixel detectors.
  IMAGE_FORMAT_DECODED: {
    detector: "image-pages",
    levels: GREEN,
    meaning:
      "Every page of the TIFF (the HEIC's primary image) was decoded and is checked as `<file>#p<page>.png`; a page over 13 MP at a size reduced by an integer factor (`evidence.pages[].reducedFrom`: the stored size and the factor).",
  },
  IMAGE_FORMAT_TOO_LARGE: {
    detector: "image-pages",
    levels: NOT_ASSESSED,
    meaning:
      "A page is larger than the pixel budget for decoding it (over 120 MP, or over 6 MP when it can only be decoded whole); its pixels were not checked.",
  },
  IMAGE_FORMAT_UNDECODABLE: {
    detector: "image-pages",
    levels: NOT_ASSESSED,
    meaning: "A page's picture data is damaged, cut off or unsupported; its pixels were not checked.",
  },
  IMAGE_FORMAT_PAGES_LIMITED: {
    detector: "image-pages",
    levels: NOT_ASSESSED,
    meaning: "The TIFF has more pages than one analysis decodes; the pixels of the rest were not checked.",
  },

  // Thumbnail (gatekeeper for the picture detectors).
  IMAGE_UNDECODABLE: { detector: "thumbnail", levels: NOT_ASSESSED, meaning: "The picture data cannot be decoded." },
  THUMBNAIL_TOO_LARGE: {
    detector: "thumbnail",
    levels: NOT_ASSESSED,
    meaning: "The picture is too large to decode for a preview.",
  },

  // Learned detectors.
  RECAPTURE_NOT_FOUND: {
    detector: "recapture-model",
    levels: GREEN,
    meaning: "No sign that the picture is a photo of a screen or printout.",
  },
  RECAPTURE_SUSPECTED: {
    detector: "recapture-model",
    levels: YELLOW_OR_RED,
    meaning: "The picture looks like a photo of a screen or printout.",
  },
  RECAPTURE_NOT_ASSESSED: {
    detector: "recapture-model",
    levels: NOT_ASSESSED,
    meaning: "The recapture model could not look at the picture (format, size, damage).",
  },
  RECAPTURE_MODEL_FAILED: {
    detector: "recapture-model",
    levels: NOT_ASSESSED,
    meaning: "The recapture model could not run.",
  },
  MANIPULATION_MODEL_CLEAR: {
    detector: "manipulation-model",
    levels: GREEN,
    meaning: "The localisation model marks no region as edited.",
  },
  MANIPULATION_MODEL_REGION: {
    detector: "manipulation-model",
    levels: YELLOW,
    meaning: "The localisation model marks a possibly edited region (heatmap).",
  },
  MANIPULATION_NOT_ASSESSED: {
    detector: "manipulation-model",
    levels: NOT_ASSESSED,
    meaning: "The manipulation model could not look at the picture (format, size, damage).",
  },
  MANIPULATION_MODEL_FAILED: {
    detector: "manipulation-model",
    levels: NOT_ASSESSED,
    meaning: "The manipulation model could not run.",
  },

  // Picture metadata.
  META_UNREADABLE: { detector: "metadata", levels: NOT_ASSESSED, meaning: "The metadata could not be read." },
  META_PNG_TEXT_TOO_LARGE: {
    detector: "metadata",
    levels: NOT_ASSESSED,
    meaning: "A compressed PNG text unpacks beyond the budget; only its beginning was read.",
  },
  META_NONE: { detector: "metadata", levels: YELLOW, meaning: "No camera metadata at all." },
  META_EDITING_SOFTWARE: { detector: "metadata", levels: YELLOW, meaning: "The metadata name image-editing software." },
  META_DATE_GAP: {
    detector: "metadata",
    levels: GREEN,
    meaning: "The file was saved long after the picture was taken.",
  },
  META_CAPTURE_BEFORE_REFERENCE: {
    detector: "metadata",
    levels: YELLOW_OR_RED,
    meaning: "Taken before the request's issueDate (Red beyond 48 hours).",
  },
  META_CAPTURE_IN_FUTURE: { detector: "metadata", levels: YELLOW, meaning: "The capture date lies in the future." },
  META_GPS_IMPLAUSIBLE: {
    detector: "metadata",
    levels: YELLOW,
    meaning: "The GPS position is not a valid coordinate.",
  },
  META_CAMERA_FIELDS_MISSING: {
    detector: "metadata",
    levels: YELLOW,
    meaning: "A camera is named but its exposure data are missing.",
  },
  META_MAKER_NOTE_MISSING: {
    detector: "metadata",
    levels: GREEN,
    meaning: "The manufacturer's data block is missing.",
  },
  META_SIZE_MISMATCH: {
    detector: "metadata",
    levels: ["Green", "Yellow"],
    meaning: "The picture size differs from the recorded size (Green when only scaled down).",
  },
  META_THUMBNAIL_SHAPE: {
    detector: "metadata",
    levels: YELLOW,
    meaning: "The embedded preview has different proportions than the picture.",
  },
  META_CONSISTENT: { detector: "metadata", levels: GREEN, meaning: "The metadata contain no contradictions." },

  // Provenance (C2PA, declared AI generation).
  PROV_AI_GENERATED: { detector: "provenance", levels: RED, meaning: "The file declares itself AI-generated." },
  PROV_C2PA_HASH_MISMATCH: {
    detector: "provenance",
    levels: RED,
    meaning: "The picture changed after its content credentials were signed.",
  },
  PROV_C2PA_EDITED: { detector: "provenance", levels: YELLOW, meaning: "The content credentials record editing." },
  PROV_C2PA_PRESENT: { detector: "provenance", levels: GREEN, meaning: "Content credentials (C2PA) are present." },
  PROV_NONE: { detector: "provenance", levels: GREEN, meaning: "No provenance data." },

  // JPEG structure and compression history.
  JPEG_DAMAGED: { detector: "jpeg-structure", levels: NOT_ASSESSED, meaning: "The JPEG file is damaged." },
  JPEG_STRUCTURE: {
    detector: "jpeg-structure",
    levels: GREEN,
    meaning: "Quality, table family and coding mode of the JPEG (a note).",
  },
  JPEG_TRAILING_DATA: {
    detector: "jpeg-structure",
    levels: ["Green", "Yellow"],
    meaning: "Extra data after the end of the picture (Green when it is a preview copy of the same picture).",
  },
  JPEG_THUMBNAIL_MISMATCH: {
    detector: "jpeg-structure",
    levels: RED,
    meaning: "The embedded preview shows a different picture.",
  },
  JPEG_THUMBNAIL_CROP: {
    detector: "jpeg-structure",
    levels: YELLOW,
    meaning: "The picture is a cut-out of its embedded camera preview: part of the frame was cut away after capture.",
  },
  JPEG_DOUBLE_COMPRESSION: {
    detector: "jpeg-structure",
    levels: GREEN,
    meaning: "The picture was JPEG-compressed twice (a note: re-saving alone is what messengers and upload tools do).",
  },
  JPEG_DOUBLE_COMPRESSION_NOT_ASSESSED: {
    detector: "jpeg-structure",
    levels: NOT_ASSESSED,
    meaning: "The compression history could not be checked.",
  },
  JPEG_DQ_NONE: { detector: "jpeg-dq", levels: GREEN, meaning: "No traces of an earlier JPEG save." },
  JPEG_DQ_REGION: {
    detector: "jpeg-dq",
    levels: YELLOW_OR_RED,
    meaning: "An area lacks the traces of the earlier JPEG save (double-quantisation map).",
  },
  JPEG_DQ_UNIFORM: { detector: "jpeg-dq", levels: GREEN, meaning: "The traces of the earlier JPEG save are uniform." },
  JPEG_DQ_NOT_ASSESSED: {
    detector: "jpeg-dq",
    levels: NOT_ASSESSED,
    meaning: "The double-quantisation map could not be made.",
  },
  JPEG_GHOST_REGION: {
    detector: "jpeg-ghost",
    levels: YELLOW_OR_RED,
    meaning: "An area shows a different JPEG ghost.",
  },
  JPEG_GHOST_UNIFORM: { detector: "jpeg-ghost", levels: GREEN, meaning: "The JPEG ghosts are uniform." },
  JPEG_GHOST_NOT_ASSESSED: {
    detector: "jpeg-ghost",
    levels: NOT_ASSESSED,
    meaning: "The JPEG ghost map could not be made.",
  },
  JPEG_GRID_REGION: {
    detector: "jpeg-grid",
    levels: YELLOW_OR_RED,
    meaning:
      "An area carries the 8×8 grid of an earlier JPEG save at another offset than the rest (pasted from another JPEG).",
  },
  JPEG_GRID_UNIFORM: {
    detector: "jpeg-grid",
    levels: GREEN,
    meaning: "No area carries an earlier JPEG grid of its own.",
  },
  JPEG_GRID_NOT_ASSESSED: {
    detector: "jpeg-grid",
    levels: NOT_ASSESSED,
    meaning: "The grid of earlier JPEG saves could not be checked.",
  },

  // Pixel detectors.
  ELA_REGION: {
    detector: "ela",
    levels: YELLOW_OR_RED,
    meaning: "An area has a different compression history (error level analysis).",
  },
  ELA_UNIFORM: { detector: "ela", levels: GREEN, meaning: "The compression traces are uniform." },
  ELA_NOT_ASSESSED: { detector: "ela", levels: NOT_ASSESSED, meaning: "Error level analysis was not possible." },
  NOISE_REGION: { detector: "noise", levels: YELLOW_OR_RED, meaning: "An area has different image noise." },
  NOISE_UNIFORM: { detector: "noise", levels: GREEN, meaning: "The image noise is consistent." },
  NOISE_NOT_ASSESSED: { detector: "noise", levels: NOT_ASSESSED, meaning: "The noise analysis was not possible." },
  FUSION_REGION: {
    detector: "region-fusion",
    levels: YELLOW_OR_RED,
    meaning:
      "Two independent pixel detectors (ELA, noise, JPEG coefficients) each come close to their thresholds on one area (Red: both reach them).",
  },
  FUSION_UNIFORM: {
    detector: "region-fusion",
    levels: GREEN,
    meaning: "No area where two independent detectors agree.",
  },
  FUSION_NOT_ASSESSED: {
    detector: "region-fusion",
    levels: NOT_ASSESSED,
    meaning: "The detectors' maps could not be combined.",
  },
  COPY_MOVE_FOUND: { detector: "copy-move", levels: YELLOW_OR_RED, meaning: "An area was copied within the picture." },
  COPY_MOVE_NONE: { detector: "copy-move", levels: GREEN, meaning: "No copied areas found." },
  COPY_MOVE_NOT_ASSESSED: {
    detector: "copy-move",
    levels: NOT_ASSESSED,
    meaning: "The copy-move search was not possible.",
  },
  SEAM_RECTANGLE: {
    detector: "seams",
    levels: YELLOW_OR_RED,
    meaning:
      "A rectangle is framed on all four sides by one-pixel-sharp edges (pasted in or re-toned within a selection).",
  },
  SEAM_FRAME_CONFIRMED: {
    detector: "seams",
    levels: YELLOW,
    meaning:
      "A rectangle framed by cut edges too weak to report alone, whose inside is the most out-of-line area of its size on an independent map (ELA, noise or JPEG coefficients).",
  },
  SEAM_NONE: { detector: "seams", levels: GREEN, meaning: "No area framed by cut edges." },
  SEAM_NOT_ASSESSED: { detector: "seams", levels: NOT_ASSESSED, meaning: "The cut-edge search was not possible." },
  BLUR_RECTANGLE: {
    detector: "blur",
    levels: YELLOW_OR_RED,
    meaning: "A rectangle lost its finest detail along four straight sides (blurred within a selection).",
  },
  BLUR_RECTANGLE_CONFIRMED: {
    detector: "blur",
    levels: YELLOW,
    meaning:
      "A rectangle whose sides are sharpness steps too short to report alone, but whose whole inside has lost the one-pixel detail the surroundings of every side keep.",
  },
  BLUR_NONE: { detector: "blur", levels: GREEN, meaning: "No blurred rectangle." },
  BLUR_NOT_ASSESSED: { detector: "blur", levels: NOT_ASSESSED, meaning: "The blurred-area search was not possible." },

  // PDF versions (incremental updates).
  PDF_SINGLE_REVISION: { detector: "pdf-revisions", levels: GREEN, meaning: "The PDF has no later changes." },
  PDF_INCREMENTAL_UPDATES: {
    detector: "pdf-revisions",
    levels: YELLOW,
    meaning: "The PDF was changed after it was first saved (earlier versions in pdf_versions).",
  },
  PDF_INCREMENTAL_UPDATES_SIGNED: {
    detector: "pdf-revisions",
    levels: GREEN,
    meaning: "The PDF's versions come from signing it.",
  },
  PDF_XREF_DAMAGED: { detector: "pdf-revisions", levels: YELLOW, meaning: "The cross-reference table is damaged." },
  PDF_DATA_AFTER_EOF: {
    detector: "pdf-revisions",
    levels: YELLOW,
    meaning: "Data after the last end-of-file marker belong to no saved version.",
  },
  PDF_TOO_LARGE: { detector: "pdf-revisions", levels: NOT_ASSESSED, meaning: "The PDF exceeds the processing limits." },
  PDF_NO_HEADER: { detector: "pdf-revisions", levels: NOT_ASSESSED, meaning: "The file has no PDF header." },
  PDF_NO_REVISION_FOUND: {
    detector: "pdf-revisions",
    levels: NOT_ASSESSED,
    meaning: "No readable PDF version was found.",
  },

  // PDF structure, metadata and text.
  PDF_CONTENT_UNREADABLE: {
    detector: "pdf-structure",
    levels: NOT_ASSESSED,
    meaning: "The PDF's content could not be read.",
  },
  PDF_PAGE_TOO_COMPLEX: { detector: "pdf-structure", levels: NOT_ASSESSED, meaning: "A page is too large to examine." },
  PDF_STRUCTURE_CLEAN: { detector: "pdf-structure", levels: GREEN, meaning: "Structure and metadata look normal." },
  PDF_ENCRYPTED: { detector: "pdf-structure", levels: YELLOW, meaning: "The PDF is encrypted." },
  PDF_JAVASCRIPT: { detector: "pdf-structure", levels: YELLOW, meaning: "The PDF contains JavaScript." },
  PDF_LAUNCH_ACTION: { detector: "pdf-structure", levels: YELLOW, meaning: "The PDF launches programs." },
  PDF_XFA: { detector: "pdf-structure", levels: YELLOW, meaning: "The PDF is an XFA form." },
  PDF_EMBEDDED_EINVOICE: {
    detector: "pdf-structure",
    levels: GREEN,
    meaning: "An embedded e-invoice (ZUGFeRD/Factur-X XML).",
  },
  PDF_EMBEDDED_FILES: { detector: "pdf-structure", levels: YELLOW, meaning: "Other embedded files." },
  PDF_EDITOR_TOOL: { detector: "pdf-structure", levels: YELLOW, meaning: "Processed with a PDF editing tool." },
  PDF_MODIFIED_AFTER_CREATION: { detector: "pdf-structure", levels: YELLOW, meaning: "Modified later than created." },
  PDF_CHANGED_AFTER_ISSUE_DATE: {
    detector: "pdf-structure",
    levels: YELLOW,
    meaning: "Changed after the request's issueDate.",
  },
  PDF_DATE_IN_FUTURE: { detector: "pdf-structure", levels: YELLOW, meaning: "A date of the PDF lies in the future." },
  PDF_INFO_XMP_MISMATCH: {
    detector: "pdf-structure",
    levels: YELLOW,
    meaning: "The Info and XMP modification dates disagree.",
  },
  PDF_TEXT_COVERED: { detector: "pdf-structure", levels: YELLOW, meaning: "Text covered by a white box." },
  PDF_TEXT_COVERED_AND_OVERWRITTEN: {
    detector: "pdf-structure",
    levels: RED,
    meaning: "Text covered by a white box and written over.",
  },
  PDF_BOX_OVER_SCAN: { detector: "pdf-structure", levels: YELLOW, meaning: "A white box on a scanned page." },
  PDF_INVISIBLE_TEXT: { detector: "pdf-structure", levels: YELLOW, meaning: "Invisible text." },
  PDF_VISIBLE_TEXT_ON_SCAN: {
    detector: "pdf-structure",
    levels: YELLOW,
    meaning: "Visible text laid over a scanned page.",
  },
  PDF_NUMBER_IN_ODD_FONT: {
    detector: "pdf-structure",
    levels: YELLOW,
    meaning: "A number is set in a different font than its surroundings.",
  },
  PDF_FONT_SUBSET_REPEATED: {
    detector: "pdf-structure",
    levels: YELLOW,
    meaning: "The same font is embedded several times.",
  },

  // PDF signatures.
  PDF_SIGNATURES_UNREADABLE: {
    detector: "pdf-signatures",
    levels: NOT_ASSESSED,
    meaning: "The signatures could not be read.",
  },
  PDF_SIGNED_UNCHANGED: { detector: "pdf-signatures", levels: GREEN, meaning: "Signed and unchanged since." },
  PDF_ALLOWED_CHANGES_AFTER_SIGNATURE: {
    detector: "pdf-signatures",
    levels: GREEN,
    meaning: "Only changes the signature's permissions allow were made after signing.",
  },
  PDF_CHANGED_AFTER_SIGNATURE: {
    detector: "pdf-signatures",
    levels: RED,
    meaning: "Changed after signing in a way the signature does not allow.",
  },
  PDF_SIGNATURE_CHANGES_NOT_CHECKED: {
    detector: "pdf-signatures",
    levels: YELLOW,
    meaning: "Not all changes after signing could be checked.",
  },
  PDF_SIGNATURE_GAP: {
    detector: "pdf-signatures",
    levels: RED,
    meaning: "The signed byte range leaves unsigned regions inside the file.",
  },
  PDF_SIGNATURE_TAIL_UNCOVERED: {
    detector: "pdf-signatures",
    levels: RED,
    meaning: "The end of the file is not covered by any signature.",
  },
  PDF_SIGNATURE_BYTE_RANGE_INVALID: {
    detector: "pdf-signatures",
    levels: RED,
    meaning: "The signed byte range is not the standard two ranges around the signature.",
  },
  PDF_SIGNATURE_EMPTY: {
    detector: "pdf-signatures",
    levels: YELLOW,
    meaning: "A signature field holds an empty signature.",
  },

  // PDF images.
  PDF_IMAGES_UNREADABLE: {
    detector: "pdf-images",
    levels: NOT_ASSESSED,
    meaning: "The images inside the PDF could not be read.",
  },
  PDF_SCANNED_PAGES: {
    detector: "pdf-images",
    levels: GREEN,
    meaning: "Pages that are scans (their images are checked like photos).",
  },
  PDF_IMAGES_EXTRACTED: {
    detector: "pdf-images",
    levels: GREEN,
    meaning: "Embedded images extracted and checked as files of their own.",
  },
  PDF_IMAGES_NOT_DECODED: {
    detector: "pdf-images",
    levels: NOT_ASSESSED,
    meaning: "Some embedded images could not be decoded and were not checked.",
  },

  // PDF changes between versions.
  PDF_DIFF_INCOMPLETE: { detector: "pdf-diffs", levels: NOT_ASSESSED, meaning: "Not every version could be compared." },
  PDF_TEXT_CHANGED_IN_UPDATE: {
    detector: "pdf-diffs",
    levels: RED,
    meaning: "Visible text changed in a later version.",
  },
  PDF_PAGES_CHANGED_IN_UPDATE: {
    detector: "pdf-diffs",
    levels: YELLOW,
    meaning: "Pages added or removed in a later version.",
  },
  PDF_IMAGE_REPLACED_IN_UPDATE: {
    detector: "pdf-diffs",
    levels: RED,
    meaning: "An image replaced in a later version.",
  },
  PDF_FORM_VALUES_CHANGED: { detector: "pdf-diffs", levels: GREEN, meaning: "Form fields filled in a later version." },
  PDF_ANNOTATIONS_CHANGED: {
    detector: "pdf-diffs",
    levels: YELLOW,
    meaning: "Comments or markups changed in a later version.",
  },
  PDF_PAGE_OBJECTS_REDEFINED: {
    detector: "pdf-diffs",
    levels: YELLOW,
    meaning: "Page parts redefined in a later version.",
  },
  PDF_DOCUMENT_ENTRIES_CHANGED: {
    detector: "pdf-diffs",
    levels: YELLOW,
    meaning: "Document-level entries changed in a later version.",
  },

  // Reverse search (per account).
  REVERSE_SEARCH_MATCH: {
    detector: "reverse-search",
    levels: RED,
    meaning: "The picture was seen before in another case of the same account.",
  },

  // Cross-file analyses (add-on, in `cross_file_analyses.findings`).
  CROSS_NEAR_DUPLICATE_IMAGES: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "Nearly identical pictures in one request.",
  },
  CROSS_CAMERA_MISMATCH: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "One camera model with different serial numbers or quantisation tables.",
  },
  CROSS_CAPTURE_TIME_SPREAD: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "The photos were taken far apart in time.",
  },
  CROSS_CAPTURE_LOCATION_SPREAD: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "The photos were taken far apart in space.",
  },
  CROSS_SHARED_TEMPLATE: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "Documents share one layout (template) although they should be independent.",
  },
  CROSS_SHARED_CREATION: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "Documents were created with the same program within minutes of each other.",
  },
  CROSS_INVOICE_NUMBER_CONFLICT: {
    detector: "cross-file",
    levels: RED,
    meaning: "One invoice number with different amounts, dates or IBANs.",
  },
  CROSS_IBAN_MISMATCH: {
    detector: "cross-file",
    levels: RED,
    meaning: "Documents name different bank accounts (IBANs) for the same invoice number.",
  },
  CROSS_PLATE_MISMATCH: { detector: "cross-file", levels: YELLOW, meaning: "Documents name different licence plates." },
  CROSS_DOCUMENT_BEFORE_PHOTOS: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "A document is dated before the damage photos were taken.",
  },
  CROSS_DOCUMENT_AFTER_ISSUE_DATE: {
    detector: "cross-file",
    levels: YELLOW,
    meaning: "A document is dated after the request's issueDate.",
  },
} as const satisfies Record<string, FindingCodeInfo>;

/** A finding code of the registry: a typo is a type error. */
export type FindingCode = keyof typeof findingCodes;

/** The codes in registry order. */
export const findingCodeList = Object.keys(findingCodes) as FindingCode[];

/** The form every code has (AREA_WHAT). */
export const FINDING_CODE_PATTERN = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** The registry as a markdown table (the OpenAPI description and docs/forensics.md show it). */
export function findingCodesTable(): string {
  const rows = findingCodeList.map((code) => {
    const info: FindingCodeInfo = findingCodes[code];
    return `| \`${code}\` | ${info.detector} | ${info.levels.map((l) => (l === "-" ? "`-`" : l)).join(", ")} | ${info.meaning} |`;
  });
  return ["| code | detector | levels | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

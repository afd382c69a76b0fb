import type { FindingCode } from "./finding-codes";
import type { DecodeProduct } from "./images/file-decode";

/** Suspicion levels, lowest first (DESIGN §18: Red > Yellow > Green > "-"). */
export const suspicionLevels = ["-", "Green", "Yellow", "Red"] as const;
export type SuspicionLevel = (typeof suspicionLevels)[number];

export const languages = ["de", "en", "pl"] as const;
export type Language = (typeof languages)[number];

/** File types recognised by magic bytes, never by extension. */
export type FileKind = "jpeg" | "png" | "pdf" | "webp" | "heic" | "tiff" | "unknown";

/** Attachment categories of spec 2.6. */
export const attachmentCategories = [
  "analysis_report",
  "enfsi_report",
  "heatmaps",
  "thumbnails",
  "downloads",
  "pdf_versions",
  "pdf_diffs",
] as const;
export type AttachmentCategory = (typeof attachmentCategories)[number];

/** One file under analysis: from the ZIP, or extracted from a parent (PDF page image). */
export interface ScanFile {
  /** Name as reported in `Files`; extracted images are `<parent>#p<page>-<n>.<ext>`. */
  name: string;
  bytes: Uint8Array;
  kind: FileKind;
  mimeType: string;
  sha256: string;
  size: number;
  source?: { parent: string; page: number };
  /** A TIFF page or HEIC picture decoded to PNG (image-pages.ts): its metadata is its parent's, checked there. */
  decodedFrom?: "tiff" | "heic";
  /**
   * How such a picture is meant to be shown (EXIF orientation 2–8: the TIFF page's Orientation tag, the HEIC's
   * rotation and mirror properties); its pixels are as stored. Absent: as stored, or the file's own EXIF.
   */
  orientation?: number;
}

/** What every analyzer knows about the request. */
export interface ScanContext {
  language: Language;
  /** The request's issueDate (reference for date checks), if given. */
  issueDate: Date | null;
  now: Date;
  caseNumber: string;
}

/** One finding, already in the request's language (DESIGN §18). */
export interface Finding {
  /** A code of the registry in src/scanner/finding-codes.ts. */
  code: FindingCode;
  level: SuspicionLevel;
  title: string;
  explanation: string;
  evidence: Record<string, unknown>;
}

export interface Attachment {
  category: AttachmentCategory;
  /** File name inside its category, e.g. `photo.jpg.ela.png`. */
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface AnalyzerResult {
  /** False when the analyzer could not say anything about this file (then its findings explain why). */
  assessed: boolean;
  findings: Finding[];
  /** Merged into the file's `metadata` under the analyzer's id. */
  metadata?: Record<string, unknown>;
  attachments?: Attachment[];
  /** Files found inside this one (embedded images, scans); the pipeline analyses them too. */
  extracted?: ScanFile[];
}

/** A forensic detector. One file per detector in src/scanner/forensics/. */
export interface Analyzer {
  id: string;
  version: string;
  /** For `modelVersions`: learned models carry name, version and sha256 prefix. */
  model?: { name: string; version: string; sha256: string };
  /**
   * A gatekeeper: when it returns `assessed: false` for a file (unsupported type, undecodable),
   * the analyzers after it are skipped for that file and the file's level is `-`.
   */
  gate?: boolean;
  /** What it reads from the file's one shared pixel decode (images/file-decode.ts; the pipeline plans them per file). */
  reads?: readonly DecodeProduct<unknown>[];
  appliesTo(file: ScanFile): boolean;
  analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult>;
}

import { finding } from "../finding";
import { heifStructure, tiffStructure, webpStructure } from "../intake/container-structure";
import { jpegStructure, pdfStructure, pngStructure, type Structure } from "../intake/structure";
import { streamBudget } from "../pdf/stream-budget";
import type { Analyzer, AnalyzerResult, FileKind, Language, ScanFile } from "../types";
import { pdfUnpackBudgetFinding } from "./budget-texts";

/** Extensions that honestly name each kind; anything else on a recognised file is a mismatch. */
const EXTENSIONS: Partial<Record<FileKind, string[]>> = {
  jpeg: ["jpg", "jpeg", "jpe", "jfif"],
  png: ["png"],
  pdf: ["pdf"],
  webp: ["webp"],
  heic: ["heic", "heif", "hif"],
  tiff: ["tif", "tiff"],
};

/**
 * The gatekeeper of every file: type by magic bytes, size, hash and a structural walk.
 * Unsupported, unknown and structurally broken files end here with level `-` and a finding.
 */
export const fileTypeAnalyzer: Analyzer = {
  id: "file-type",
  // 1.1: WebP, HEIC/HEIF and TIFF get a structural walk and go on to the detectors (1.0: all "-").
  version: "1.1.0",
  gate: true,
  appliesTo: () => true,
  async analyze(file, ctx) {
    const facts = { kind: file.kind, mimeType: file.mimeType, sha256: file.sha256, size: file.size };
    if (file.kind === "unknown") return notAssessed(facts, unknownType(ctx.language, file));
    const structure = structureOf(file);
    if (!structure.ok) return notAssessed(facts, broken(ctx.language, file.kind, structure.reason));
    const { ok: _ok, ...shape } = structure;
    // A PDF that would unpack beyond its budget is not analysed at all: the file's level is "-", and
    // pdf.js and pdf-lib never see it (stream-budget.ts counts without keeping anything).
    const budget = file.kind === "pdf" ? streamBudget(file.bytes) : null;
    if (budget && !budget.ok) return notAssessed({ ...facts, ...shape }, pdfUnpackBudgetFinding(ctx.language, budget));
    const mismatch = extensionMismatch(file);
    return {
      assessed: true,
      findings: mismatch ? [mismatchFinding(ctx.language, file.kind, mismatch)] : [],
      metadata: { ...facts, ...shape },
    };
  },
};

function structureOf(file: ScanFile): Structure {
  if (file.kind === "jpeg") return jpegStructure(file.bytes);
  if (file.kind === "png") return pngStructure(file.bytes);
  if (file.kind === "webp") return webpStructure(file.bytes);
  if (file.kind === "heic") return heifStructure(file.bytes);
  if (file.kind === "tiff") return tiffStructure(file.bytes);
  return pdfStructure(file.bytes);
}

function notAssessed(metadata: Record<string, unknown>, reason: AnalyzerResult["findings"][number]): AnalyzerResult {
  return { assessed: false, findings: [reason], metadata };
}

/** The extension of the file's own name (extracted files carry their parent's name before `#`). */
function extensionMismatch(file: ScanFile): string | null {
  if (file.source) return null;
  const base = file.name.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  const ext = base.slice(dot + 1).toLowerCase();
  return EXTENSIONS[file.kind]?.includes(ext) ? null : ext;
}

function unknownType(language: Language, file: ScanFile) {
  const head = Array.from(file.bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ");
  return finding(
    language,
    "FILE_TYPE_UNSUPPORTED",
    "-",
    {
      de: {
        title: "Dateityp nicht unterstützt",
        explanation:
          "Der Inhalt ist weder JPEG, PNG, WebP, HEIC, TIFF noch PDF (am Dateianfang erkannt, nicht an der Endung). Die Datei wurde nicht geprüft.",
      },
      en: {
        title: "File type not supported",
        explanation:
          "The content is neither JPEG, PNG, WebP, HEIC, TIFF nor PDF (recognised from the first bytes, not the extension). The file was not checked.",
      },
      pl: {
        title: "Nieobsługiwany typ pliku",
        explanation:
          "Zawartość nie jest ani JPEG, ani PNG, WebP, HEIC, TIFF, ani PDF (rozpoznano po pierwszych bajtach, nie po rozszerzeniu). Plik nie został sprawdzony.",
      },
    },
    { firstBytes: head, size: file.size },
  );
}

function broken(language: Language, kind: FileKind, reason: "truncated" | "malformed") {
  const name = kind.toUpperCase();
  const why = {
    truncated: {
      de: "ist abgeschnitten (das Dateiende fehlt)",
      en: "is truncated (its end is missing)",
      pl: "jest ucięty (brak końca pliku)",
    },
    malformed: {
      de: "ist in seiner Struktur beschädigt",
      en: "has a damaged structure",
      pl: "ma uszkodzoną strukturę",
    },
  }[reason];
  return finding(
    language,
    reason === "truncated" ? "FILE_TRUNCATED" : "FILE_MALFORMED",
    "-",
    {
      de: {
        title: "Datei beschädigt",
        explanation: `Die ${name}-Datei ${why.de} und kann nicht zuverlässig gelesen werden. Sie wurde nicht geprüft.`,
      },
      en: {
        title: "File damaged",
        explanation: `The ${name} file ${why.en} and cannot be read reliably. It was not checked.`,
      },
      pl: {
        title: "Plik uszkodzony",
        explanation: `Plik ${name} ${why.pl} i nie można go wiarygodnie odczytać. Nie został sprawdzony.`,
      },
    },
    { kind, reason },
  );
}

function mismatchFinding(language: Language, kind: FileKind, extension: string) {
  const name = kind.toUpperCase();
  return finding(
    language,
    "FILE_EXTENSION_MISMATCH",
    "Yellow",
    {
      de: {
        title: "Endung passt nicht zum Inhalt",
        explanation: `Die Datei heißt ".${extension}", ist aber ein ${name}. Umbenannte Dateien können auf Nachbearbeitung oder Umwandlung hindeuten.`,
      },
      en: {
        title: "Extension does not match content",
        explanation: `The file is named ".${extension}" but is a ${name}. Renamed files can indicate editing or conversion.`,
      },
      pl: {
        title: "Rozszerzenie nie pasuje do zawartości",
        explanation: `Plik ma rozszerzenie ".${extension}", ale jest plikiem ${name}. Zmiana nazwy może wskazywać na edycję lub konwersję.`,
      },
    },
    { extension, detectedKind: kind },
  );
}

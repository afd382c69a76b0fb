import type { FileResult } from "../analysis/pipeline";
import type { Language, SuspicionLevel } from "../types";

/**
 * `cross_file_analyses` (add-on `crossFileAnalyses`): files of the request whose contents are
 * byte-identical (the same photo sent twice under different names, or a PDF's embedded image
 * also sent on its own). Computed from the SHA-256 of every analysed file.
 */
export function crossFileAnalyses(files: Record<string, FileResult>) {
  const byHash = new Map<string, string[]>();
  for (const [name, file] of Object.entries(files)) {
    if (!file.sha256) continue;
    byHash.set(file.sha256, [...(byHash.get(file.sha256) ?? []), name]);
  }
  const identicalFiles = [...byHash.entries()]
    .filter(([, names]) => names.length > 1)
    .map(([sha256, names]) => ({ sha256, files: names }));
  return { comparedFiles: Object.keys(files).length, identicalFiles };
}

const ACTIONS: Record<SuspicionLevel, { action: string; text: Record<Language, string> }> = {
  Red: {
    action: "escalate",
    text: {
      de: "Starke Auffälligkeiten: Fall an die Betrugsprüfung geben, bevor reguliert wird.",
      en: "Strong findings: pass the case to fraud review before settling.",
      pl: "Poważne nieprawidłowości: przekazać sprawę do weryfikacji nadużyć przed likwidacją.",
    },
  },
  Yellow: {
    action: "review",
    text: {
      de: "Auffälligkeiten, die einen Blick verdienen: die genannten Dateien manuell prüfen.",
      en: "Findings that warrant a look: review the named files manually.",
      pl: "Nieprawidłowości warte uwagi: sprawdzić wymienione pliki ręcznie.",
    },
  },
  Green: {
    action: "proceed",
    text: {
      de: "Keine Auffälligkeiten in den geprüften Dateien.",
      en: "No findings in the checked files.",
      pl: "Brak nieprawidłowości w sprawdzonych plikach.",
    },
  },
  "-": {
    action: "request_better_input",
    text: {
      de: "Keine Aussage möglich: lesbare Originaldateien (JPEG, PNG, PDF) anfordern.",
      en: "No statement possible: ask for readable original files (JPEG, PNG, PDF).",
      pl: "Brak możliwości oceny: poprosić o czytelne oryginalne pliki (JPEG, PNG, PDF).",
    },
  },
};

/**
 * `agenticRecommendation` (add-on): a case-level next step derived from the overall level and
 * the files that drive it. Rule-based and explained, not a learned model.
 */
export function agenticRecommendation(level: SuspicionLevel, files: Record<string, FileResult>, language: Language) {
  const drivers = Object.entries(files)
    .filter(([, f]) => f.suspicion_level === level)
    .map(([name, f]) => ({ file: name, findings: f.findings.filter((x) => x.level === level).map((x) => x.code) }));
  const notAssessed = Object.values(files).filter((f) => f.suspicion_level === "-").length;
  return {
    action: ACTIONS[level].action,
    reason: ACTIONS[level].text[language],
    basedOn: drivers,
    filesNotAssessed: notAssessed,
  };
}

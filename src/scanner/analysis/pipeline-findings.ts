import { finding } from "../finding";
import { quote, t } from "../reports/i18n";
import type { Finding, Language } from "../types";

/** Findings the pipeline itself writes: a file it could not extract, an analyzer that failed. */
export function extractionFailed(language: Language, problem: "corrupt" | "unsupported-compression"): Finding {
  if (problem === "unsupported-compression") {
    return finding(language, "ZIP_ENTRY_UNSUPPORTED_COMPRESSION", "-", {
      de: {
        title: "Datei nicht entpackbar",
        explanation:
          "Die Datei ist mit einem Verfahren komprimiert, das nicht unterstützt wird (nur Stored und Deflate). Sie wurde nicht geprüft.",
      },
      en: {
        title: "File could not be unpacked",
        explanation:
          "The file is compressed with a method that is not supported (only stored and deflate). It was not checked.",
      },
      pl: {
        title: "Nie można rozpakować pliku",
        explanation: "Plik jest skompresowany nieobsługiwaną metodą (tylko stored i deflate). Nie został sprawdzony.",
      },
    });
  }
  return finding(language, "ZIP_ENTRY_CORRUPT", "-", {
    de: {
      title: "Datei im Archiv beschädigt",
      explanation:
        "Die Datei ließ sich nicht fehlerfrei entpacken (Prüfsumme oder Daten fehlerhaft). Sie wurde nicht geprüft.",
    },
    en: {
      title: "File in the archive is corrupt",
      explanation: "The file could not be unpacked without errors (checksum or data damaged). It was not checked.",
    },
    pl: {
      title: "Plik w archiwum jest uszkodzony",
      explanation: "Nie udało się poprawnie rozpakować pliku (błędna suma kontrolna lub dane). Nie został sprawdzony.",
    },
  });
}

export function analyzerFailed(language: Language, analyzerId: string): Finding {
  // The check's name in each language (the reports' method names); the id stays in the evidence.
  const check = (l: Language) => quote(t(l).methodNames[analyzerId] ?? analyzerId, l);
  return finding(
    language,
    "ANALYZER_FAILED",
    "-",
    {
      de: {
        title: "Prüfung nicht möglich",
        explanation: `Die Prüfung ${check("de")} konnte für diese Datei nicht durchgeführt werden; sie trägt nichts zur Bewertung bei.`,
      },
      en: {
        title: "Check not possible",
        explanation: `The check ${check("en")} could not be run on this file; it does not contribute to the rating.`,
      },
      pl: {
        title: "Sprawdzenie niemożliwe",
        explanation: `Sprawdzenia ${check("pl")} nie można było wykonać dla tego pliku; nie wpływa ono na ocenę.`,
      },
    },
    { analyzer: analyzerId },
  );
}

/** The file's unit of work did not finish within its per-file budget (FILE_TIMEOUT_S). */
export function fileTimedOut(language: Language, seconds: number): Finding {
  return finding(
    language,
    "FILE_ANALYSIS_TIMEOUT",
    "-",
    {
      de: {
        title: "Prüfung abgebrochen: Zeitlimit",
        explanation: `Die Prüfung dieser Datei dauerte länger als ${seconds} Sekunden und wurde abgebrochen. Die Datei trägt nichts zur Bewertung bei; die übrigen Dateien wurden geprüft.`,
      },
      en: {
        title: "Check stopped: time limit",
        explanation: `Checking this file took longer than ${seconds} seconds and was stopped. The file does not contribute to the rating; the other files were checked.`,
      },
      pl: {
        title: "Sprawdzanie przerwane: limit czasu",
        explanation: `Sprawdzanie tego pliku trwało dłużej niż ${seconds} sekund i zostało przerwane. Plik nie wpływa na ocenę; pozostałe pliki zostały sprawdzone.`,
      },
    },
    { timeoutSeconds: seconds },
  );
}

/** The file's unit of work was lost or failed every attempt (a crash or restart while analysing it). */
export function fileAnalysisLost(language: Language, attempts: number): Finding {
  return finding(
    language,
    "FILE_ANALYSIS_FAILED",
    "-",
    {
      de: {
        title: "Prüfung fehlgeschlagen",
        explanation: `Die Prüfung dieser Datei ist ${attempts}-mal abgebrochen (z. B. durch einen Neustart während der Analyse). Die Datei trägt nichts zur Bewertung bei; die übrigen Dateien wurden geprüft.`,
      },
      en: {
        title: "Check failed",
        explanation: `Checking this file broke off ${attempts} times (for example through a restart during the analysis). The file does not contribute to the rating; the other files were checked.`,
      },
      pl: {
        title: "Sprawdzanie nie powiodło się",
        explanation: `Sprawdzanie tego pliku zostało przerwane ${attempts} razy (np. przez ponowne uruchomienie podczas analizy). Plik nie wpływa na ocenę; pozostałe pliki zostały sprawdzone.`,
      },
    },
    { attempts },
  );
}

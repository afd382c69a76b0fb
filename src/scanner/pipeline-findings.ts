import { finding } from "./finding";
import type { Finding, Language } from "./types";

/** Findings the pipeline itself writes: a file it could not extract, an analyzer that failed. */
export function extractionFailed(language: Language, problem: "corrupt" | "unsupported-compression"): Finding {
  if (problem === "unsupported-compression") {
    return finding(language, "zip-entry-unsupported-compression", "-", {
      de: { title: "Datei nicht entpackbar", explanation: "Die Datei ist mit einem Verfahren komprimiert, das nicht unterstützt wird (nur Stored und Deflate). Sie wurde nicht geprüft." },
      en: { title: "File could not be unpacked", explanation: "The file is compressed with a method that is not supported (only stored and deflate). It was not checked." },
      pl: { title: "Nie można rozpakować pliku", explanation: "Plik jest skompresowany nieobsługiwaną metodą (tylko stored i deflate). Nie został sprawdzony." },
    });
  }
  return finding(language, "zip-entry-corrupt", "-", {
    de: { title: "Datei im Archiv beschädigt", explanation: "Die Datei ließ sich nicht fehlerfrei entpacken (Prüfsumme oder Daten fehlerhaft). Sie wurde nicht geprüft." },
    en: { title: "File in the archive is corrupt", explanation: "The file could not be unpacked without errors (checksum or data damaged). It was not checked." },
    pl: { title: "Plik w archiwum jest uszkodzony", explanation: "Nie udało się poprawnie rozpakować pliku (błędna suma kontrolna lub dane). Nie został sprawdzony." },
  });
}

export function analyzerFailed(language: Language, analyzerId: string): Finding {
  return finding(
    language,
    "analyzer-failed",
    "-",
    {
      de: { title: "Prüfung nicht möglich", explanation: `Die Prüfung "${analyzerId}" konnte für diese Datei nicht durchgeführt werden; sie trägt nichts zur Bewertung bei.` },
      en: { title: "Check not possible", explanation: `The check "${analyzerId}" could not be run on this file; it does not contribute to the rating.` },
      pl: { title: "Sprawdzenie niemożliwe", explanation: `Sprawdzenia "${analyzerId}" nie można było wykonać dla tego pliku; nie wpływa ono na ocenę.` },
    },
    { analyzer: analyzerId },
  );
}

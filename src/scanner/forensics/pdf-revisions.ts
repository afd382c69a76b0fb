import { finding } from "../finding";
import type { FindingCode } from "../finding-codes";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanContext, ScanFile } from "../types";
import { pdfLimits } from "../pdf/limits";
import { hasPdfHeader, revisionsOf } from "../pdf/parsed";
import { savesExplainedBySigning, signedRevisions } from "../pdf/signed-revisions";
import { pdfReadable } from "../pdf/stream-budget";
import type { RevisionSplit } from "../pdf/revisions";
import { earlierVersions } from "../pdf/versions";

/**
 * Incremental updates: every save appended to a PDF leaves the earlier file intact in front of it.
 * We count the saves, hand out each earlier state as `<name>.revN.pdf` and say what that means.
 */
export const pdfRevisions: Analyzer = {
  id: "pdf-revisions",
  version: "1.0.0",
  appliesTo: (file) => file.kind === "pdf",
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const lang = ctx.language;
    if (file.bytes.length > pdfLimits.maxFileBytes)
      return notAssessed(lang, "PDF_TOO_LARGE", { bytes: file.bytes.length, limit: pdfLimits.maxFileBytes });
    if (!hasPdfHeader(file.bytes)) return notAssessed(lang, "PDF_NO_HEADER", {});
    const split = revisionsOf(file.bytes);
    if (split.revisions.length === 0) return notAssessed(lang, "PDF_NO_REVISION_FOUND", { problems: split.problems });
    const signed = split.revisions.length > 1 && (await explainedBySigning(file.bytes));
    const findings = [revisionFinding(lang, split, signed), ...structureProblems(lang, split)];
    return {
      assessed: true,
      findings,
      metadata: {
        revisions: split.revisions.length,
        method: split.method,
        linearized: split.linearized,
        revisionEnds: split.revisions.map((r) => r.end),
      },
      attachments: earlierVersions(file.name, file.bytes, split.revisions),
    };
  },
};

/**
 * Saves that are signatures and what signatures allow after them (form filling, further
 * signatures, validation data) are how signed documents grow: pdf-signatures judges them, and
 * here they are not a reason to look (Green). The judgement is shared, computed once per file.
 */
async function explainedBySigning(bytes: Uint8Array): Promise<boolean> {
  if (!pdfReadable(bytes)) return false;
  try {
    return savesExplainedBySigning(await signedRevisions(bytes));
  } catch {
    return false;
  }
}

function revisionFinding(lang: Language, split: RevisionSplit, signed: boolean): Finding {
  const n = split.revisions.length;
  const evidence = {
    revisions: n,
    ends: split.revisions.map((r) => r.end),
    linearized: split.linearized,
    method: split.method,
  };
  if (n === 1)
    return finding(
      lang,
      "PDF_SINGLE_REVISION",
      "Green",
      {
        de: {
          title: "Keine nachträglichen Änderungen",
          explanation:
            "Die PDF-Datei wurde in einem Zug gespeichert; es sind keine angehängten Änderungen (inkrementelle Updates) vorhanden.",
        },
        en: {
          title: "No later changes",
          explanation: "The PDF was saved in one go; it contains no appended changes (incremental updates).",
        },
        pl: {
          title: "Brak późniejszych zmian",
          explanation:
            "Plik PDF został zapisany jednorazowo; nie zawiera dopisanych zmian (aktualizacji przyrostowych).",
        },
      },
      evidence,
    );
  if (signed) return signedFinding(lang, n, evidence);
  return finding(
    lang,
    "PDF_INCREMENTAL_UPDATES",
    "Yellow",
    {
      de: {
        title: `PDF wurde ${n - 1}-mal nachträglich geändert`,
        explanation: `Die Datei enthält ${n} gespeicherte Fassungen. Jede frühere Fassung liegt als eigene PDF bei (pdf_versions); der Vergleich zeigt, was geändert wurde. Formularausfüllungen und Signaturen erzeugen ebenfalls solche Fassungen.`,
      },
      en: {
        title: `PDF was changed ${n - 1} time(s) after it was first saved`,
        explanation: `The file holds ${n} saved versions. Each earlier version is attached as its own PDF (pdf_versions); the comparison shows what changed. Filling in forms and signing also create such versions.`,
      },
      pl: {
        title: `PDF zmieniono ${n - 1} raz(y) po pierwszym zapisie`,
        explanation: `Plik zawiera ${n} ${polishSavedVersions(n)}. Każda wcześniejsza wersja jest dołączona jako osobny PDF (pdf_versions); porównanie pokazuje, co zmieniono. Wypełnianie formularzy i podpisywanie również tworzą takie wersje.`,
      },
    },
    evidence,
  );
}

function signedFinding(lang: Language, n: number, evidence: Record<string, unknown>): Finding {
  return finding(
    lang,
    "PDF_INCREMENTAL_UPDATES_SIGNED",
    "Green",
    {
      de: {
        title: `${n} Fassungen durch Signieren`,
        explanation: `Die Datei enthält ${n} gespeicherte Fassungen; jede spätere Fassung bereitet eine Signatur vor (Signaturfelder), ist eine Signatur oder eine Ergänzung, die die Signaturen davor erlauben (Formulareinträge, weitere Signaturen, Prüfdaten). Die Signaturprüfung beschreibt sie im Einzelnen; frühere Fassungen liegen bei (pdf_versions).`,
      },
      en: {
        title: `${n} versions from signing`,
        explanation: `The file holds ${n} saved versions; each later one prepares a signature (signature fields), is a signature, or is an addition the signatures before it allow (form entries, further signatures, validation data). The signature check describes them in detail; earlier versions are attached (pdf_versions).`,
      },
      pl: {
        title: `${n} ${polishVersions(n)} wskutek podpisywania`,
        explanation: `Plik zawiera ${n} ${polishSavedVersions(n)}; każda późniejsza przygotowuje podpis (pola podpisu), jest podpisem lub uzupełnieniem, na które zezwalają wcześniejsze podpisy (wpisy w formularzu, kolejne podpisy, dane weryfikacyjne). Sprawdzenie podpisów opisuje je szczegółowo; wcześniejsze wersje są dołączone (pdf_versions).`,
      },
    },
    { ...evidence, explainedBy: "signatures" },
  );
}

/** Polish plural of "wersja" after a number ≥ 2: 2–4 (not 12–14) wersje, otherwise wersji. */
/** Polish takes the nominative plural after 2–4 (not 12–14), the genitive plural otherwise. */
const polishFew = (n: number) => n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14);

function polishVersions(n: number): string {
  return polishFew(n) ? "wersje" : "wersji";
}

function polishSavedVersions(n: number): string {
  return polishFew(n) ? "zapisane wersje" : "zapisanych wersji";
}

function structureProblems(lang: Language, split: RevisionSplit): Finding[] {
  const out: Finding[] = [];
  if (split.problems.length > 0)
    out.push(
      finding(
        lang,
        "PDF_XREF_DAMAGED",
        "Yellow",
        {
          de: {
            title: "Beschädigte Querverweistabelle",
            explanation:
              "Das Verzeichnis der Objekte (xref) verweist ins Leere oder im Kreis. Programme reparieren das stillschweigend; es kommt bei fehlerhaften Werkzeugen und bei manipulierten Dateien vor.",
          },
          en: {
            title: "Damaged cross-reference table",
            explanation:
              "The object directory (xref) points to nothing or in a circle. Readers repair this silently; it happens with faulty tools and with tampered files.",
          },
          pl: {
            title: "Uszkodzona tablica odsyłaczy",
            explanation:
              "Katalog obiektów (xref) wskazuje donikąd lub w koło. Czytniki naprawiają to po cichu; zdarza się to przy wadliwych narzędziach i w zmanipulowanych plikach.",
          },
        },
        { problems: split.problems, method: split.method },
      ),
    );
  if (split.trailingBytes > 0)
    out.push(
      finding(
        lang,
        "PDF_DATA_AFTER_EOF",
        "Yellow",
        {
          de: {
            title: "Daten nach dem Dateiende",
            explanation: `Nach der letzten Endmarke (%%EOF) folgen ${split.trailingBytes} Byte, die zu keiner gespeicherten Fassung gehören. Angehängte, unvollständige Änderungen oder versteckte Daten sind möglich.`,
          },
          en: {
            title: "Data after the end of the file",
            explanation: `${split.trailingBytes} bytes follow the last end marker (%%EOF) and belong to no saved version. This may be an incomplete appended change or hidden data.`,
          },
          pl: {
            title: "Dane po końcu pliku",
            explanation: `Po ostatnim znaczniku końca (%%EOF) występuje ${split.trailingBytes} bajtów, które nie należą do żadnej zapisanej wersji. Może to być niepełna dopisana zmiana lub ukryte dane.`,
          },
        },
        { trailingBytes: split.trailingBytes },
      ),
    );
  return out;
}

function notAssessed(lang: Language, code: FindingCode, evidence: Record<string, unknown>): AnalyzerResult {
  return {
    assessed: false,
    findings: [
      finding(
        lang,
        code,
        "-",
        {
          de: {
            title: "PDF-Struktur nicht lesbar",
            explanation:
              "Die Datei ist keine lesbare PDF-Datei oder überschreitet die Verarbeitungsgrenzen; ihre Fassungen können nicht bestimmt werden.",
          },
          en: {
            title: "PDF structure not readable",
            explanation:
              "The file is not a readable PDF or exceeds the processing limits; its versions cannot be determined.",
          },
          pl: {
            title: "Struktura PDF nieczytelna",
            explanation:
              "Plik nie jest czytelnym PDF lub przekracza limity przetwarzania; nie można ustalić jego wersji.",
          },
        },
        evidence,
      ),
    ],
  };
}

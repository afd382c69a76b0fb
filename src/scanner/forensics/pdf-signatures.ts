import { finding, type FindingText } from "../finding";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanContext, ScanFile } from "../types";
import { changesInRevision, type ObjectChange } from "../pdf/changes";
import { pdfLimits } from "../pdf/limits";
import { revisionsOf } from "../pdf/parsed";
import { pdfReadable } from "../pdf/stream-budget";
import { openPdfLib } from "../pdf/pdflib";
import { findSignatures, type SignatureInfo } from "../pdf/signatures";
import { releaseRevision, revisionsWithinBudget } from "../pdf/versions";

/**
 * Signatures and what happened after them. A signature covers the file up to the end of one
 * revision; every later revision is checked object by object: form filling, annotations,
 * further signatures and validation data are allowed, anything that redraws a page is Red.
 * (The CMS signature value itself is not verified cryptographically.)
 */
export const pdfSignatures: Analyzer = {
  id: "pdf-signatures",
  version: "1.0.0",
  appliesTo: (file) => file.kind === "pdf",
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const lang = ctx.language;
    // Too large, no header or over its unpack budget: pdf-structure's finding says so once for all.
    if (!pdfReadable(file.bytes)) return { assessed: false, findings: [] };
    const split = revisionsOf(file.bytes);
    let signatures: SignatureInfo[];
    try {
      signatures = findSignatures(await openPdfLib(file.bytes), file.bytes, split.revisions);
    } catch (e) {
      return {
        assessed: false,
        findings: [finding(lang, "pdf_signatures_unreadable", "-", T.unreadable, { reason: String(e).slice(0, 200) })],
      };
    }
    if (signatures.length === 0) return { assessed: true, findings: [], metadata: { signatures: 0 } };
    const findings = signatures.flatMap((s) => byteRangeFindings(lang, s));
    const firstSigned = Math.min(...signatures.map((s) => s.revision ?? Infinity));
    const later: { revision: number; changes: ObjectChange[] }[] = [];
    if (Number.isFinite(firstSigned)) {
      const { indexes, skipped } = revisionsWithinBudget(
        split.revisions,
        firstSigned + 1,
        Math.min(split.revisions.length, pdfLimits.maxRevisions),
      );
      for (const k of indexes) {
        const changes = await changesInRevision(file.bytes, split.revisions, k).catch(() => [] as ObjectChange[]);
        later.push({ revision: k, changes });
        releaseRevision(file.bytes, split.revisions, k - 1);
      }
      if (skipped.length > 0 || split.revisions.length > pdfLimits.maxRevisions)
        findings.push(
          finding(lang, "pdf_signature_changes_not_checked", "Yellow", T.notChecked, {
            revisions: skipped,
            total: split.revisions.length,
          }),
        );
    }
    findings.push(...afterSigningFindings(lang, later, signatures));
    return {
      assessed: true,
      findings,
      metadata: {
        signatures: signatures.map((s) => ({
          kind: s.kind,
          signer: s.signer,
          signedAt: s.signedAt,
          subFilter: s.subFilter,
          byteRange: s.byteRange,
          revision: s.revision,
        })),
      },
    };
  },
};

function afterSigningFindings(
  lang: Language,
  later: { revision: number; changes: ObjectChange[] }[],
  sigs: SignatureInfo[],
): Finding[] {
  const disallowed = later.flatMap((l) =>
    l.changes.filter((c) => !c.allowed).map((c) => ({ revision: l.revision, ...c })),
  );
  const allowed = later.flatMap((l) =>
    l.changes.filter((c) => c.allowed).map((c) => ({ revision: l.revision, kind: c.kind, detail: c.detail })),
  );
  const signedRevisions = sigs.map((s) => s.revision);
  if (disallowed.length > 0)
    return [
      finding(lang, "pdf_changed_after_signature", "Red", T.changedAfter, {
        signedRevisions,
        changes: disallowed.slice(0, 30),
      }),
    ];
  if (later.length > 0)
    return [
      finding(lang, "pdf_allowed_changes_after_signature", "Green", T.allowedAfter, {
        signedRevisions,
        changes: allowed.slice(0, 30),
      }),
    ];
  if (sigs.some((s) => s.problems.length > 0)) return [];
  return [finding(lang, "pdf_signed_unchanged", "Green", T.unchanged, { signedRevisions })];
}

function byteRangeFindings(lang: Language, s: SignatureInfo): Finding[] {
  return s.problems.map((p) => {
    const evidence = { signature: s.ref, byteRange: s.byteRange, ...p };
    switch (p.kind) {
      case "not-from-start":
      case "gap-not-signature":
        return finding(lang, "pdf_signature_gap", "Red", T.gap, evidence);
      case "empty-signature":
        return finding(lang, "pdf_signature_empty", "Yellow", T.empty, evidence);
      case "not-revision-end":
        return finding(lang, "pdf_signature_not_at_revision_end", "Yellow", T.notRevisionEnd, evidence);
      default:
        return finding(lang, "pdf_signature_byte_range_invalid", "Yellow", T.invalid, evidence);
    }
  });
}

const T = {
  unreadable: {
    de: { title: "Signaturen nicht lesbar", explanation: "Die Signaturen der Datei konnten nicht gelesen werden." },
    en: { title: "Signatures not readable", explanation: "The file's signatures could not be read." },
    pl: { title: "Podpisy nieczytelne", explanation: "Nie udało się odczytać podpisów pliku." },
  },
  changedAfter: {
    de: {
      title: "Nach der Unterschrift inhaltlich geändert",
      explanation:
        "Nach der digitalen Signatur wurde die Datei so geändert, dass Seiten anders aussehen (Seiteninhalt, Bilder oder Seiten ersetzt). Das ist kein erlaubtes Ausfüllen oder Kommentieren: die Signatur gilt nur für die frühere Fassung.",
    },
    en: {
      title: "Content changed after signing",
      explanation:
        "After the digital signature the file was changed so that pages look different (page content, images or pages replaced). That is not allowed form filling or commenting: the signature only vouches for the earlier version.",
    },
    pl: {
      title: "Treść zmieniona po podpisaniu",
      explanation:
        "Po złożeniu podpisu cyfrowego plik zmieniono tak, że strony wyglądają inaczej (treść strony, obrazy lub strony zastąpione). To nie jest dozwolone wypełnianie formularza ani komentowanie: podpis obejmuje tylko wcześniejszą wersję.",
    },
  },
  allowedAfter: {
    de: {
      title: "Nach der Unterschrift nur erlaubte Ergänzungen",
      explanation:
        "Nach der Signatur kamen nur Formulareinträge, Kommentare, weitere Signaturen oder Prüfdaten hinzu; der unterschriebene Seiteninhalt ist unverändert.",
    },
    en: {
      title: "Only allowed additions after signing",
      explanation:
        "After signing only form entries, comments, further signatures or validation data were added; the signed page content is unchanged.",
    },
    pl: {
      title: "Po podpisaniu tylko dozwolone uzupełnienia",
      explanation:
        "Po podpisaniu dodano tylko wpisy formularza, komentarze, kolejne podpisy lub dane weryfikacyjne; podpisana treść stron jest niezmieniona.",
    },
  },
  unchanged: {
    de: {
      title: "Signiert und danach unverändert",
      explanation:
        "Die Datei ist digital signiert und wurde nach der letzten Signatur nicht mehr verändert. (Die kryptografische Gültigkeit des Zertifikats wird nicht geprüft.)",
    },
    en: {
      title: "Signed and unchanged since",
      explanation:
        "The file is digitally signed and was not changed after the last signature. (The certificate's cryptographic validity is not checked.)",
    },
    pl: {
      title: "Podpisany i od tego czasu niezmieniony",
      explanation:
        "Plik jest podpisany cyfrowo i nie zmieniono go po ostatnim podpisie. (Ważność kryptograficzna certyfikatu nie jest sprawdzana.)",
    },
  },
  gap: {
    de: {
      title: "Unsignierte Bereiche in der Signatur",
      explanation:
        "Der von der Signatur abgedeckte Bereich (ByteRange) lässt mehr aus als nur den Signaturwert. Dort können Inhalte stehen, die nicht unterschrieben sind.",
    },
    en: {
      title: "Unsigned regions inside the signature",
      explanation:
        "The range the signature covers (ByteRange) leaves out more than the signature value itself. Content there is not signed.",
    },
    pl: {
      title: "Niepodpisane obszary w podpisie",
      explanation:
        "Zakres objęty podpisem (ByteRange) pomija więcej niż samą wartość podpisu. Treść w tym miejscu nie jest podpisana.",
    },
  },
  empty: {
    de: {
      title: "Leere Signatur",
      explanation:
        "Das Signaturfeld enthält keinen Signaturwert (nur Nullen): die Datei sieht signiert aus, ist es aber nicht.",
    },
    en: {
      title: "Empty signature",
      explanation: "The signature holds no value (only zeros): the file looks signed but is not.",
    },
    pl: {
      title: "Pusty podpis",
      explanation: "Podpis nie zawiera wartości (same zera): plik wygląda na podpisany, ale nie jest.",
    },
  },
  notRevisionEnd: {
    de: {
      title: "Signatur endet nicht an einer Fassung",
      explanation:
        "Der signierte Bereich endet nicht am Ende einer gespeicherten Fassung der Datei; die Signatur passt nicht zur Dateistruktur.",
    },
    en: {
      title: "Signature does not end at a saved version",
      explanation:
        "The signed range does not end where a saved version of the file ends; the signature does not fit the file's structure.",
    },
    pl: {
      title: "Podpis nie kończy się na wersji",
      explanation:
        "Podpisany zakres nie kończy się tam, gdzie kończy się zapisana wersja pliku; podpis nie pasuje do struktury pliku.",
    },
  },
  notChecked: {
    de: {
      title: "Nicht alle Änderungen nach der Signatur geprüft",
      explanation:
        "Die Datei hat mehr oder größere Fassungen nach der Signatur, als hier verglichen werden können; diese wurden nicht geprüft.",
    },
    en: {
      title: "Not all changes after signing checked",
      explanation:
        "The file has more or larger versions after the signature than can be compared here; those were not checked.",
    },
    pl: {
      title: "Nie sprawdzono wszystkich zmian po podpisie",
      explanation: "Plik ma po podpisie więcej lub większych wersji, niż można tu porównać; tych nie sprawdzono.",
    },
  },
  invalid: {
    de: {
      title: "Ungültiger signierter Bereich",
      explanation:
        "Die Angabe des signierten Bereichs (ByteRange) ist fehlerhaft oder reicht über das Dateiende hinaus.",
    },
    en: {
      title: "Invalid signed range",
      explanation: "The signed range (ByteRange) is malformed or reaches past the end of the file.",
    },
    pl: {
      title: "Nieprawidłowy zakres podpisu",
      explanation: "Zakres podpisu (ByteRange) jest błędny lub wykracza poza koniec pliku.",
    },
  },
} satisfies Record<string, FindingText>;

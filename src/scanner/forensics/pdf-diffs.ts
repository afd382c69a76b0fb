import { finding, type FindingText } from "../finding";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanContext, ScanFile } from "../types";
import { diffRevisions, type RevisionDiff } from "../pdf/diff";
import { renderDiffPdf, type DiffLabels } from "../pdf/diff-render";
import { pdfLimits } from "../pdf/limits";
import { revisionsOf } from "../pdf/parsed";
import { pdfReadable } from "../pdf/stream-budget";
import { forgetPageModels } from "../pdf/pages";
import { closePdfJs } from "../pdf/pdfjs";
import { forgetPdfLib } from "../pdf/pdflib";
import { releaseRevision, revisionBytes, revisionsWithinBudget } from "../pdf/versions";

/**
 * What each incremental update changed, page by page: text (with where it is and what it said
 * before), pages, annotations and form values, redefined objects; and one `pdf_diffs` PDF per file
 * that a claims handler can read.
 */
export const pdfDiffs: Analyzer = {
  id: "pdf-diffs",
  version: "1.0.0",
  appliesTo: (file) => file.kind === "pdf",
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const lang = ctx.language;
    // Too large, no header or over its unpack budget: pdf-structure's finding says so once for all.
    if (!pdfReadable(file.bytes)) return { assessed: false, findings: [] };
    const { revisions } = revisionsOf(file.bytes);
    if (revisions.length < 2) {
      releaseFile(file.bytes);
      return { assessed: true, findings: [] };
    }
    const last = Math.min(revisions.length, pdfLimits.maxRevisions);
    const { indexes, skipped } = revisionsWithinBudget(revisions, 2, last);
    const diffs: RevisionDiff[] = [];
    const failed: number[] = [...skipped];
    for (const to of indexes) {
      try {
        diffs.push(await diffRevisions(file.bytes, revisions, to));
      } catch {
        failed.push(to);
      }
      if (to - 2 >= 1) releaseRevision(file.bytes, revisions, to - 2);
    }
    const findings = diffs.flatMap((d) => diffFindings(lang, d));
    if (failed.length > 0)
      findings.push(finding(lang, "PDF_DIFF_INCOMPLETE", "-", T.incomplete, { revisions: failed }));
    const versions = revisions.slice(0, last).map((r) => revisionBytes(file.bytes, revisions, r.index));
    const visible = diffs.filter(
      (d) => d.text.length > 0 || d.annotations.length > 0 || d.pagesBefore !== d.pagesAfter,
    );
    const pdf =
      visible.length > 0 ? await renderDiffPdf(file.name, versions, visible, labels[lang]).catch(() => null) : null;
    for (let k = 1; k < revisions.length; k++) releaseRevision(file.bytes, revisions, k);
    releaseFile(file.bytes);
    return {
      assessed: diffs.length > 0,
      findings,
      metadata: { diffs: diffs.map(summary) },
      attachments: pdf
        ? [{ category: "pdf_diffs", name: `${file.name}.diff.pdf`, contentType: "application/pdf", bytes: pdf }]
        : [],
    };
  },
};

/**
 * The diff is the last PDF detector in the registry: it closes the file's pdf.js document so that a
 * long-lived isolate keeps nothing of this request (a detector running later would simply reopen it).
 */
function releaseFile(bytes: Uint8Array): void {
  closePdfJs(bytes);
  forgetPdfLib(bytes);
  forgetPageModels(bytes);
}

function summary(d: RevisionDiff) {
  return {
    from: d.from,
    to: d.to,
    pagesBefore: d.pagesBefore,
    pagesAfter: d.pagesAfter,
    textChanges: d.text.length,
    annotationChanges: d.annotations.length,
    objects: d.objects.length,
  };
}

function diffFindings(lang: Language, d: RevisionDiff): Finding[] {
  const out: Finding[] = [];
  const step = { from: d.from, to: d.to };
  if (d.text.length > 0)
    out.push(
      finding(lang, "PDF_TEXT_CHANGED_IN_UPDATE", "Red", T.text, {
        ...step,
        changes: d.text
          .slice(0, 20)
          .map((t) => ({ kind: t.kind, page: t.page, before: t.before, after: t.after, box: roundBox(t.box) })),
      }),
    );
  if (d.pagesBefore !== d.pagesAfter)
    out.push(
      finding(lang, "PDF_PAGES_CHANGED_IN_UPDATE", "Yellow", T.pages, {
        ...step,
        before: d.pagesBefore,
        after: d.pagesAfter,
      }),
    );
  const replaced = d.objects.filter((o) => o.kind === "image" && !o.allowed);
  if (replaced.length > 0)
    out.push(
      finding(lang, "PDF_IMAGE_REPLACED_IN_UPDATE", "Red", T.image, { ...step, objects: replaced.map((o) => o.ref) }),
    );
  const forms = d.annotations.filter((a) => a.subtype === "Widget");
  const comments = d.annotations.filter((a) => a.subtype !== "Widget");
  if (forms.length > 0)
    out.push(finding(lang, "PDF_FORM_VALUES_CHANGED", "Green", T.forms, { ...step, fields: forms.slice(0, 20) }));
  if (comments.length > 0)
    out.push(
      finding(lang, "PDF_ANNOTATIONS_CHANGED", "Yellow", T.annotations, {
        ...step,
        annotations: comments.slice(0, 20),
      }),
    );
  const redrawn = d.objects.filter((o) => !o.allowed && ["content", "page", "pages", "xobject"].includes(o.kind));
  if (d.text.length === 0 && redrawn.length > 0)
    out.push(
      finding(lang, "PDF_PAGE_OBJECTS_REDEFINED", "Yellow", T.objects, { ...step, objects: redrawn.slice(0, 20) }),
    );
  const documentLevel = d.objects.filter((o) => !o.allowed && o.kind === "catalog");
  if (documentLevel.length > 0)
    out.push(finding(lang, "PDF_DOCUMENT_ENTRIES_CHANGED", "Yellow", T.document, { ...step, objects: documentLevel }));
  return out;
}

const roundBox = (b: { x0: number; y0: number; x1: number; y1: number }) => ({
  x0: Math.round(b.x0),
  y0: Math.round(b.y0),
  x1: Math.round(b.x1),
  y1: Math.round(b.y1),
});

const T = {
  incomplete: {
    de: {
      title: "Vergleich unvollständig",
      explanation: "Einige Fassungen konnten nicht miteinander verglichen werden (beschädigt oder zu aufwendig).",
    },
    en: {
      title: "Comparison incomplete",
      explanation: "Some versions could not be compared with each other (damaged or too costly).",
    },
    pl: {
      title: "Porównanie niepełne",
      explanation: "Niektórych wersji nie udało się porównać (uszkodzone lub zbyt kosztowne).",
    },
  },
  text: {
    de: {
      title: "Sichtbarer Text nachträglich geändert",
      explanation:
        "Eine spätere Fassung zeigt an derselben Stelle anderen Text als die frühere (z. B. Betrag, Datum, Name). Das Vergleichs-PDF (pdf_diffs) markiert die Stellen und nennt die früheren Werte.",
    },
    en: {
      title: "Visible text changed afterwards",
      explanation:
        "A later version shows different text than the earlier one in the same place (e.g. amount, date, name). The comparison PDF (pdf_diffs) marks the places and gives the earlier values.",
    },
    pl: {
      title: "Widoczny tekst zmieniony później",
      explanation:
        "Późniejsza wersja pokazuje w tym samym miejscu inny tekst niż wcześniejsza (np. kwota, data, nazwisko). PDF porównania (pdf_diffs) zaznacza miejsca i podaje wcześniejsze wartości.",
    },
  },
  pages: {
    de: {
      title: "Seiten hinzugefügt oder entfernt",
      explanation: "Eine spätere Fassung hat eine andere Seitenzahl als die frühere.",
    },
    en: {
      title: "Pages added or removed",
      explanation: "A later version has a different number of pages than the earlier one.",
    },
    pl: {
      title: "Dodano lub usunięto strony",
      explanation: "Późniejsza wersja ma inną liczbę stron niż wcześniejsza.",
    },
  },
  image: {
    de: {
      title: "Bild nachträglich ersetzt",
      explanation: "Ein auf einer Seite gezeigtes Bild wurde in einer späteren Fassung durch ein anderes ersetzt.",
    },
    en: {
      title: "Image replaced afterwards",
      explanation: "An image shown on a page was replaced by a different one in a later version.",
    },
    pl: {
      title: "Obraz zastąpiony później",
      explanation: "Obraz widoczny na stronie zastąpiono w późniejszej wersji innym.",
    },
  },
  forms: {
    de: {
      title: "Formularfelder ausgefüllt",
      explanation:
        "Spätere Fassungen enthalten neue oder geänderte Formularwerte. Das ist der normale Weg, ein Formular auszufüllen; die Werte stehen im Nachweis.",
    },
    en: {
      title: "Form fields filled in",
      explanation:
        "Later versions contain new or changed form values. That is the normal way of filling in a form; the values are listed in the evidence.",
    },
    pl: {
      title: "Wypełniono pola formularza",
      explanation:
        "Późniejsze wersje zawierają nowe lub zmienione wartości formularza. To zwykły sposób wypełniania formularza; wartości są w dowodach.",
    },
  },
  annotations: {
    de: {
      title: "Kommentare oder Markierungen geändert",
      explanation:
        "Spätere Fassungen fügen Anmerkungen (Kommentare, Stempel, Textfelder, Formen) hinzu oder ändern sie. Solche Anmerkungen können auch Inhalte überdecken.",
    },
    en: {
      title: "Comments or markups changed",
      explanation:
        "Later versions add or change annotations (comments, stamps, text boxes, shapes). Such annotations can also cover content.",
    },
    pl: {
      title: "Zmieniono komentarze lub oznaczenia",
      explanation:
        "Późniejsze wersje dodają lub zmieniają adnotacje (komentarze, pieczątki, pola tekstowe, kształty). Mogą one też zakrywać treść.",
    },
  },
  document: {
    de: {
      title: "Dokumenteinträge nachträglich geändert",
      explanation:
        "Eine spätere Fassung ändert Einträge des Dokuments selbst (z. B. angehängte Dateien, Anzeigeoptionen), nicht den Seiteninhalt. Bei E-Rechnungen wird die XML-Datei oft so angehängt.",
    },
    en: {
      title: "Document entries changed afterwards",
      explanation:
        "A later version changes entries of the document itself (e.g. attached files, display options), not the page content. E-invoices often get their XML attached this way.",
    },
    pl: {
      title: "Wpisy dokumentu zmienione później",
      explanation:
        "Późniejsza wersja zmienia wpisy samego dokumentu (np. załączone pliki, opcje wyświetlania), a nie treść stron. E-faktury często dostają plik XML w ten sposób.",
    },
  },
  objects: {
    de: {
      title: "Seitenbestandteile neu definiert",
      explanation:
        "Eine spätere Fassung definiert Seiteninhalte oder Seitenangaben neu, ohne dass sich der gelesene Text ändert (z. B. Grafiken, Layout).",
    },
    en: {
      title: "Page parts redefined",
      explanation:
        "A later version redefines page content or page entries without changing the text that can be read (e.g. graphics, layout).",
    },
    pl: {
      title: "Elementy strony zdefiniowane na nowo",
      explanation:
        "Późniejsza wersja na nowo definiuje treść lub parametry strony bez zmiany odczytywanego tekstu (np. grafika, układ).",
    },
  },
} satisfies Record<string, FindingText>;

const labels: Record<Language, DiffLabels> = {
  de: {
    title: (a, b) => `Fassung ${a} -> ${b}: Änderungen`,
    was: "vorher",
    now: "jetzt",
    added: "neu",
    removed: "entfernt",
    annotation: "Anmerkung",
    pages: (a, b) => `Seitenzahl ${a} -> ${b}`,
    addedPage: "Diese Seite kam neu hinzu.",
    objects: "Neu definierte Objekte:",
  },
  en: {
    title: (a, b) => `Version ${a} -> ${b}: changes`,
    was: "before",
    now: "now",
    added: "added",
    removed: "removed",
    annotation: "Annotation",
    pages: (a, b) => `Pages ${a} -> ${b}`,
    addedPage: "This page was added.",
    objects: "Redefined objects:",
  },
  pl: {
    title: (a, b) => `Wersja ${a} -> ${b}: zmiany`,
    was: "przedtem",
    now: "teraz",
    added: "dodano",
    removed: "usunięto",
    annotation: "Adnotacja",
    pages: (a, b) => `Strony ${a} -> ${b}`,
    addedPage: "Ta strona została dodana.",
    objects: "Obiekty zdefiniowane na nowo:",
  },
};

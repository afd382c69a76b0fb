import { finding } from "../finding";
import type { Analyzer, AnalyzerResult, Finding, Language, ScanContext, ScanFile } from "../types";
import {
  invisibleText,
  isScanPage,
  whiteBoxesOverScan,
  oddFontsInLines,
  repeatedSubsets,
  visibleTextOnScan,
  whiteBoxesOverText,
} from "../pdf/content-checks";
import { pdfLimits } from "../pdf/limits";
import { readMetadata, type PdfMetadata } from "../pdf/metadata";
import { scanObjects, type ObjectScan } from "../pdf/object-scan";
import { pageModels } from "../pdf/pages";
import { hasPdfHeader, revisionsOf } from "../pdf/parsed";
import { openPdfJs } from "../pdf/pdfjs";
import { openPdfLib } from "../pdf/pdflib";
import { editorsIn } from "../pdf/producers";
import type { PageModel } from "../pdf/page-model";
import { streamBudget } from "../pdf/stream-budget";
import { pdfUnpackBudgetFinding } from "./budget-texts";
import { structureTexts as T } from "./pdf-structure-texts";

const HOUR = 3_600_000;
const E_INVOICE_XML = /^(factur-x|zugferd-invoice|zugferd|xrechnung|order-x)\.xml$/i;

/** Metadata (Info, XMP), active content, fonts and what the pages draw: covered, invisible or added text. */
export const pdfStructure: Analyzer = {
  id: "pdf-structure",
  version: "1.0.0",
  appliesTo: (file) => file.kind === "pdf",
  async analyze(file: ScanFile, ctx: ScanContext): Promise<AnalyzerResult> {
    const lang = ctx.language;
    if (file.bytes.length > pdfLimits.maxFileBytes || !hasPdfHeader(file.bytes))
      return unreadable(lang, "size or header");
    // Checked before pdf.js or pdf-lib opens the file: both would unpack a decompression bomb whole.
    const budget = streamBudget(file.bytes);
    if (!budget.ok) return { assessed: false, findings: [pdfUnpackBudgetFinding(lang, budget)] };
    let meta: PdfMetadata;
    let pages: PageModel[];
    try {
      meta = await readMetadata(await openPdfJs(file.bytes));
      pages = await pageModels(file.bytes);
    } catch (e) {
      return unreadable(lang, e instanceof Error ? e.message : String(e));
    }
    const objects = await openPdfLib(file.bytes)
      .then(scanObjects)
      .catch(() => null);
    const split = revisionsOf(file.bytes);
    const latestTrailer = split.revisions.at(-1)?.sections[0]?.trailer;
    const encrypted = !!latestTrailer && "Encrypt" in latestTrailer.v;
    const findings = [
      ...(encrypted ? [finding(lang, "PDF_ENCRYPTED", "Yellow", T.encrypted)] : []),
      ...(objects ? activeContent(lang, objects) : []),
      ...metadataFindings(lang, meta, ctx),
      ...contentFindings(lang, pages, objects),
    ];
    const skipped = pages.filter((p) => p.truncated).map((p) => p.page);
    if (skipped.length > 0) findings.push(finding(lang, "PDF_PAGE_TOO_COMPLEX", "-", T.tooComplex, { pages: skipped }));
    if (findings.every((f) => f.level === "Green" || f.code === "PDF_PAGE_TOO_COMPLEX"))
      findings.unshift(
        finding(lang, "PDF_STRUCTURE_CLEAN", "Green", T.clean, { producer: meta.producer, creator: meta.creator }),
      );
    return {
      assessed: true,
      findings,
      metadata: {
        producer: meta.producer,
        creator: meta.creator,
        creationDate: meta.creationDate?.toISOString() ?? null,
        modDate: meta.modDate?.toISOString() ?? null,
        xmpHistory: meta.history,
        pages: pages.length,
        scannedPages: pages.filter(isScanPage).map((p) => p.page),
        encrypted,
        fonts: objects?.fonts.slice(0, 50) ?? [],
      },
    };
  },
};

function activeContent(lang: Language, o: ObjectScan): Finding[] {
  const out: Finding[] = [];
  if (o.javascript > 0) out.push(finding(lang, "PDF_JAVASCRIPT", "Yellow", T.javascript, { actions: o.javascript }));
  if (o.launch > 0)
    out.push(finding(lang, "PDF_LAUNCH_ACTION", "Yellow", T.launch, { actions: o.launch, openAction: o.openAction }));
  if (o.xfa) out.push(finding(lang, "PDF_XFA", "Yellow", T.xfa));
  if (o.embeddedFiles.length > 0) {
    const invoiceOnly = o.embeddedFiles.every((n) => E_INVOICE_XML.test(n));
    out.push(
      finding(
        lang,
        invoiceOnly ? "PDF_EMBEDDED_EINVOICE" : "PDF_EMBEDDED_FILES",
        invoiceOnly ? "Green" : "Yellow",
        invoiceOnly ? T.eInvoice : T.embeddedFiles,
        { files: o.embeddedFiles },
      ),
    );
  }
  return out;
}

function metadataFindings(lang: Language, m: PdfMetadata, ctx: ScanContext): Finding[] {
  const out: Finding[] = [];
  const editors = editorsIn([m.producer, m.creator, m.xmpProducer, m.xmpCreatorTool, ...m.history.map((h) => h.agent)]);
  if (editors.length > 0)
    out.push(
      finding(lang, "PDF_EDITOR_TOOL", "Yellow", T.editor, { editors, producer: m.producer, creator: m.creator }),
    );
  const created = m.creationDate ?? m.xmpCreateDate;
  const modified = m.modDate ?? m.xmpModifyDate;
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  if (created && modified && modified.getTime() - created.getTime() > HOUR)
    out.push(
      finding(lang, "PDF_MODIFIED_AFTER_CREATION", "Yellow", T.modifiedLater, {
        created: iso(created),
        modified: iso(modified),
        hours: Math.round((modified.getTime() - created.getTime()) / HOUR),
      }),
    );
  const latest = [created, modified].filter((d): d is Date => !!d).sort((a, b) => b.getTime() - a.getTime())[0];
  if (ctx.issueDate && latest && latest.getTime() > ctx.issueDate.getTime() + 24 * HOUR)
    out.push(
      finding(lang, "PDF_CHANGED_AFTER_ISSUE_DATE", "Yellow", T.afterIssue, {
        issueDate: iso(ctx.issueDate),
        latest: iso(latest),
      }),
    );
  if (latest && latest.getTime() > ctx.now.getTime() + 24 * HOUR)
    out.push(finding(lang, "PDF_DATE_IN_FUTURE", "Yellow", T.future, { date: iso(latest), now: iso(ctx.now) }));
  if (m.modDate && m.xmpModifyDate && Math.abs(m.modDate.getTime() - m.xmpModifyDate.getTime()) > HOUR)
    out.push(
      finding(lang, "PDF_INFO_XMP_MISMATCH", "Yellow", T.xmpMismatch, {
        infoModDate: iso(m.modDate),
        xmpModifyDate: iso(m.xmpModifyDate),
      }),
    );
  return out;
}

function contentFindings(lang: Language, pages: PageModel[], objects: ObjectScan | null): Finding[] {
  const out: Finding[] = [];
  const covered = pages.flatMap(whiteBoxesOverText);
  const overwritten = covered.filter((c) => c.writtenOver !== "");
  if (overwritten.length > 0)
    out.push(finding(lang, "PDF_TEXT_COVERED_AND_OVERWRITTEN", "Red", T.whiteBoxOverwritten, { regions: overwritten }));
  else if (covered.length > 0) out.push(finding(lang, "PDF_TEXT_COVERED", "Yellow", T.whiteBox, { regions: covered }));
  const scanBoxes = pages.flatMap(whiteBoxesOverScan);
  if (scanBoxes.length > 0)
    out.push(finding(lang, "PDF_BOX_OVER_SCAN", "Yellow", T.boxOverScan, { regions: scanBoxes }));
  const invisible = pages.flatMap((p) => invisibleText(p).map((text) => ({ page: p.page, text: text.slice(0, 80) })));
  if (invisible.length > 0)
    out.push(
      finding(lang, "PDF_INVISIBLE_TEXT", "Yellow", T.invisibleText, {
        count: invisible.length,
        examples: invisible.slice(0, 10),
      }),
    );
  const onScan = pages.flatMap((p) => visibleTextOnScan(p).map((text) => ({ page: p.page, text: text.slice(0, 80) })));
  if (onScan.length > 0)
    out.push(
      finding(lang, "PDF_VISIBLE_TEXT_ON_SCAN", "Yellow", T.textOnScan, {
        count: onScan.length,
        examples: onScan.slice(0, 10),
      }),
    );
  const odd = pages.flatMap(oddFontsInLines);
  if (odd.length > 0) out.push(finding(lang, "PDF_NUMBER_IN_ODD_FONT", "Yellow", T.oddFont, { runs: odd }));
  const subsets = objects ? repeatedSubsets(objects.fonts) : [];
  if (subsets.length > 0)
    out.push(finding(lang, "PDF_FONT_SUBSET_REPEATED", "Yellow", T.repeatedSubset, { fonts: subsets }));
  return out;
}

function unreadable(lang: Language, reason: string): AnalyzerResult {
  return {
    assessed: false,
    findings: [finding(lang, "PDF_CONTENT_UNREADABLE", "-", T.unreadable, { reason: reason.slice(0, 200) })],
  };
}

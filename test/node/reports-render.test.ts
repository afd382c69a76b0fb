/**
 * Both report PDFs rendered and read back with poppler (Node side: workerd tests cannot spawn
 * processes). The input is a 2.6 result as the service gathers it: photos with thumbnails and
 * heatmaps, a PDF with two revisions and an image taken from it, a damaged file, names in German,
 * Polish and Japanese, a long name, long evidence.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildReports, nodeFonts } from "../../scripts/reports/node-reports";
import type { FileResult } from "../../src/scanner/analysis/file-result";
import { encodePng } from "../../src/scanner/images/png-encode";
import { CONTENT_WIDTH, MARGIN, openReport, PAGE } from "../../src/scanner/reports/layout";
import type { Finding, Language } from "../../src/scanner/types";

const CASE = "SCHADEN-2026/Łódź-Köln-0042";
const dir = mkdtempSync(join(tmpdir(), "reports-render-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (n: number) => n.toString(16).padStart(2, "0").repeat(32);
const finding = (level: Finding["level"], title: string, evidence: Record<string, unknown> = {}): Finding => ({
  code: "META_CONSISTENT",
  level,
  title,
  explanation: `${title}: Erklärung mit Umlauten (äöüß) und polskie znaki (ąęłśż), die lang genug ist, um über mehrere Zeilen umzubrechen und so den Zeilenumbruch zu prüfen.`,
  evidence,
});
const photo = (n: number, name: string, level: Finding["level"]): [string, FileResult] => [
  name,
  {
    suspicion_level: level,
    type: "image",
    mimeType: "image/jpeg",
    sha256: sha(n),
    size: 1_234_567 + n,
    findings: [
      finding(level, `Befund ${n} – Größe`, { region: { x: 10, y: 20, width: 300, height: 200 }, score: 0.8123 }),
      finding("Green", "Keine kopierten Bereiche"),
    ],
    metadata: { metadata: { make: "Canon", model: "EOS 5D", software: "GIMP 2.10" }, thumbnail: { width: 320 } },
    attachments: [`thumbnails/${name}.thumb.png`, `heatmaps/${name}.ela.png`, `heatmaps/${name}.noise.png`],
  },
];

/** 24 photos, a PDF with an image taken from it, a damaged file. */
function caseFiles(): Record<string, FileResult> {
  const files: [string, FileResult][] = [];
  files.push(photo(1, "Küche_Wasserschaden_äöüß.jpg", "Yellow"));
  files.push(photo(2, "łazienka_ąęłśż.jpg", "Red"));
  files.push(photo(3, "写真.jpg", "Green"));
  files.push(photo(4, `${"sehr-langer-Dateiname-".repeat(8)}.jpg`, "Green"));
  for (let n = 5; n <= 24; n++) files.push(photo(n, `foto_${n}.jpg`, n % 3 === 0 ? "Yellow" : "Green"));
  files.push([
    "Rechnung_geändert.pdf",
    {
      suspicion_level: "Red",
      type: "pdf",
      mimeType: "application/pdf",
      sha256: sha(100),
      size: 2333,
      findings: [
        finding("Red", "Sichtbarer Text nachträglich geändert", {
          changes: [{ kind: "changed", page: 1, before: "1.100,00 EUR", after: "2.100,00 EUR" }],
          long: "x".repeat(2000),
        }),
      ],
      metadata: { "pdf-revisions": { revisions: 2 }, "pdf-structure": { producer: "Muster Faktura 4.2" } },
      attachments: ["pdf_versions/Rechnung_geändert.pdf.rev1.pdf", "pdf_diffs/Rechnung_geändert.pdf.diff.pdf"],
    },
  ]);
  files.push([
    "Rechnung_geändert.pdf#p1-1.jpg",
    {
      ...photo(101, "Rechnung_geändert.pdf#p1-1.jpg", "Green")[1],
      source: { parent: "Rechnung_geändert.pdf", page: 1 },
    },
  ]);
  files.push([
    "beschädigt.jpg",
    {
      suspicion_level: "-",
      type: "image",
      mimeType: "image/jpeg",
      sha256: sha(200),
      size: 20000,
      findings: [finding("-", "Datei beschädigt", { reason: "truncated" })],
      metadata: {},
      attachments: [],
    },
  ]);
  return Object.fromEntries(files);
}

/** A 400×300 PNG gradient standing in for a heatmap or thumbnail (three variants, made once). */
const pictures = [0, 1, 2].map(picture);
function picture(seed: number): Uint8Array {
  const w = 400;
  const h = 300;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      rgba.set([(x * 255) / w, (y * 255) / h, (seed * 40) % 255, 255], o);
    }
  return encodePng(rgba, w, h);
}

const modelVersions = { "file-type": "1.0.0", ela: "1.0.0", noise: "1.0.0", "pdf-revisions": "1.0.0" };
const files = caseFiles();

type Built = { analysis: string; enfsi: string; mapping: Record<string, number>; pages: number };
const built: Partial<Record<Language, Built>> = {};

beforeAll(async () => {
  // Two 27-file cases, each with ≈ 80 pictures downscaled and encoded: a few seconds on a busy machine.
  for (const language of ["de", "pl"] as const) {
    const result = {
      Files: files,
      suspicion_level: "Red" as const,
      caseNumber: CASE,
      sessionId: "0b8a3c52-3b1e-4d7a-9f39-6f0f7d3a9e11",
      modelVersions,
    };
    const { analysis, enfsi } = await buildReports(result, language, async (ref) =>
      ref.endsWith(".png") ? pictures[ref.length % 3] : null,
    );
    const analysisPath = join(dir, `analysis-${language}.pdf`);
    const enfsiPath = join(dir, `enfsi-${language}.pdf`);
    writeFileSync(analysisPath, analysis.pdf);
    writeFileSync(enfsiPath, enfsi);
    built[language] = { analysis: analysisPath, enfsi: enfsiPath, mapping: analysis.mapping, pages: analysis.pages };
  }
}, 120_000);

const poppler = (tool: string, ...args: string[]) => execFileSync(tool, args, { encoding: "utf8" });
const pageCount = (pdf: string) => Number(/Pages:\s+(\d+)/.exec(poppler("pdfinfo", pdf))![1]);
const pageText = (pdf: string) => poppler("pdftotext", "-enc", "UTF-8", pdf, "-");
/** The text of each page (pdftotext ends every page with a form feed). */
const pagesOf = (pdf: string) => pageText(pdf).split("\f").slice(0, -1);
/** Text without line breaks and spaces: a name or hash wrapped over two lines still matches. */
const joined = (text: string) => text.replace(/\s+/g, "");

describe("page counts: every page renders; the analysis report has a cover and a section per file", () => {
  it.each(["de", "pl"] as const)("%s", (language) => {
    const { analysis, enfsi, pages } = built[language]!;
    expect(pageCount(analysis)).toBe(pages);
    expect(pages).toBeGreaterThanOrEqual(1 + Object.keys(files).length);
    expect(pageCount(enfsi)).toBeGreaterThan(2);
    // pdftoppm renders every page of both (an unreadable page would fail the command).
    for (const pdf of [analysis, enfsi]) {
      poppler("pdftoppm", "-r", "20", "-png", pdf, join(dir, `${language}-page`));
    }
  });
});

describe("pdfReportMapping: every file of Files, each mapped page names its file", () => {
  it.each(["de", "pl"] as const)("%s", (language) => {
    const { analysis, mapping } = built[language]!;
    const text = pagesOf(analysis);
    expect(Object.keys(mapping)).toEqual(Object.keys(files));
    const pages = Object.values(mapping);
    expect(pages[0]).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < pages.length; i++) expect(pages[i]).toBeGreaterThan(pages[i - 1]);
    for (const [name, page] of Object.entries(mapping)) {
      // Characters outside the embedded font (Japanese here) are printed as "?".
      const printable = name.replace(/[^\u0000-\u017f]/g, "?");
      expect(joined(text[page - 1]), `${name} on page ${page}`).toContain(joined(printable));
      expect(joined(text[page - 2])).not.toContain(joined(`${printable}SHA`));
    }
  });
});

describe("case number and the SHA-256 of each item appear", () => {
  it.each(["de", "pl"] as const)("%s", (language) => {
    const { analysis, enfsi } = built[language]!;
    for (const pdf of [analysis, enfsi]) {
      const text = joined(pageText(pdf));
      for (const file of Object.values(files)) expect(text).toContain(file.sha256);
      // In every footer.
      const pages = pagesOf(pdf);
      expect(pages).toHaveLength(pageCount(pdf));
      for (const page of pages) expect(joined(page)).toContain(joined(CASE));
    }
  });
});

describe("German and Polish diacritics survive (embedded Unicode font)", () => {
  it("German report: ä ö ü ß in the words and the names", () => {
    const text = pageText(built.de!.analysis) + pageText(built.de!.enfsi);
    for (const word of ["Größe", "Küche_Wasserschaden_äöüß.jpg", "Schlussfolgerung", "Prüfung", "Łódź-Köln"])
      expect(joined(text)).toContain(joined(word));
  });
  it("Polish report: ą ę ł ś ż in the words and the names", () => {
    const text = pageText(built.pl!.analysis) + pageText(built.pl!.enfsi);
    for (const word of ["łazienka_ąęłśż.jpg", "Wnioski", "Ocena ogólna", "Najważniejsze", "Skala słowna", "Rozmiar"])
      expect(joined(text)).toContain(joined(word));
  });
});

describe("ENFSI report: the sections of the best practice manual and a conclusion per item", () => {
  it("has request, questions, items, methods with versions, results, limitations, conclusions", () => {
    const text = pageText(built.de!.enfsi);
    for (const heading of [
      "1. Auftrag",
      "2. Fragestellung",
      "3. Erhaltene Asservate",
      "4. Methoden und Werkzeuge",
      "5. Untersuchungen und Ergebnisse",
      "6. Grenzen der Methoden",
      "7. Schlussfolgerungen",
      "Verbale Skala",
    ])
      expect(text).toContain(heading);
    expect(joined(text)).toContain(joined("ela 1.0.0"));
    expect(text.match(/Schlussfolgerung:/g)?.length).toBe(Object.keys(files).length);
  });
});

/**
 * poppler drops the characters of a word that lie outside the page box (and whole words beyond it), so
 * "inside the page box" alone could miss an overflow: every word must lie inside the printable area
 * (the margins; the footer below the bottom margin), which any overflow crosses first.
 */
describe("no text runs off a page (pdftotext -bbox within the page box and the margins)", () => {
  const area = {
    left: MARGIN.left - 0.5,
    right: PAGE.width - MARGIN.right + 0.5,
    top: MARGIN.top - 4,
    bottom: PAGE.height - 14,
  };
  it.each(["de", "pl"] as const)("%s", (language) => {
    for (const pdf of [built[language]!.analysis, built[language]!.enfsi]) {
      const html = poppler("pdftotext", "-bbox", pdf, "-");
      const pages = [...html.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)];
      expect(pages.length).toBe(pageCount(pdf));
      let words = 0;
      for (const [, width, height, body] of pages) {
        expect([Number(width), Number(height)]).toEqual([PAGE.width, PAGE.height]);
        for (const [, xMin, yMin, xMax, yMax, word] of body.matchAll(
          /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)</g,
        )) {
          words++;
          expect(Number(xMin), word).toBeGreaterThanOrEqual(area.left);
          expect(Number(xMax), word).toBeLessThanOrEqual(area.right);
          expect(Number(yMin), word).toBeGreaterThanOrEqual(area.top);
          expect(Number(yMax), word).toBeLessThanOrEqual(area.bottom);
        }
      }
      expect(words).toBeGreaterThan(100);
    }
  });
});

describe("a name without spaces wider than the line is cut by character", () => {
  it("a 4000-character name: every line fits, nothing is lost", async () => {
    const { flow } = await openReport("wrap", new Date(0), nodeFonts);
    const name = `${"verzeichnis/".repeat(80)}${"x".repeat(3040)}.jpg`;
    const lines = flow.wrap(`Datei ${name} geprüft`, CONTENT_WIDTH, 9.5);
    const withoutSpaces = (text: string) => text.replaceAll(" ", "");
    expect(withoutSpaces(lines.join(""))).toBe(withoutSpaces(`Datei ${name} geprüft`));
    expect(lines.length).toBeGreaterThan(40);
    for (const line of lines) expect(flow.widthOf(line, 9.5)).toBeLessThanOrEqual(CONTENT_WIDTH);
    // Pieces are as full as the line allows: one more character would not have fitted.
    for (const [i, line] of lines.slice(1, -2).entries())
      expect(flow.widthOf(line + lines[i + 2][0], 9.5)).toBeGreaterThan(CONTENT_WIDTH);
  });
});
